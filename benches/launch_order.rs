//! The cost of the launch-order rerun (sim/src/launch_order.rs): a draw
//! whose workgroups write a bound buffer first runs them in parallel, each
//! on a copy-on-write copy of the memory, then discards that attempt and
//! runs them again one after another in launch order. The workload is the
//! meshlet draw of benches/draw.rs on fewer task workgroups, with the mesh
//! shader of benches/data/meshlet_store.mesh.glsl: the same program runs
//! with its push constant `store` at 0 (may write, does not: the parallel
//! attempt stands) and at 1 (lane 0 of every mesh workgroup writes one
//! word: the rerun happens). The difference between the two is the
//! rerun's cost; each runs on one thread and on the machine's rayon pool.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use spvsass::backend::binary::Binary;
use spvsass::sim::ComputeInputs;
use std::hint::black_box;

const TASK: &[u8] = include_bytes!("data/meshlet.task.spv");
const MESH: &[u8] = include_bytes!("data/meshlet_store.mesh.spv");
/// 1024 meshlets tested, a quarter of benches/draw.rs: each run stays
/// short enough for criterion's ten samples.
const TASK_GROUPS: u32 = 32;

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

/// The draw's inputs: a zeroed word per possible mesh workgroup at
/// binding 0, and the `store` push constant.
fn inputs(store: bool) -> ComputeInputs {
    ComputeInputs {
        buffers: [(0, vec![0; 4 * 32 * TASK_GROUPS as usize])].into(),
        push_constants: u32::from(store).to_le_bytes().to_vec(),
        ..ComputeInputs::default()
    }
}

fn launch_order(c: &mut Criterion) {
    let task = compile(TASK, false);
    let mesh = compile(MESH, true);
    let run = |store: bool| {
        spvsass::Draw::new(Some(&task), &mesh, [TASK_GROUPS, 1, 1])
            .options(unchecked())
            .inputs(inputs(store))
            .run()
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let quiet = run(false);
    let storing = run(true);
    // The store must really happen in one case and not in the other, or
    // the comparison measures nothing.
    assert!(quiet.buffers[&0].iter().all(|&b| b == 0));
    assert!(storing.buffers[&0].iter().any(|&b| b != 0));
    assert_eq!(quiet.draw.workgroups, storing.draw.workgroups);
    println!(
        "launch order: {} mesh workgroups; {} / {} thread-instructions per draw without / with the store",
        quiet.draw.workgroups.len(),
        quiet.draw.counters.thread_instructions,
        storing.draw.counters.thread_instructions,
    );
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool");
    let all = rayon::current_num_threads();
    let mut group = c.benchmark_group("launch_order");
    group.sample_size(10);
    group.throughput(Throughput::Elements(
        quiet.draw.counters.thread_instructions,
    ));
    for (name, store) in [("no_store", false), ("store_rerun", true)] {
        group.bench_function(format!("{name}_1_thread"), |b| {
            one.install(|| b.iter(|| black_box(run(store))))
        });
        group.bench_function(format!("{name}_{all}_threads"), |b| {
            b.iter(|| black_box(run(store)))
        });
    }
    group.finish();
}

criterion_group!(benches, launch_order);
criterion_main!(benches);

/// The simulator's options without the control-bit checker: the benchmark
/// measures the simulation (the checker is on in the tests).
fn unchecked() -> spvsass::sim::SimOptions {
    spvsass::sim::SimOptions {
        check_ctrl: false,
        ..Default::default()
    }
}
