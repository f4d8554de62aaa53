//! Compute dispatches: a grid of workgroups, each of up to 1024
//! invocations run as warps of 32 lanes that share the workgroup's shared
//! memory and meet at BAR.SYNC.
//!
//! The driver side follows `spvsass_isa::abi`: storage buffers are
//! mapped in global memory and their base addresses and sizes written to
//! the root table (constant bank 0) with the workgroup count and the push
//! constants; uniform buffers become constant banks.
//!
//! Order: the result is that of running the workgroups one after another,
//! x fastest, then y, then z (they run in parallel where that gives the
//! same bytes: `compute_order`, and so do a workgroup's warps between
//! barriers: `warp_phases`);
//! inside a workgroup, warp 0 runs until it exits or reaches a BAR.SYNC,
//! then warp 1, and so on; when every warp still running waits at the
//! barrier, all are released. Exited warps do not count at a barrier, as
//! on the hardware, so warps cannot deadlock on one another; a warp whose
//! own lanes deadlock (at a BSYNC) is reported with its index. The order
//! is fixed, so a run is deterministic, atomics included.

use crate::SimOptions;
use crate::compute_order::run_in_launch_order;
use crate::counters::Counters;
use crate::descriptors::{BoundBuffer, Slot, bind, read_back};
use crate::error::SimError;
use crate::isbe::Isbe;
use crate::memory::{ConstantBanks, GlobalMemory, Resources, WorkgroupMemory};
use crate::native::{Handover, NativeStats, Tier};
use crate::program::Program;
use crate::texture::host::{BoundImage, BoundSampler};
use crate::warp::{Env, Gprs, Launch, RZ, Stop, Tally, WARP_LANES, Warp};
use crate::warp_phases::Workgroup;
use spvsass_isa::abi::{self, RootTable};
use spvsass_isa::binary::{Binary, Stage};
use spvsass_isa::limits::MAX_COMPUTE_INVOCATIONS;
use std::cell::RefCell;
use std::collections::BTreeMap;

/// What a dispatch binds: storage buffers and uniform buffers of set 0 by
/// binding (array element 0, whole buffers), buffers at any set, binding
/// and array element with their ranges (`bound`), the push constants, and
/// images, texel buffers and samplers (docs/TEXTURES.md).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ComputeInputs {
    pub buffers: BTreeMap<u32, Vec<u8>>,
    pub uniforms: BTreeMap<u32, Vec<u8>>,
    pub push_constants: Vec<u8>,
    pub bound: Vec<BoundBuffer>,
    /// Images and texel buffers at any set, binding and element.
    pub images: Vec<BoundImage>,
    /// Separate samplers.
    pub samplers: Vec<BoundSampler>,
}

/// The result of a dispatch: every storage buffer's final contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComputeRun {
    /// Those of `ComputeInputs::buffers`, by binding.
    pub buffers: BTreeMap<u32, Vec<u8>>,
    /// Those of `ComputeInputs::bound`, by slot.
    pub bound: BTreeMap<Slot, Vec<u8>>,
    /// The storage images and storage texel buffers of
    /// `ComputeInputs::images`, by slot (every level, in the layout of
    /// docs/TEXTURES.md).
    pub images: BTreeMap<Slot, Vec<u8>>,
    pub workgroups: u64,
    /// Warps per workgroup.
    pub warps: u32,
    pub counters: Counters,
    /// The native tier's translation of the program (with `Tier::Native`).
    pub native: Option<NativeStats>,
}

/// Runs a compute dispatch of `groups` workgroups (at most
/// `limits::MAX_COMPUTE_GROUPS`). The step budget applies to each
/// workgroup, `max_total_steps` to the whole dispatch in launch order.
pub fn run_compute(
    binary: &Binary,
    groups: [u32; 3],
    inputs: ComputeInputs,
    options: &SimOptions,
) -> Result<ComputeRun, SimError> {
    let compute = match (binary.stage, binary.compute) {
        (Stage::Compute, Some(c)) => c,
        _ => {
            return Err(SimError::NotCompute {
                stage: binary.stage.name(),
            });
        }
    };
    let size = binary.workgroup_size;
    let invocations = size
        .iter()
        .fold(1u64, |a, &n| a.saturating_mul(u64::from(n)));
    if invocations == 0 || invocations > u64::from(MAX_COMPUTE_INVOCATIONS) {
        return Err(SimError::ComputeWorkgroupSize { size, invocations });
    }
    let limit = spvsass_isa::limits::MAX_COMPUTE_GROUPS;
    if groups.iter().zip(limit).any(|(&g, l)| g > l) {
        return Err(SimError::TooManyGroups {
            groups,
            limit,
            property: "maxComputeWorkGroupCount",
        });
    }
    crate::phases::stamp("dispatch_start");
    let program = Program::decode(&binary.code, binary.arch)?;
    crate::phases::stamp("decoded");
    // The thread count, resolved once here: the workers are threads of
    // their own, not the caller's rayon pool's, so asking there could give
    // the global pool's size instead.
    let options = &SimOptions {
        threads: std::num::NonZeroUsize::new(options.worker_threads()),
        ..*options
    };

    let mut root = RootTable::default();
    root.set_num_workgroups(groups);
    let mut resources = Resources {
        shared_bytes: compute.shared_bytes,
        local_bytes: compute.local_bytes,
        ..Resources::default()
    };
    let bases = bind(inputs, &binary.resources, &mut root, &mut resources)?;
    resources
        .constants
        .set(abi::ROOT_BANK, root.bytes().to_vec());
    // The translation the first warp would wait for starts now, beside
    // the workers' start (once the resources are bound: a dispatch that
    // fails there translates nothing; under the checker the native tier
    // does not run, and a late hand-over is the test's own).
    if options.tier == Tier::Native && !options.check_ctrl && options.handover == Handover::Wait {
        program.start_native(options.translation());
    }

    crate::phases::stamp("bound");
    let warps = invocations.div_ceil(u64::from(WARP_LANES)) as u32;
    let mut tally = Tally::new(&program);
    let mut workgroups = 0;
    let ids = (0..groups[2])
        .flat_map(|z| (0..groups[1]).flat_map(move |y| (0..groups[0]).map(move |x| [x, y, z])));
    // The workgroups share global memory; the rest of `resources` is
    // read-only while they run.
    let mut global = std::mem::take(&mut resources.global);
    let shared = &resources;
    let launch = |id: [u32; 3]| Launch {
        workgroup_size: size,
        workgroup_id: id,
    };
    let in_workgroup = |id, e| SimError::InWorkgroup {
        workgroup: id,
        error: Box::new(e),
    };
    // Counts a kept workgroup's tally into the dispatch's, against the
    // dispatch's step budget.
    let count = |run: Tally| {
        tally.add(&run);
        workgroups += 1;
        if tally.steps > options.max_total_steps {
            // The workgroup just kept: launch order is x fastest.
            let i = workgroups - 1;
            let [gx, gy] = [u64::from(groups[0]), u64::from(groups[1])];
            let workgroup = [i % gx, i / gx % gy, i / (gx * gy)].map(|n| n as u32);
            return Err(SimError::TotalStepLimit {
                workgroup,
                steps: tally.steps,
                limit: options.max_total_steps,
            });
        }
        Ok(())
    };
    let threads = options.worker_threads();
    let count_of_groups = groups.iter().map(|&g| u64::from(g)).product::<u64>();
    // A few large workgroups run their warps side by side between
    // barriers (`warp_phases.rs`): their warps share the threads.
    let side_by_side = threads > 1
        && warps > 1
        && count_of_groups < (threads * crate::warp_phases::GROUPS_PER_THREAD) as u64
        && crate::warp_phases::reads_no_clock(&program, options);
    let run = |id: [u32; 3], global: &mut GlobalMemory| {
        run_workgroup(
            &program,
            &launch(id),
            invocations as u32,
            global,
            shared,
            options,
            side_by_side,
        )
        .map_err(|e| in_workgroup(id, e))
    };
    run_in_launch_order(threads, ids, &mut global, run, count)?;
    crate::phases::stamp("dispatch_ran");
    resources.global = global;
    let (buffers, bound, images) = read_back(&bases, &mut resources);
    Ok(ComputeRun {
        buffers,
        bound,
        images,
        workgroups,
        warps,
        counters: tally.counters(&program),
        native: program.native_stats(),
    })
}

/// Runs one workgroup of `invocations` invocations on as many warps as it
/// takes, with its warps side by side between barriers where
/// `side_by_side` says so (`warp_phases.rs`).
fn run_workgroup(
    program: &Program,
    launch: &Launch,
    invocations: u32,
    global: &mut GlobalMemory,
    resources: &Resources,
    options: &SimOptions,
    side_by_side: bool,
) -> Result<Tally, SimError> {
    let warp_count = invocations.div_ceil(WARP_LANES);
    // One shared memory for the workgroup; each warp's lanes keep their own
    // local memory, swapped in while the warp runs.
    let mut memory = WorkgroupMemory::new(resources, WARP_LANES);
    let mut locals: Vec<Vec<Vec<u8>>> = (0..warp_count).map(|_| memory.local.clone()).collect();
    let mut warps: Vec<Warp<'_>> = (0..warp_count)
        .map(|w| new_warp(invocations, w, &resources.constants, program.gpr_rows()))
        .collect();
    let mut group = Workgroup {
        program,
        launch,
        resources,
        options,
        warps: &mut warps,
        locals: &mut locals,
        memory: &mut memory,
    };
    let result = run_warps(&mut group, global, side_by_side);
    for warp in warps {
        keep_gprs(warp.into_gprs());
    }
    result
}

/// Warp `w` of a workgroup of `invocations` invocations, on a zeroed
/// register file (it shares the workgroup's barrier with the others, if
/// there are others).
pub(crate) fn new_warp(
    invocations: u32,
    w: u32,
    constants: &ConstantBanks,
    rows: usize,
) -> Warp<'_> {
    let lanes = (invocations - w * WARP_LANES).min(WARP_LANES);
    let shared = invocations > WARP_LANES;
    Warp::with_gprs(lanes, w * WARP_LANES, shared, constants, spare_gprs(rows))
}

thread_local! {
    /// Register files of this thread's finished warps, for the next ones:
    /// a workgroup's warps would otherwise take fresh memory from the
    /// allocator (and the system, page by page) every time, which costs
    /// more the more threads do it at once.
    static SPARE_GPRS: RefCell<Vec<Gprs>> = const { RefCell::new(Vec::new()) };
}

/// Most register files a thread keeps (a workgroup of 1024 invocations).
const SPARE_GPRS_MAX: usize = 32;

/// A register file for a program that names registers below `rows`
/// (`Program::gpr_rows`): a spare one with those rows and RZ zeroed (the
/// others, which the program never reads, may hold an earlier warp's
/// values), or a new one, all zero.
pub(crate) fn spare_gprs(rows: usize) -> Gprs {
    match SPARE_GPRS.with(|s| s.borrow_mut().pop()) {
        Some(mut gpr) => {
            gpr[..rows.min(RZ)].iter_mut().for_each(|row| row.fill(0));
            gpr[RZ].fill(0);
            gpr
        }
        None => Box::new([[0; WARP_LANES as usize]; RZ + 1]),
    }
}

/// Keeps a finished warp's register file for `spare_gprs`.
pub(crate) fn keep_gprs(gpr: Gprs) {
    SPARE_GPRS.with(|s| {
        let mut spare = s.borrow_mut();
        if spare.len() < SPARE_GPRS_MAX {
            spare.push(gpr);
        }
    });
}

/// The warps of one workgroup, run in turns between its barriers (each
/// round first side by side, with `side_by_side`: `warp_phases.rs`).
fn run_warps(
    group: &mut Workgroup<'_, '_>,
    global: &mut GlobalMemory,
    side_by_side: bool,
) -> Result<Tally, SimError> {
    // Compute workgroups have no ISBE; an empty one satisfies the executor.
    let mut isbe = Isbe::new(0, 0, 0);
    let mut tally = Tally::new(group.program);
    let mut done = vec![false; group.warps.len()];
    let mut live = Vec::with_capacity(done.len());
    loop {
        live.clear();
        live.extend((0..done.len()).filter(|&w| !done[w]));
        let kept = if side_by_side && live.len() > 1 {
            crate::warp_phases::side_by_side(group, global, &live, &mut tally, &mut done)
        } else {
            0
        };
        for &w in &live[kept..] {
            let Workgroup {
                program,
                launch,
                resources,
                options,
                ref mut warps,
                ref mut locals,
                ref mut memory,
            } = *group;
            std::mem::swap(&mut memory.local, &mut locals[w]);
            let mut env = Env {
                launch,
                isbe: &mut isbe,
                global,
                local: memory,
                textures: resources.textures,
            };
            let stop = warps[w].run_tallied(program, &mut env, options, &mut tally);
            std::mem::swap(&mut memory.local, &mut locals[w]);
            match stop.map_err(|e| SimError::InWarp {
                warp: w as u32,
                error: Box::new(e),
            })? {
                Stop::Exited => done[w] = true,
                Stop::Barrier => {}
            }
        }
        if done.iter().all(|&d| d) {
            return Ok(tally);
        }
        // Every warp still running waits at the barrier.
        for (w, warp) in group.warps.iter_mut().enumerate() {
            if !done[w] {
                warp.release_workgroup_barrier();
            }
        }
    }
}
