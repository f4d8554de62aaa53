//! Execution-loop throughput: programs written in the assembler's syntax
//! (sim/benches/data/*.sass) run on one warp of 32 lanes. Each benchmark
//! first runs its program once to count the warp- and thread-instructions
//! it executes, prints them, and reports throughput in
//! thread-instructions (criterion's "elements"); warp-instructions per
//! second follow from the printed ratio.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use spvsass_backend::asm::assemble;
use spvsass_sim::{Counters, Isbe, Launch, Program, Resources, SimOptions, run_workgroup};
use std::hint::black_box;

const ALU_LOOP: &str = include_str!("data/alu_loop.sass");
const DIVERGENT_LOOP: &str = include_str!("data/divergent_loop.sass");
const SHARED_REDUCTION: &str = include_str!("data/shared_reduction.sass");

fn program(src: &str) -> Program {
    let asm = assemble(src).unwrap_or_else(|e| panic!("{e}"));
    let binary = asm.to_binary().expect("encodes");
    Program::decode(&binary.code).expect("decodes")
}

fn run(program: &Program) -> Counters {
    let launch = Launch {
        workgroup_size: [32, 1, 1],
        workgroup_id: [0; 3],
    };
    let mut resources = Resources {
        shared_bytes: 128,
        ..Resources::default()
    };
    let mut isbe = Isbe::new(0, 0, 0);
    run_workgroup(
        program,
        &launch,
        &mut isbe,
        &mut resources,
        &SimOptions::default(),
    )
    .expect("runs")
}

fn bench_program(c: &mut Criterion, name: &str, src: &str) {
    let program = program(src);
    let counters = run(&program);
    println!(
        "{name}: {} warp-instructions, {} thread-instructions per run",
        counters.warp_instructions, counters.thread_instructions
    );
    let mut group = c.benchmark_group("exec");
    group.throughput(Throughput::Elements(counters.thread_instructions));
    group.bench_function(name, |b| b.iter(|| run(black_box(&program))));
    group.finish();
}

fn exec(c: &mut Criterion) {
    bench_program(c, "alu_loop", ALU_LOOP);
    bench_program(c, "divergent_loop", DIVERGENT_LOOP);
    bench_program(c, "shared_reduction", SHARED_REDUCTION);
}

criterion_group!(benches, exec);
criterion_main!(benches);
