//! The converged path of the scheduling loop: the group the scheduler
//! picked (the ready lanes at the smallest pc) stays the group it would
//! pick while it runs ALU ops and uniform branches and its pc stays below
//! that of every other ready lane, so those instructions need neither the
//! scheduler nor per-lane program counters. An ALU guard that splits the
//! group only masks the write (the lanes whose guard fails advance, as in
//! the general step). The path runs them on one pc and hands back at the
//! first instruction it does not take (a memory, barrier, convergence or
//! warp-wide op, a branch that splits the group, the step limit), where
//! the general step runs that one with
//! the same state it would have seen; or, once the group reaches or passes
//! another ready lane's pc, to the scheduler.

use crate::exec_ctrl::CtrlCheck;
use crate::exec_row::{RowIsa, RowValue, eval_row_any};
use crate::memory::ConstantBanks;
use crate::native::{Handover, NativeRun, Scalars, Translation};
use crate::program::Program;
use crate::warp::{Row, Warp, lanes};
use spvsass_isa::isa::{Dst, Op, Target};
use spvsass_isa::program::INSTR_BYTES;

/// The per-instruction issue counts a run keeps (see `Warp::run`), and
/// the native code it may run.
pub(crate) struct Issues<'a, 'p> {
    pub steps: u64,
    pub max_steps: u64,
    pub issued: &'a mut [u64],
    pub lanes: &'a mut [u64],
    pub native: Option<NativeRun<'p>>,
    /// Where to get the native code while it is not there yet (`Handover`).
    pub pickup: Option<Pickup<'p>>,
    /// The control-bit checker, when `SimOptions::check_ctrl` is on.
    pub check: Option<&'a mut CtrlCheck>,
}

/// What a run with the native tier needs to take the program's native
/// code at a safe point: between instructions, where the interpreter's
/// state is all there is (`Issues::pick_up_native`).
pub(crate) struct Pickup<'p> {
    pub program: &'p Program,
    pub consts: &'p ConstantBanks,
    pub handover: Handover,
    /// Worker threads of the run (`SimOptions::worker_threads`: the
    /// translation's pieces) and the translation cache.
    pub how: Translation,
}

impl Issues<'_, '_> {
    /// Takes the native code if it is ready (`Handover`); a program with
    /// none, or whose constants are out of their banks, stops asking.
    pub(crate) fn pick_up_native(&mut self) {
        if let Some(p) = &self.pickup
            && let Some(code) = p.program.native_ready(p.handover, p.how)
        {
            self.native = NativeRun::new(code, p.consts);
            self.pickup = None;
        }
    }
}

impl Warp<'_> {
    /// Runs from `pc` the group `active`, whose pc is below `others`, the
    /// smallest pc of the other ready lanes (`u32::MAX` if none), for as
    /// long as it stays the scheduler's pick. Returns the pc of the first
    /// instruction it left to the general step, or `None` when the
    /// scheduler must pick the next group; the lanes of `active` are at
    /// the pc it stopped at.
    pub(crate) fn run_converged(
        &mut self,
        program: &Program,
        pc: u32,
        active: u32,
        others: u32,
        counts: &mut Issues<'_, '_>,
    ) -> Option<u32> {
        match program.row_isa {
            RowIsa::Portable => self.run_converged_portable(program, pc, active, others, counts),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `RowIsa::detect` chose this build only after checking
            // that the CPU has AVX2 and FMA.
            #[allow(unsafe_code)]
            RowIsa::Avx2Fma => unsafe {
                self.run_converged_avx2_fma(program, pc, active, others, counts)
            },
        }
    }

    fn run_converged_portable(
        &mut self,
        program: &Program,
        pc: u32,
        active: u32,
        others: u32,
        counts: &mut Issues<'_, '_>,
    ) -> Option<u32> {
        self.run_converged_any(program, pc, active, others, counts)
    }

    /// The loop compiled with AVX2 and FMA, the row ops inlined into it:
    /// a result row stays in vector registers up to its write-back.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    fn run_converged_avx2_fma(
        &mut self,
        program: &Program,
        pc: u32,
        active: u32,
        others: u32,
        counts: &mut Issues<'_, '_>,
    ) -> Option<u32> {
        self.run_converged_any(program, pc, active, others, counts)
    }

    /// The body of both builds.
    #[inline(always)]
    fn run_converged_any(
        &mut self,
        program: &Program,
        mut pc: u32,
        active: u32,
        others: u32,
        counts: &mut Issues<'_, '_>,
    ) -> Option<u32> {
        let start = pc;
        let mut handback = Some(pc);
        // The pc where the native code just made no progress (a limit
        // it checks per segment): the interpreter runs that instruction.
        let mut no_native = None;
        loop {
            let index = (pc / INSTR_BYTES) as usize;
            let Some(instr) = program.instrs().get(index) else {
                break;
            };
            if counts.steps >= counts.max_steps {
                break;
            }
            if no_native.take() != Some(pc)
                && let Some(native) = counts.native.as_mut()
                && let Some(segment) = native.entry(index)
            {
                let before = counts.steps;
                let ran = self.native_blocked().and_then(|blocked| {
                    let scalars = Scalars {
                        steps: before,
                        max_steps: counts.max_steps,
                        others,
                        active,
                        live: self.live,
                        blocked,
                        segment,
                    };
                    native.run(
                        &mut self.gpr,
                        &mut self.preds,
                        &mut self.barriers,
                        counts.issued,
                        counts.lanes,
                        scalars,
                    )
                });
                match ran {
                    Some(out) if out.steps != before => {
                        counts.steps = out.steps;
                        if out.active != active || out.pending.iter().any(|&m| m != 0) {
                            // The group split (and maybe met again): its
                            // lanes are at several pcs, or one group other
                            // than `active`; the scheduler picks what runs
                            // next.
                            for l in lanes(out.active) {
                                self.pc[l] = out.pc;
                            }
                            for (&mask, &at) in out.pending.iter().zip(&out.pending_pc) {
                                for l in lanes(mask) {
                                    self.pc[l] = at;
                                }
                            }
                            return None;
                        }
                        pc = out.pc;
                        if out.scheduler {
                            handback = None;
                            break;
                        }
                        handback = Some(pc);
                        continue;
                    }
                    _ => {
                        no_native = Some(pc);
                        continue;
                    }
                }
            }
            let exec = self.pred_mask(active, &instr.guard);
            let next = match &instr.op {
                Op::Bra(o) => match (o.target, exec) {
                    (Target::Addr(target), _) if exec == active => {
                        // A loop's back edge: a safe point to take the
                        // native code (the next pass looks it up).
                        if target <= pc && counts.pickup.is_some() {
                            counts.pick_up_native();
                        }
                        target
                    }
                    (Target::Addr(_), 0) => pc + INSTR_BYTES,
                    _ => break,
                },
                op => {
                    let Some(form) = program.row_form(index) else {
                        break;
                    };
                    let x = form.srcs.map(|s| program.src_row(&self.gpr, s));
                    let held = self.pred_mask(u32::MAX, &form.pred);
                    match eval_row_any(op, x, held) {
                        Some(RowValue::Row(row)) => self.write_lanes(exec, form.dst, &row),
                        Some(RowValue::Mask(m)) => self.write_pred(exec, form.dst, m),
                        None => break,
                    }
                    pc + INSTR_BYTES
                }
            };
            if let Some(check) = counts.check.as_deref_mut()
                && let Err(hazard) = check.issue(program, instr, pc, active, exec)
            {
                // `Warp::steps` reports it.
                check.hazard = Some(hazard);
                break;
            }
            counts.steps += 1;
            counts.issued[index] += 1;
            counts.lanes[index] += u64::from(exec.count_ones());
            pc = next;
            if pc >= others {
                handback = None;
                break;
            }
            handback = Some(pc);
        }
        if pc != start {
            if active == u32::MAX {
                self.pc = [pc; 32];
            } else {
                for l in lanes(active) {
                    self.pc[l] = pc;
                }
            }
        }
        handback
    }

    /// Writes the lanes of `mask` of `row` to `dst` (a register; RZ drops
    /// the write). The row was computed for all 32 lanes: lanes outside
    /// the group (in another group, exited, or beyond a workgroup of fewer
    /// than 32) ran the op on whatever their registers hold; harmless, as every
    /// `eval` is total (the constant folder runs it on any value), and
    /// their results are dropped here.
    #[inline(always)]
    fn write_lanes(&mut self, mask: u32, dst: Dst, row: &Row) {
        let Some(d) = self.dst_row(dst) else { return };
        if mask == u32::MAX {
            *d = *row;
        } else {
            for (l, (d, &v)) in d.iter_mut().zip(row).enumerate() {
                *d = if mask >> l & 1 != 0 { v } else { *d };
            }
        }
    }
}
