//! The converged path of the scheduling loop: while the lanes that run
//! are every ready lane of the warp, they stay one group whatever ALU op
//! or uniform branch they run, so those instructions need neither the
//! scheduler nor per-lane program counters. The path runs them on one pc
//! and hands back at the first instruction it does not take (a memory,
//! barrier, convergence or warp-wide op, a branch that splits the group,
//! an ALU op whose guard or lane count leaves lanes out, the step limit):
//! the general step runs that one with the same state it would have seen.

use crate::exec_row::{RowValue, eval_row};
use crate::program::Program;
use crate::warp::{Row, Warp, lanes};
use spvsass_backend::isa::{Dst, Op, Target};
use spvsass_backend::program::INSTR_BYTES;

/// The per-instruction issue counts a run keeps (see `Warp::run`).
pub(crate) struct Issues<'a> {
    pub steps: u64,
    pub max_steps: u64,
    pub issued: &'a mut [u64],
    pub lanes: &'a mut [u64],
}

impl Warp<'_> {
    /// Runs from `pc` the group `active`, which is every ready lane, for
    /// as long as it stays converged; returns the pc of the first
    /// instruction it left to the general step, where the lanes of
    /// `active` now are.
    pub(crate) fn run_converged(
        &mut self,
        program: &Program,
        mut pc: u32,
        active: u32,
        counts: &mut Issues<'_>,
    ) -> u32 {
        let start = pc;
        loop {
            let index = (pc / INSTR_BYTES) as usize;
            let Some(instr) = program.instrs().get(index) else {
                break;
            };
            if counts.steps >= counts.max_steps {
                break;
            }
            let exec = self.pred_mask(active, &instr.guard);
            let next = match &instr.op {
                Op::Bra(o) => match (o.target, exec) {
                    (Target::Addr(target), _) if exec == active => target,
                    (Target::Addr(_), 0) => pc + INSTR_BYTES,
                    _ => break,
                },
                op => {
                    // Lanes left out would need a masked write.
                    if exec != u32::MAX {
                        break;
                    }
                    let Some(form) = program.row_form(index) else {
                        break;
                    };
                    let x = form.srcs.map(|s| program.src_row(&self.gpr, s));
                    let held = self.pred_mask(u32::MAX, &form.pred);
                    match eval_row(program.row_isa, op, x, held) {
                        Some(RowValue::Row(row)) => self.write_full_row(form.dst, &row),
                        Some(RowValue::Mask(m)) => self.write_pred(u32::MAX, form.dst, m),
                        None => break,
                    }
                    pc + INSTR_BYTES
                }
            };
            counts.steps += 1;
            counts.issued[index] += 1;
            counts.lanes[index] += u64::from(exec.count_ones());
            pc = next;
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
        pc
    }

    /// Writes every lane of `dst` (a register; RZ drops the write).
    fn write_full_row(&mut self, dst: Dst, row: &Row) {
        if let Some(d) = self.dst_row(dst) {
            *d = *row;
        }
    }
}
