//! One warp running one workgroup: the register state of its 32 lanes and
//! the scheduler that picks which lanes execute together.
//!
//! Scheduling: each step takes the smallest pc among the live lanes that are
//! not waiting at a BSYNC; the lanes at that pc execute together. Lanes that
//! branched forward wait until the others catch up, and lanes that looped
//! back run first, so diverged lanes meet again at the lowest common pc.

use crate::SimOptions;
use crate::converged::{Issues, Pickup};
use crate::counters::Counters;
use crate::error::SimError;
use crate::exec_ctrl::CtrlCheck;
use crate::isbe::Isbe;
use crate::memory::{ConstantBanks, GlobalMemory, Resources, WorkgroupMemory};
use crate::native::Tier;
use crate::program::Program;
use spvsass_isa::isa::{Dst, OpBssy, PredSrc, Reg, RegFile};
use spvsass_isa::program::INSTR_BYTES;

pub const WARP_LANES: u32 = 32;

/// One register (or one value) for each lane of a warp.
pub(crate) type Row = [u32; WARP_LANES as usize];

/// Where a workgroup sits in the launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launch {
    pub workgroup_size: [u32; 3],
    pub workgroup_id: [u32; 3],
}

/// Runs one workgroup on one warp to completion; its outputs are left in
/// `isbe` and in the global memory of `resources`.
pub fn run_workgroup(
    program: &Program,
    launch: &Launch,
    isbe: &mut Isbe,
    resources: &mut Resources,
    options: &SimOptions,
) -> Result<Counters, SimError> {
    let lanes = lane_count(launch.workgroup_size)?;
    let mut local = WorkgroupMemory::new(resources, lanes);
    let Resources {
        global,
        constants,
        textures,
        ..
    } = resources;
    let mut env = Env {
        launch,
        isbe,
        global,
        local: &mut local,
        textures: *textures,
    };
    let mut counters = Counters::default();
    let mut warp = Warp::new(lanes, 0, false, constants);
    warp.run(program, &mut env, options, &mut counters)?;
    Ok(counters)
}

/// Why [`Warp::run`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// Every lane exited.
    Exited,
    /// Every lane still running waits at a BAR.SYNC (warps of a
    /// multi-warp workgroup only): the dispatch releases it.
    Barrier,
}

/// What an executing instruction can reach besides the warp's registers.
pub(crate) struct Env<'a> {
    pub launch: &'a Launch,
    pub isbe: &'a mut Isbe,
    pub global: &'a mut GlobalMemory,
    pub local: &'a mut WorkgroupMemory,
    pub textures: crate::texture::TexturePools,
}

/// The lanes a workgroup occupies: task and mesh workgroups are one warp on
/// the hardware (docs/HARDWARE.md, "Workgroups"), and the simulator runs every
/// workgroup on one warp. A workgroup of up to 128 invocations runs as
/// logical subgroups that its compiled code repeats on the 32 lanes
/// (backend `logical_subgroups`).
pub fn lane_count(size: [u32; 3]) -> Result<u32, SimError> {
    let lanes = size
        .iter()
        .fold(1u64, |a, &n| a.saturating_mul(u64::from(n)));
    if lanes == 0 || lanes > 4 * u64::from(WARP_LANES) {
        return Err(SimError::WorkgroupSize { size, lanes });
    }
    Ok(lanes.min(u64::from(WARP_LANES)) as u32)
}

/// The GPR index of RZ: it reads as zero and writes to it are dropped.
pub(crate) const RZ: usize = RegFile::Gpr.zero_index() as usize;
/// Predicates P0..P6; PT (7) reads as true.
const PT: u8 = RegFile::Pred.zero_index();

/// `wait_bar` of lanes waiting at a BAR.SYNC rather than a BSYNC.
pub(crate) const WORKGROUP_BARRIER: u8 = u8::MAX;
/// `wait_bar` of lanes waiting at a WARPSYNC for the lanes of `wait_mask`.
pub(crate) const WARPSYNC: u8 = u8::MAX - 1;

pub(crate) struct Warp<'r> {
    /// Constant banks, read by ALU operands and LDC.
    pub(crate) consts: &'r ConstantBanks,
    /// Warp-instructions issued so far: what SR_CLOCKLO/HI read.
    pub(crate) clock: u64,
    /// R0..R254 and RZ (which stays 0), each a row of 32 lanes: an ALU op
    /// reads and writes whole rows, a loop over lanes the compiler
    /// vectorises. A fixed 256 rows, so a register index (a `u8`) needs no
    /// bounds check.
    pub(crate) gpr: Box<[Row; RZ + 1]>,
    /// P0..P6, each a mask with bit l for lane l: a guard or predicate
    /// source is one load.
    pub(crate) preds: [u32; PT as usize],
    pub(crate) pc: [u32; WARP_LANES as usize],
    /// Lanes that have not exited.
    pub(crate) live: u32,
    /// Lanes stopped at the BSYNC their pc points to.
    pub(crate) waiting: u32,
    /// The barrier each waiting lane waits on (or [`WORKGROUP_BARRIER`],
    /// [`WARPSYNC`]).
    pub(crate) wait_bar: [u8; WARP_LANES as usize],
    /// The lanes a lane waiting at a WARPSYNC waits for.
    pub(crate) wait_mask: [u32; WARP_LANES as usize],
    /// Convergence barrier registers B0..B15: lane masks set by BSSY.
    pub(crate) barriers: [u32; OpBssy::BARRIERS as usize],
    /// The local invocation index of lane 0 (warp n of a workgroup starts
    /// at 32n).
    pub(crate) base: u32,
    /// BAR.SYNC waits for other warps too: stop there instead of releasing.
    pub(crate) shares_barrier: bool,
    /// The control-bit checker's state (`SimOptions::check_ctrl`), kept
    /// from one `run` to the next (a warp of a multi-warp workgroup runs
    /// once per workgroup barrier).
    check: Option<Box<CtrlCheck>>,
}

/// A warp's register file.
pub(crate) type Gprs = Box<[Row; RZ + 1]>;

/// Per-instruction issue and executing-lane counts of runs, summed: what
/// `Counters` are made of (`Counters::from_issues`, once, at the end of a
/// dispatch), kept as two arrays so that adding a workgroup's is a few
/// additions and not a merge of per-op maps.
#[derive(Clone, Debug)]
pub(crate) struct Tally {
    pub issued: Vec<u64>,
    pub lanes: Vec<u64>,
    /// Warp-instructions issued: the sum of `issued`.
    pub steps: u64,
    /// How many of them the native tier ran.
    pub native: u64,
}

impl Tally {
    pub(crate) fn new(program: &Program) -> Tally {
        Tally {
            issued: vec![0; program.instrs().len()],
            lanes: vec![0; program.instrs().len()],
            steps: 0,
            native: 0,
        }
    }

    /// Adds another tally of the same program.
    pub(crate) fn add(&mut self, other: &Tally) {
        for (a, b) in self.issued.iter_mut().zip(&other.issued) {
            *a += b;
        }
        for (a, b) in self.lanes.iter_mut().zip(&other.lanes) {
            *a += b;
        }
        self.steps += other.steps;
        self.native += other.native;
    }

    /// The counters of the runs tallied.
    pub(crate) fn counters(&self, program: &Program) -> Counters {
        let mut c = Counters::from_issues(program, &self.issued, &self.lanes);
        c.native_warp_instructions = self.native;
        c
    }
}

impl<'r> Warp<'r> {
    pub(crate) fn new(
        lanes: u32,
        base: u32,
        shares_barrier: bool,
        consts: &'r ConstantBanks,
    ) -> Warp<'r> {
        Warp::with_gprs(
            lanes,
            base,
            shares_barrier,
            consts,
            Box::new([[0; WARP_LANES as usize]; RZ + 1]),
        )
    }

    /// A warp on the register file `gpr`, whose rows must all be zero.
    pub(crate) fn with_gprs(
        lanes: u32,
        base: u32,
        shares_barrier: bool,
        consts: &'r ConstantBanks,
        gpr: Gprs,
    ) -> Warp<'r> {
        Warp {
            base,
            shares_barrier,
            consts,
            clock: 0,
            gpr,
            preds: [0; PT as usize],
            pc: [0; WARP_LANES as usize],
            live: low_lanes(lanes),
            waiting: 0,
            wait_bar: [0; WARP_LANES as usize],
            wait_mask: [0; WARP_LANES as usize],
            barriers: [0; OpBssy::BARRIERS as usize],
            check: None,
        }
    }

    /// A copy of this warp's state on the register file `gpr`, for a run
    /// that may be dropped (`warp_phases.rs`): the rows below `rows` (the
    /// rows its program names, `Program::gpr_rows`) and RZ are copied, the
    /// others, which the program never reads, left as they are. Not for a
    /// warp under the control-bit checker, whose state it leaves.
    pub(crate) fn fork(&self, mut gpr: Gprs, rows: usize) -> Warp<'r> {
        debug_assert!(self.check.is_none(), "no fork under the checker");
        let rows = rows.min(RZ);
        gpr[..rows].copy_from_slice(&self.gpr[..rows]);
        gpr[RZ] = self.gpr[RZ];
        Warp {
            gpr,
            check: None,
            ..*self
        }
    }

    /// The register file, for another warp (`with_gprs`) once this one
    /// is done.
    pub(crate) fn into_gprs(self) -> Gprs {
        self.gpr
    }

    /// Runs until every lane exited or, for a warp that shares its
    /// workgroup barrier, until every running lane waits at one.
    pub(crate) fn run(
        &mut self,
        program: &Program,
        env: &mut Env<'_>,
        options: &SimOptions,
        counters: &mut Counters,
    ) -> Result<Stop, SimError> {
        let mut tally = Tally::new(program);
        tally.steps = counters.warp_instructions;
        let result = self.run_tallied(program, env, options, &mut tally);
        counters.add(&tally.counters(program));
        result
    }

    /// `run`, adding to `tally` (whose `steps` the step limit counts from).
    pub(crate) fn run_tallied(
        &mut self,
        program: &Program,
        env: &mut Env<'_>,
        options: &SimOptions,
        tally: &mut Tally,
    ) -> Result<Stop, SimError> {
        // Issues per instruction, turned into per-op counts when the
        // dispatch ends: a map lookup by name per step would cost more than
        // the step.
        let Tally {
            issued,
            lanes,
            steps,
            native: native_count,
        } = tally;
        // The native tier does not report the instructions it runs one by
        // one, so the checker runs everything in the interpreter.
        let pickup = match options.tier {
            Tier::Native if !options.check_ctrl => Some(Pickup {
                program,
                consts: self.consts,
                handover: options.handover,
                how: options.translation(),
            }),
            Tier::Native | Tier::Interp => None,
        };
        if options.check_ctrl && self.check.is_none() {
            self.check = Some(Box::new(CtrlCheck::new()));
        }
        let mut check = self.check.take();
        let mut counts = Issues {
            steps: *steps,
            max_steps: options.max_steps,
            issued,
            lanes,
            native: None,
            pickup,
            check: check.as_deref_mut(),
        };
        counts.pick_up_native();
        let result = self.steps(program, env, &mut counts);
        *steps = counts.steps;
        if let Some(native) = &mut counts.native {
            native.finish(counts.issued, counts.lanes);
            *native_count += native.executed;
        }
        self.check = check;
        result
    }

    /// The scheduling loop of `run`, counting steps, issues and executing
    /// lanes (per instruction) into `counts`.
    fn steps(
        &mut self,
        program: &Program,
        env: &mut Env<'_>,
        counts: &mut Issues<'_, '_>,
    ) -> Result<Stop, SimError> {
        // The group that runs next when it is known without a scan: after
        // an op that moved its lanes to the next instruction, those lanes
        // still have the smallest pc if no other lane is ready, and nothing
        // a barrier waits on changed. A converged warp takes this path on
        // every instruction but branches and barriers.
        let mut next: Option<(u32, u32)> = None;
        loop {
            let (pc, active) = match next.take() {
                Some(group) => group,
                None => {
                    // A scheduler pass: a safe point to take the native
                    // code.
                    if counts.pickup.is_some() {
                        counts.pick_up_native();
                    }
                    if self.waiting != 0 {
                        self.release_barriers();
                    }
                    let ready = self.live & !self.waiting;
                    if ready == 0 {
                        return if self.live == 0 {
                            Ok(Stop::Exited)
                        } else if self.shares_barrier && self.at_workgroup_barrier() != 0 {
                            Ok(Stop::Barrier)
                        } else {
                            Err(self.deadlock())
                        };
                    }
                    let pc = self.min_pc(ready);
                    (pc, self.lanes_at(ready, pc))
                }
            };
            let others = self.live & !self.waiting & !active;
            let others = if others == 0 {
                u32::MAX
            } else {
                self.min_pc(others)
            };
            let handback = self.run_converged(program, pc, active, others, counts);
            if let Some(hazard) = counts.check.as_deref_mut().and_then(|c| c.hazard.take()) {
                return Err(hazard);
            }
            let Some(pc) = handback else {
                continue;
            };
            let index = (pc / INSTR_BYTES) as usize;
            let Some(instr) = program.instrs().get(index) else {
                return Err(SimError::PcOutOfRange { pc, lanes: active });
            };
            if counts.steps >= counts.max_steps {
                return Err(SimError::StepLimit {
                    pc,
                    steps: counts.steps,
                });
            }
            self.clock = counts.steps;
            if let Some(check) = counts.check.as_deref_mut() {
                let exec = self.pred_mask(active, &instr.guard);
                check.issue(program, instr, pc, active, exec)?;
            }
            let executed = self.execute(instr, pc, active, env)?;
            counts.steps += 1;
            counts.issued[index] += 1;
            counts.lanes[index] += u64::from(executed.count_ones());
            if program.falls_through(index) && self.live & !self.waiting == active {
                next = Some((pc + INSTR_BYTES, active));
            }
        }
    }

    /// The lanes waiting at a BAR.SYNC.
    fn at_workgroup_barrier(&self) -> u32 {
        lanes(self.waiting)
            .filter(|&l| self.wait_bar[l] == WORKGROUP_BARRIER)
            .fold(0, |m, l| m | 1 << l)
    }

    /// Lets the lanes waiting at a BAR.SYNC go on: every warp of the
    /// workgroup has arrived.
    pub(crate) fn release_workgroup_barrier(&mut self) {
        let at_bar = self.at_workgroup_barrier();
        self.waiting &= !at_bar;
        self.advance(at_bar);
    }

    /// The smallest pc of the lanes of `mask` (not empty); a fixed loop
    /// over all lanes, so it compiles to vector code.
    fn min_pc(&self, mask: u32) -> u32 {
        let mut min = u32::MAX;
        for (l, &pc) in self.pc.iter().enumerate() {
            let pc = if mask >> l & 1 != 0 { pc } else { u32::MAX };
            min = min.min(pc);
        }
        min
    }

    /// Whether the native code may run now, and which convergence barriers
    /// it must leave to the interpreter: `None` when a group of waiting
    /// lanes could be released (the scheduler's next pass releases it,
    /// which the native code does not model), else the barriers some lane
    /// waits on (a BSSY or BSYNC on them changes what waits).
    pub(crate) fn native_blocked(&self) -> Option<u32> {
        if self.waiting == 0 {
            return Some(0);
        }
        if self.releasable() != 0 {
            return None;
        }
        Some(lanes(self.waiting).fold(0, |m, l| match self.wait_bar[l] {
            bar if bar < OpBssy::BARRIERS => m | 1 << bar,
            _ => m,
        }))
    }

    /// Lets the lanes waiting at a BSYNC go on once every live lane of its
    /// barrier waits there, and those at a BAR.SYNC once every live lane of
    /// the workgroup does (lanes that exited no longer count; a warp that
    /// shares the barrier with other warps leaves that to the dispatch).
    fn release_barriers(&mut self) {
        let ready = self.releasable();
        if ready != 0 {
            self.waiting &= !ready;
            self.advance(ready);
        }
    }

    /// The waiting lanes whose barrier is complete: every live lane it
    /// waits for waits there with them (lanes waiting at a BAR.SYNC that
    /// other warps share are the dispatch's to release).
    fn releasable(&self) -> u32 {
        let mut pending = self.waiting;
        if self.shares_barrier {
            pending &= !self.at_workgroup_barrier();
        }
        let mut ready = 0;
        while pending != 0 {
            let first = pending.trailing_zeros() as usize;
            let at_pc = self.lanes_at(pending, self.pc[first]);
            pending &= !at_pc;
            if self.expected(first) & self.live & !at_pc == 0 {
                ready |= at_pc;
            }
        }
        ready
    }

    /// The lanes the barrier `lane` waits at waits for.
    fn expected(&self, lane: usize) -> u32 {
        match self.wait_bar[lane] {
            WORKGROUP_BARRIER => u32::MAX,
            WARPSYNC => self.wait_mask[lane],
            bar => self.barriers[bar as usize],
        }
    }

    /// Every live lane waits at a barrier that cannot complete: reports the
    /// group at the smallest pc.
    fn deadlock(&self) -> SimError {
        let first = lanes(self.waiting).min_by_key(|&l| self.pc[l]).unwrap_or(0);
        let pc = self.pc[first];
        let waiting = self.lanes_at(self.waiting, pc);
        let bar = self.wait_bar[first];
        if bar == WORKGROUP_BARRIER || bar == WARPSYNC {
            return SimError::WaitDeadlock {
                pc,
                what: if bar == WARPSYNC {
                    "WARPSYNC"
                } else {
                    "BAR.SYNC"
                },
                waiting,
                missing: self.expected(first) & self.live & !waiting,
            };
        }
        SimError::BarrierDeadlock {
            pc,
            bar,
            waiting,
            missing: self.barriers[bar as usize] & self.live & !waiting,
        }
    }

    /// The lanes of `mask` whose pc is `pc`.
    pub(crate) fn lanes_at(&self, mask: u32, pc: u32) -> u32 {
        let mut at = 0;
        for (l, &p) in self.pc.iter().enumerate() {
            at |= u32::from(p == pc) << l;
        }
        at & mask
    }

    /// Moves `mask`'s lanes to the next instruction.
    pub(crate) fn advance(&mut self, mask: u32) {
        if mask == u32::MAX {
            self.pc.iter_mut().for_each(|pc| *pc += INSTR_BYTES);
            return;
        }
        for (l, pc) in self.pc.iter_mut().enumerate() {
            *pc += (mask >> l & 1) * INSTR_BYTES;
        }
    }

    pub(crate) fn gpr(&self, lane: usize, r: Reg) -> u32 {
        self.gpr[gpr_index(r)][lane]
    }

    /// Register `i` of the group starting at `r` (RZ reads as zero).
    pub(crate) fn gpr_in_group(&self, lane: usize, r: Reg, i: u8) -> u32 {
        let base = gpr_index(r);
        if base == RZ {
            0
        } else {
            self.gpr[(base + usize::from(i)).min(RZ)][lane]
        }
    }

    /// Writes `values` to the group starting at `dst`.
    pub(crate) fn set_group(&mut self, lane: usize, dst: Dst, values: &[u32]) {
        if let Dst::Reg(r) = dst {
            let base = gpr_index(r);
            for (i, v) in values.iter().enumerate() {
                if base + i < RZ {
                    self.gpr[base + i][lane] = *v;
                }
            }
        }
    }

    pub(crate) fn set_gpr(&mut self, lane: usize, dst: Dst, value: u32) {
        if let Dst::Reg(r) = dst {
            let i = gpr_index(r);
            if i != RZ {
                self.gpr[i][lane] = value;
            }
        }
    }

    /// The lanes of `mask` for which `p` holds.
    pub(crate) fn pred_mask(&self, mask: u32, p: &PredSrc) -> u32 {
        let held = match p.reg.and_then(Reg::phys) {
            Some(n) if n < PT => self.preds[usize::from(n)],
            _ => u32::MAX,
        };
        mask & if p.neg { !held } else { held }
    }

    pub(crate) fn pred(&self, lane: usize, p: &PredSrc) -> bool {
        let value = match p.reg.and_then(Reg::phys) {
            Some(n) if n < PT => self.preds[usize::from(n)] >> lane & 1 != 0,
            _ => true,
        };
        value != p.neg
    }

    /// Sets `dst` to bit l of `values` in each lane l of `mask`.
    pub(crate) fn write_pred(&mut self, mask: u32, dst: Dst, values: u32) {
        if let Dst::Reg(Reg::Phys(n)) = dst
            && n < PT
        {
            let p = &mut self.preds[usize::from(n)];
            *p = (*p & !mask) | (values & mask);
        }
    }

    pub(crate) fn set_pred(&mut self, lane: usize, dst: Dst, value: bool) {
        if let Dst::Reg(Reg::Phys(n)) = dst
            && n < PT
        {
            let p = &mut self.preds[usize::from(n)];
            *p = (*p & !(1 << lane)) | (u32::from(value) << lane);
        }
    }
}

/// A decoded program only holds physical registers (the decoder maps
/// index 255 to RZ), so a virtual one cannot reach here; it would read RZ.
pub(crate) fn gpr_index(r: Reg) -> usize {
    r.phys().map_or(RZ, usize::from)
}

/// The mask of lanes `0..n`.
fn low_lanes(n: u32) -> u32 {
    if n >= WARP_LANES {
        u32::MAX
    } else {
        (1 << n) - 1
    }
}

/// The lanes set in `mask`, ascending.
pub(crate) fn lanes(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let lane = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            lane
        })
    })
}
