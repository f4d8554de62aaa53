//! Execution-loop throughput: programs written in the assembler's syntax
//! (sim/benches/data/*.sass) run on one warp of 32 lanes. Each benchmark
//! first runs its program once to count the warp- and thread-instructions
//! it executes, prints them, and reports throughput in
//! thread-instructions (criterion's "elements"); warp-instructions per
//! second follow from the printed ratio.
//!
//! Times are the benchmark thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`),
//! not wall-clock time: the development machine is shared, and other
//! processes' load inflates wall time but not the CPU time the simulator
//! itself used. Where that clock cannot be read, wall-clock time is
//! measured instead.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use spvsass_isa::asm::assemble;
use spvsass_sim::{Counters, Isbe, Launch, Program, Resources, SimOptions, run_workgroup};
use std::hint::black_box;
use std::time::{Duration, Instant};

const ALU_LOOP: &str = include_str!("data/alu_loop.sass");
const DIVERGENT_LOOP: &str = include_str!("data/divergent_loop.sass");
const SHARED_REDUCTION: &str = include_str!("data/shared_reduction.sass");

fn program(src: &str) -> Program {
    let asm = assemble(src).unwrap_or_else(|e| panic!("{e}"));
    let binary = asm.to_binary().expect("encodes");
    Program::decode(&binary.code, binary.arch).expect("decodes")
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
        // The simulation alone, without the control-bit checker.
        &SimOptions {
            check_ctrl: false,
            ..SimOptions::default()
        },
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
    group.bench_function(name, |b| {
        b.iter_custom(|iters| {
            let timer = Timer::start();
            for _ in 0..iters {
                black_box(run(black_box(&program)));
            }
            timer.elapsed()
        })
    });
    group.finish();
}

/// The CPU time of this thread, or failing that wall-clock time.
enum Timer {
    Cpu(Duration),
    Wall(Instant),
}

impl Timer {
    fn start() -> Timer {
        thread_cpu_time().map_or_else(|| Timer::Wall(Instant::now()), Timer::Cpu)
    }

    fn elapsed(&self) -> Duration {
        match self {
            Timer::Cpu(start) => thread_cpu_time().map_or(Duration::ZERO, |now| now - *start),
            Timer::Wall(start) => start.elapsed(),
        }
    }
}

/// The CPU time this thread has used.
fn thread_cpu_time() -> Option<Duration> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for clock_gettime to write.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    (rc == 0).then(|| Duration::new(t.tv_sec as u64, t.tv_nsec as u32))
}

fn exec(c: &mut Criterion) {
    bench_program(c, "alu_loop", ALU_LOOP);
    bench_program(c, "divergent_loop", DIVERGENT_LOOP);
    bench_program(c, "shared_reduction", SHARED_REDUCTION);
}

criterion_group!(benches, exec);
criterion_main!(benches);
