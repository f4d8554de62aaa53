//! A workgroup's warps side by side between its barriers, with the result
//! of running them in turns (ARCHITECTURE.md, "Parallel compute
//! dispatches"), for a dispatch of a few large workgroups (fewer than
//! `GROUPS_PER_THREAD` per thread): their warps share out the threads,
//! where whole workgroups would leave some idle. A program without
//! barriers has one round, its warps' whole runs.
//!
//! In turns (`dispatch::run_warps`), each round runs warp 0 until it exits
//! or waits at a BAR.SYNC, then warp 1, and so on; then the barrier is
//! released and the next round starts. Here a round first runs every
//! running warp at once, each from its state at the round's start, on its
//! own copies (overlays, `overlay.rs`) of the workgroup's shared memory
//! and of global memory as they were then, and of its local memory. Then
//! the runs are kept in warp order, run k as long as
//!
//! - it ended without error, at an exit or a barrier;
//! - it read no shared or global byte that a warp kept before it in this
//!   round wrote, nor (in a parallel attempt, `compute_order.rs`, where
//!   global memory is itself an overlay) a global byte its workgroup wrote
//!   in an earlier round: the round's copies do not hold those;
//! - the workgroup's step count stays below the budget with it (the count
//!   is the workgroup's, in turn order: run k counted from 0, and the true
//!   count is larger; below the budget both runs are the same, as long as
//!   nothing reads the count: a program that reads the clock, or a run
//!   under the control-bit checker, whose latencies count in steps, runs
//!   in turns).
//!
//! By the argument of `compute_order.rs`, warp by warp: a kept run read
//! what it would have read in its turn, so it is its turn's run, and its
//! writes over the memories are its turn's effects. At the first run not
//! kept, that warp and the ones after it run in turns from their states
//! at the round's start, on the real memories, and an error is then the
//! one the run in turns reports.
//!
//! The runs of a round are jobs of the dispatch's worker pool
//! (`workers.rs`), nested inside the workgroup's job. A worker waiting for
//! them may take another of the dispatch's job loops, which must then not
//! block: they wait only when the commits fall `WINDOW_PER_THREAD`
//! workgroups per thread behind, which a dispatch of fewer than
//! `GROUPS_PER_THREAD` per thread never reaches.

use crate::SimOptions;
use crate::isbe::Isbe;
use crate::memory::{GlobalMemory, Resources, WorkgroupMemory};
use crate::overlay::{Overlay, Written};
use crate::program::Program;
use crate::warp::{Env, Launch, Stop, Tally, Warp};
use rayon::prelude::*;
use spvsass_isa::isa::{Op, SpecialReg};

/// Warps run side by side only in a dispatch of fewer workgroups than
/// this per thread: with more, whole workgroups already fill the threads,
/// and each warp's run costs a copy of its state and overlays, kept in
/// order. (Measured with warps as units of the whole dispatch, an earlier
/// design: a 32 MiB copy in 8192 workgroups of 8 warps went from
/// 0.26–0.28 s to 0.37 s at 16 threads; BENCHMARKS.md, "Warps as the units
/// of a few large workgroups".)
pub(crate) const GROUPS_PER_THREAD: usize = 4;

const _: () = assert!(
    GROUPS_PER_THREAD <= crate::compute_order::WINDOW_PER_THREAD,
    "a dispatch whose warps run side by side never fills the commit window"
);

/// Whether a run of `program` may count its steps from 0 and be kept if
/// the count stays below the budget: no instruction reads the clock, and
/// the control-bit checker is off.
pub(crate) fn reads_no_clock(program: &Program, options: &SimOptions) -> bool {
    !options.check_ctrl
        && program.instrs().iter().all(|ins| match &ins.op {
            Op::S2R(o) => !matches!(o.sr, SpecialReg::ClockLo | SpecialReg::ClockHi),
            Op::Cs2r(o) => o.sr == SpecialReg::Zero,
            _ => true,
        })
}

/// One warp's run through a round, on copies of the memories.
struct Attempt<'r> {
    warp: Warp<'r>,
    local: Vec<Vec<u8>>,
    tally: Tally,
    stop: Stop,
    shared: Overlay,
    global: Overlay,
}

/// A workgroup's warps and the memories they share, as
/// `dispatch::run_warps` keeps them.
pub(crate) struct Workgroup<'a, 'r> {
    pub program: &'a Program,
    pub launch: &'a Launch,
    pub resources: &'a Resources,
    pub options: &'a SimOptions,
    pub warps: &'a mut [Warp<'r>],
    /// Each warp's lanes' local memory, while another warp runs.
    pub locals: &'a mut [Vec<Vec<u8>>],
    /// The shared memory, and the local memory of the warp running.
    pub memory: &'a mut WorkgroupMemory,
}

/// Runs the warps of `live` (indices in warp order, more than one) through
/// a round side by side, keeps their runs in warp order while they are the
/// runs in turns (see the module's comment), and returns how many of
/// `live` were kept: the rest are to run in turns. `done` marks the kept
/// warps that exited; `tally` receives the kept runs' counts.
pub(crate) fn side_by_side(
    group: &mut Workgroup<'_, '_>,
    global: &mut GlobalMemory,
    live: &[usize],
    tally: &mut Tally,
    done: &mut [bool],
) -> usize {
    let attempts = {
        let group = &*group;
        let global = &*global;
        each(group.options.worker_threads(), live, |w| {
            attempt(group, global, w)
        })
    };
    let mut shared_written = Written::default();
    let mut global_written = Written::default();
    let mut kept = 0;
    let mut attempts = attempts.into_iter();
    for (attempt, &w) in attempts.by_ref().zip(live) {
        let Some(a) = attempt else { break };
        let keep = tally.steps.saturating_add(a.tally.steps) < group.options.max_steps
            && !shared_written.read_by(&a.shared)
            && !global_written.read_by(&a.global)
            && !global.wrote_read_of(&a.global);
        if !keep {
            crate::dispatch::keep_gprs(a.warp.into_gprs());
            break;
        }
        group.memory.shared.apply(&a.shared);
        shared_written.add(&a.shared);
        global_written.add(&a.global);
        global.take(a.global);
        tally.add(&a.tally);
        let before = std::mem::replace(&mut group.warps[w], a.warp);
        crate::dispatch::keep_gprs(before.into_gprs());
        group.locals[w] = a.local;
        done[w] = matches!(a.stop, Stop::Exited);
        kept += 1;
    }
    // The runs after the first not kept are dropped.
    for a in attempts.flatten() {
        crate::dispatch::keep_gprs(a.warp.into_gprs());
    }
    kept
}

/// Warp `w`'s run through the round from its state now, on copies of the
/// memories (`None`: it failed; run in turn, it reports its error).
fn attempt<'r>(group: &Workgroup<'_, 'r>, global: &GlobalMemory, w: usize) -> Option<Attempt<'r>> {
    let rows = group.program.gpr_rows();
    let mut warp = group.warps[w].fork(crate::dispatch::spare_gprs(0), rows);
    let mut memory = WorkgroupMemory {
        shared: group.memory.shared.overlaid(),
        local: group.locals[w].clone(),
    };
    let mut global = global.overlaid();
    let mut tally = Tally::new(group.program);
    // Compute workgroups have no ISBE; an empty one satisfies the executor.
    let mut isbe = Isbe::new(0, 0, 0);
    let mut env = Env {
        launch: group.launch,
        isbe: &mut isbe,
        global: &mut global,
        local: &mut memory,
        textures: group.resources.textures,
    };
    match warp.run_tallied(group.program, &mut env, group.options, &mut tally) {
        Ok(stop) => Some(Attempt {
            warp,
            local: memory.local,
            tally,
            stop,
            shared: memory.shared.into_overlay(),
            global: global.into_overlay(),
        }),
        Err(_) => {
            crate::dispatch::keep_gprs(warp.into_gprs());
            None
        }
    }
}

/// `f` of each of `live`, in its order, run on the dispatch's worker pool
/// of `threads` threads (on the calling thread if none could start).
fn each<T: Send>(threads: usize, live: &[usize], f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let map = || live.par_iter().with_max_len(1).map(|&w| f(w)).collect();
    match crate::workers::pool(threads) {
        Some(pool) if pool.current_thread_index().is_some() => map(),
        Some(pool) => pool.install(map),
        None => live.iter().map(|&w| f(w)).collect(),
    }
}
