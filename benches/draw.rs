//! Task+mesh draw throughput on the meshlet workload
//! (benches/data/meshlet.{task,mesh}.glsl): 4096 meshlets culled by 128
//! task workgroups, the survivors expanded by mesh workgroups of 64
//! vertices and 98 triangles. The SPIR-V is compiled once; each iteration
//! simulates the whole draw (no rasterization). Throughput is in
//! thread-instructions, as in sim/benches/exec.rs; the draw runs on one
//! thread and on the machine's rayon pool, for the scaling.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use spvsass::backend::binary::Binary;
use std::hint::black_box;

const TASK: &[u8] = include_bytes!("data/meshlet.task.spv");
const MESH: &[u8] = include_bytes!("data/meshlet.mesh.spv");
const TASK_GROUPS: u32 = 128;

fn compile(bytes: &[u8], task_present: bool) -> Binary {
    let words = spvsass::frontend::words_from_bytes(bytes).expect("SPIR-V");
    let options = spvsass::Options {
        task_present,
        ..spvsass::Options::default()
    };
    spvsass::compile(&words, &options)
        .unwrap_or_else(|e| panic!("{e}"))
        .binary
}

fn draw(c: &mut Criterion) {
    let task = compile(TASK, false);
    let mesh = compile(MESH, true);
    let run = || {
        spvsass::Draw::new(Some(&task), &mesh, [TASK_GROUPS, 1, 1])
            .options(unchecked())
            .run()
            .map(|r| r.draw)
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let first = run();
    println!(
        "meshlet: {} mesh workgroups, {} warp-instructions, {} thread-instructions per draw",
        first.workgroups.len(),
        first.counters.warp_instructions,
        first.counters.thread_instructions
    );
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool");
    let mut group = c.benchmark_group("draw");
    group.throughput(Throughput::Elements(first.counters.thread_instructions));
    group.bench_function("meshlet_1_thread", |b| {
        one.install(|| b.iter(|| black_box(run())))
    });
    group.bench_function(
        format!("meshlet_{}_threads", rayon::current_num_threads()),
        |b| b.iter(|| black_box(run())),
    );
    group.finish();
}

criterion_group!(benches, draw);
criterion_main!(benches);

/// The simulator's options without the control-bit checker: the benchmark
/// measures the simulation (the checker is on in the tests).
fn unchecked() -> spvsass::sim::SimOptions {
    spvsass::sim::SimOptions {
        check_ctrl: false,
        ..Default::default()
    }
}
