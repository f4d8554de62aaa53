//! A compute dispatch's warps as the units of its parallel attempt
//! (`compute_order.rs`), where the program lets one workgroup's warps run
//! apart with the result of running them in turns (ARCHITECTURE.md,
//! "Parallel compute dispatches"): then the units are (workgroup, warp) in
//! launch order, so the threads share out warps, not whole workgroups,
//! and a dispatch of a few large workgroups still fills the cores (with
//! fewer than `GROUPS_PER_THREAD` workgroups per thread: with more, whole
//! workgroups fill them).
//!
//! In turns (`dispatch::run_warps`), a workgroup's warp 0 runs until it
//! exits or waits at a BAR.SYNC, then warp 1, and so on. The warps can see
//! each other through
//! - shared memory and BAR.SYNC: a program with either is not split
//!   into units (its warps run side by side between barriers inside the
//!   workgroup's job instead: `warp_phases.rs`);
//! - the step count, which is the workgroup's: warp k starts counting at
//!   the steps of warps 0..k-1, for the step budget
//!   (`SimOptions::max_steps`) and for the clock the special registers
//!   read. A program that reads the clock is not split (nor is a run under
//!   the control-bit checker, whose latencies count in steps); the budget
//!   is kept by `Gather`: a warp run from a count of 0 is kept only if the
//!   warps before it and it stay below the budget, else it is run again
//!   from the exact count;
//! - global memory, which the attempt already keeps in launch order.
//!
//! Without barriers each warp runs to its exit in one turn, so warp k's run
//! alone, from the count the earlier warps left, is its run in turns.

use crate::SimOptions;
use crate::error::SimError;
use crate::isbe::Isbe;
use crate::memory::{GlobalMemory, Resources, WorkgroupMemory};
use crate::program::Program;
use crate::warp::{Env, Launch, Stop, Tally, WARP_LANES};
use spvsass_isa::isa::Op;

/// Warps are the units only for a dispatch of fewer workgroups than this
/// per thread: with more, whole workgroups already fill the threads, and
/// the units' own costs (an overlay, a result and a commit each, the
/// commits serial) outweigh a finer end. Measured on the 16-core host: a
/// 32 MiB copy in 8192 workgroups of 8 warps went from 0.26–0.28 s to
/// 0.37 s at 16 threads with every warp a unit (BENCHMARKS.md, "Warps as
/// the units of a few large workgroups").
pub(crate) const GROUPS_PER_THREAD: usize = 4;

/// Whether `program`'s warps may run apart (see the module's comment).
pub(crate) fn separable(program: &Program, resources: &Resources, options: &SimOptions) -> bool {
    resources.shared_bytes == 0
        && crate::warp_phases::reads_no_clock(program, options)
        && program
            .instrs()
            .iter()
            .all(|ins| !matches!(ins.op, Op::Bar(_)))
}

/// One warp's run: its counts, and the step count it started from (`None`:
/// from 0, the earlier warps' count not known yet).
pub(crate) struct WarpRun {
    pub tally: Tally,
    pub from: Option<u64>,
}

/// Runs warp `warp` of a workgroup of `invocations` invocations alone,
/// from the step count `from` (0 if `None`), as `dispatch::run_workgroup`
/// would in its turn.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_warp(
    program: &Program,
    launch: &Launch,
    invocations: u32,
    warp: u32,
    global: &mut GlobalMemory,
    resources: &Resources,
    options: &SimOptions,
    from: Option<u64>,
) -> Result<WarpRun, SimError> {
    let mut memory = WorkgroupMemory::new(resources, WARP_LANES);
    let mut w =
        crate::dispatch::new_warp(invocations, warp, &resources.constants, program.gpr_rows());
    let mut tally = Tally::new(program);
    tally.steps = from.unwrap_or(0);
    // Compute workgroups have no ISBE; an empty one satisfies the executor.
    let mut isbe = Isbe::new(0, 0, 0);
    let mut env = Env {
        launch,
        isbe: &mut isbe,
        global,
        local: &mut memory,
        textures: resources.textures,
    };
    let stop = w.run_tallied(program, &mut env, options, &mut tally);
    crate::dispatch::keep_gprs(w.into_gprs());
    let in_warp = |error| SimError::InWarp {
        warp,
        error: Box::new(error),
    };
    match stop.map_err(in_warp)? {
        Stop::Exited => {}
        // Only a BAR.SYNC stops a warp at the workgroup's barrier, and a
        // separable program has none; were it reached, the warp would wait
        // for warps that do not run beside it.
        Stop::Barrier => {
            return Err(in_warp(SimError::Unsupported {
                pc: 0,
                what: "a BAR.SYNC where a workgroup's warps run apart (none was found)",
            }));
        }
    }
    tally.steps -= from.unwrap_or(0);
    Ok(WarpRun { tally, from })
}

/// What `Gather::add` made of a warp's run.
pub(crate) enum Gathered {
    /// Run from a count of 0, and the workgroup's count reached the budget
    /// with it: to be run again from the exact count.
    Again,
    /// Kept; its workgroup has more warps to come.
    Kept,
    /// Kept, the workgroup's last: the workgroup's tally.
    Workgroup(Tally),
}

/// The warps of the workgroup being kept, in launch order, summed into
/// its tally.
pub(crate) struct Gather<'a> {
    program: &'a Program,
    warps: u32,
    max_steps: u64,
    /// The workgroup's warps kept so far, summed.
    tally: Tally,
    next: u32,
}

impl<'a> Gather<'a> {
    /// For workgroups of `warps` warps and the step budget `max_steps`.
    pub(crate) fn new(program: &'a Program, warps: u32, max_steps: u64) -> Gather<'a> {
        Gather {
            program,
            warps,
            max_steps,
            tally: Tally::new(program),
            next: 0,
        }
    }

    /// The steps of the workgroup's warps kept so far: where its next warp
    /// starts counting.
    pub(crate) fn steps(&self) -> u64 {
        self.tally.steps
    }

    /// Takes the run of the workgroup's next warp. One run from a count of
    /// 0 is the run from the true count if the two counts stay below the
    /// budget all the way, which the workgroup's count with this warp
    /// below the budget ensures; else the warp is run again.
    pub(crate) fn add(&mut self, run: &WarpRun) -> Gathered {
        if run.from.is_none() && self.tally.steps.saturating_add(run.tally.steps) >= self.max_steps
        {
            return Gathered::Again;
        }
        self.tally.add(&run.tally);
        self.next += 1;
        if self.next < self.warps {
            return Gathered::Kept;
        }
        self.next = 0;
        Gathered::Workgroup(std::mem::replace(&mut self.tally, Tally::new(self.program)))
    }
}
