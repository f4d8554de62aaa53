//! Heap memory of the simulator per workgroup, measured by a counting
//! global allocator (heap only: thread stacks and the binary's pages are
//! not counted). For each workload it prints, at 1 and at N workgroups:
//! the peak heap during the run above what was live before it, the part
//! still live after it (the returned result: buffers, mesh outputs), and
//! the difference, the transient state of the workgroups in flight. N
//! workgroups run on one thread and on pools of several threads, since
//! each thread has its own workgroup in flight.
//! `cargo bench --bench sim_memory`.

use spvsass::backend::binary::Binary;
use spvsass::sim::ComputeInputs;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; the
// counters only observe sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's layout.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

const REDUCE: &[u8] = include_bytes!("../tests/shaders/c_reduce256.comp.spv");
const ALU: &[u8] = include_bytes!("data/alu_heavy.comp.spv");
const TASK: &[u8] = include_bytes!("data/meshlet.task.spv");
const MESH: &[u8] = include_bytes!("data/meshlet.mesh.spv");

/// Workgroups of the larger runs; the task+mesh draw's are task
/// workgroups, each launching up to 32 mesh workgroups.
const N: u32 = 128;

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

/// Heap during and after one call of `f` on a pool of `threads`: the
/// peak and the bytes its result keeps, both above what was live before.
struct Heap {
    peak: usize,
    retained: usize,
}

fn measure<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> (Heap, T) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    // The pool's own threads are started before the baseline.
    pool.install(|| {});
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let result = pool.install(f);
    let heap = Heap {
        peak: PEAK.load(Ordering::Relaxed) - before,
        retained: LIVE.load(Ordering::Relaxed).saturating_sub(before),
    };
    (heap, result)
}

fn kib(bytes: usize) -> String {
    format!("{:.1} KiB", bytes as f64 / 1024.0)
}

fn row(workload: &str, groups: usize, threads: usize, heap: &Heap) {
    println!(
        "| {workload} | {groups} | {threads} | {} | {} | {} |",
        kib(heap.peak),
        kib(heap.retained),
        kib(heap.peak - heap.retained.min(heap.peak)),
    );
}

/// A compute dispatch of `groups` workgroups with `inputs(groups)`
/// bound; the inputs are built before the measurement.
fn compute(name: &str, binary: &Binary, inputs: impl Fn(u32) -> ComputeInputs) {
    let mut rows = Vec::new();
    for (groups, threads) in [(1, 1), (N, 1), (N, 2), (N, 4)] {
        let bound = inputs(groups);
        let (heap, run) = measure(threads, || {
            spvsass::Dispatch::new(binary, [groups, 1, 1])
                .options(unchecked())
                .inputs(bound)
                .run()
                .unwrap_or_else(|e| panic!("{e}"))
        });
        row(name, groups as usize, threads, &heap);
        drop(run);
        rows.push(heap);
    }
    per_workgroup(name, &rows[0], &rows[1], N as usize - 1);
}

/// The growth from one workgroup to many, per added workgroup.
fn per_workgroup(name: &str, one: &Heap, many: &Heap, added: usize) {
    let per = |a: usize, b: usize| (a as f64 - b as f64) / added as f64;
    println!(
        "{name}: per added workgroup on 1 thread: peak {:+.0} B, retained {:+.0} B",
        per(many.peak, one.peak),
        per(many.retained, one.retained),
    );
}

fn main() {
    // `cargo test --benches` runs bench targets with no arguments too; a
    // few small runs, so it measures either way.
    println!("| workload | workgroups | threads | peak heap | retained | transient |");
    println!("|---|---|---|---|---|---|");
    let reduce = compile(REDUCE, false);
    compute("c_reduce256 (256 invocations)", &reduce, |groups| {
        ComputeInputs {
            buffers: [
                (0, vec![1; 1024 * groups as usize]),
                (1, vec![0; 4 * groups as usize]),
            ]
            .into(),
            ..ComputeInputs::default()
        }
    });
    let alu = compile(ALU, false);
    compute("alu_heavy (64 invocations)", &alu, |groups| ComputeInputs {
        buffers: [(0, vec![0; 256 * groups as usize])].into(),
        push_constants: 64u32.to_le_bytes().to_vec(),
        ..ComputeInputs::default()
    });

    let task = compile(TASK, false);
    let mesh = compile(MESH, true);
    let mut rows = Vec::new();
    let mut mesh_groups = Vec::new();
    for (groups, threads) in [(1, 1), (N, 1), (N, 2), (N, 4), (N, 8)] {
        let (heap, draw) = measure(threads, || {
            spvsass::Draw::new(Some(&task), &mesh, [groups, 1, 1])
                .options(unchecked())
                .run()
                .map(|r| r.draw)
                .unwrap_or_else(|e| panic!("{e}"))
        });
        let name = format!("meshlet task+mesh ({} mesh wg)", draw.workgroups.len());
        row(&name, groups as usize, threads, &heap);
        mesh_groups.push(draw.workgroups.len());
        drop(draw);
        rows.push(heap);
    }
    per_workgroup(
        "meshlet draw, per mesh workgroup",
        &rows[0],
        &rows[1],
        mesh_groups[1] - mesh_groups[0],
    );
}

/// The simulator's options without the control-bit checker: the benchmark
/// measures the simulation (the checker is on in the tests).
fn unchecked() -> spvsass::sim::SimOptions {
    spvsass::sim::SimOptions {
        check_ctrl: false,
        ..Default::default()
    }
}
