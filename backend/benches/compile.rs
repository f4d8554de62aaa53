//! Whole-compile time (bytes → words → IR → optimised MIR → registers →
//! control bits → encoding) per corpus shader, and over a generated shader
//! at 1×, 10×, 100× and 1000× size. `cargo bench -p spvsass-backend --bench compile`.

mod common;

/// The allocator the `spvsass` binary uses (src/main.rs), so that these
/// figures are those of a compile the CLI runs; a library caller keeps
/// its own. BENCHMARKS.md gives glibc's malloc figures beside them.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use common::{SCALES, compile_bytes, corpus, scaling_shader};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn per_shader(c: &mut Criterion) {
    let mut g = c.benchmark_group("compile");
    for (name, bytes) in corpus() {
        g.bench_function(name, |b| b.iter(|| compile_bytes(black_box(&bytes))));
    }
    g.finish();
}

fn scaling(c: &mut Criterion) {
    let mut g = c.benchmark_group("compile_scaling");
    for units in SCALES {
        let bytes = scaling_shader(units);
        if let Err(e) = compile_bytes(&bytes) {
            panic!("the generated shader of {units} sections does not compile: {e}");
        }
        g.throughput(Throughput::Elements(u64::from(units)));
        g.bench_with_input(BenchmarkId::from_parameter(units), &bytes, |b, bytes| {
            b.iter(|| compile_bytes(black_box(bytes)))
        });
    }
    g.finish();
}

criterion_group!(benches, per_shader, scaling);
criterion_main!(benches);
