//! Returns inside the regions of a task or mesh workgroup of more than 32
//! invocations (`crate::logical_subgroups`): the emission of what
//! `lower_returns.rs` decided before selection.
//!
//! A lane runs one invocation of every logical subgroup, so a return
//! cannot end the lane. Each copy `i` keeps a *returned* predicate instead:
//! an SSA value (`Isel::returned[i]`) that is false at the top, becomes a
//! parameter of every spine block after the entry and of each region
//! copy's merge block `J_i`, and is passed along every edge between them
//! (`returned_params` / `returned_args`; inside a region copy the edges to
//! `J_i` pass it on unchanged, `control::edge_args`). Registers rather than
//! scratch memory: no ISBE or local memory is spent and no load is needed
//! before each guarded piece of code, at the price of one predicate per
//! copy live across the spine.
//!
//! - A return in region copy `i` branches to `J_i` with returned = true
//!   (the merge's other parameters undefined for that lane).
//! - A region copy is entered by `@returned BRA J_i`: returned lanes skip
//!   it whole, after the loop's BSSY so they still meet at its BSYNC.
//! - A run of spine instructions of copy `i` is skipped the same way
//!   (`@returned BRA` around it, its results made parameters of the block
//!   after it), so returned invocations neither write nor take part in
//!   subgroup operations, votes or the emulated atomics.
//! - EmitMeshTasksEXT after a possible return: lane 0 writes a zero count
//!   (every invocation may have returned), then every invocation still
//!   running writes the (uniform) counts. (SetMeshOutputsEXT there is
//!   refused by the lowering.)
//!
//! Which copies may have returned where, which runs are skipped and what
//! the block after a run or a region copy receives are the lowering's
//! ([`ReturnLowering`]); this file only emits them.

use super::places::comp_count;
use super::{Comp, Isel, subgroups::CopyState};
use crate::error::BackendError;
use crate::isa::{Instr, Op, OpBra, OpBssy, PredSrc, RegFile};
use crate::lower_returns::{ReturnLowering, Run, RunForm};
use crate::mir::{BlockId, PReg, VReg};
use spvsass_frontend::ir::{self, Inst, Value};

/// The region copy being selected, in a wide workgroup whose copies keep
/// returned predicates (`ReturnLowering::tracked`).
pub(super) struct RegionExit<'a> {
    pub merge: ir::Block,
    /// The copy's returned predicate on entry (false on every lane that
    /// runs the region).
    pub returned: Comp,
    /// `ReturnLowering::live_out` of the region.
    pub live_out: &'a [Value],
}

impl<'a> Isel<'a> {
    /// The early returns' decisions; selection of a wide workgroup only.
    pub(super) fn return_lowering(&self) -> &'a ReturnLowering {
        self.wide
            .returns
            .expect("a wide workgroup is selected with its return lowering")
    }

    /// Copy `c`'s returned predicate, where the lowering says its
    /// invocations may have returned (selection has made it a predicate
    /// register there: a parameter of the block, or the lanes past the
    /// workgroup).
    fn returned_pred(&self, c: usize) -> PReg {
        match self.wide.returned.get(c) {
            Some(&Comp::Pred(p)) => p,
            _ => unreachable!("the return lowering and selection agree on where copies may return"),
        }
    }

    /// Fresh returned predicates, one per copy, as parameters of a spine
    /// block (none when no region returns).
    pub(super) fn returned_params(&mut self) -> Vec<VReg> {
        let mut params = Vec::new();
        for i in 0..self.wide.returned.len() {
            let p = self.f.new_pred();
            self.wide.returned[i] = Comp::Pred(p);
            params.push(p.vreg());
        }
        params
    }

    /// The returned predicates of every copy, as edge arguments.
    pub(super) fn returned_args(&mut self) -> Vec<VReg> {
        let flags = self.wide.returned.clone();
        flags.into_iter().map(|r| self.materialize(r)).collect()
    }

    /// The returned parameter of the current copy's `J_i`.
    fn region_returned_param(&mut self) -> Option<VReg> {
        let i = self.wide.copy as usize;
        (i < self.wide.returned.len()).then(|| {
            let p = self.f.new_pred();
            self.wide.returned[i] = Comp::Pred(p);
            p.vreg()
        })
    }

    /// Undefined arguments for what `J_i` takes besides the returned
    /// predicate: the merge block's parameters and the region's live-out
    /// values (one per component). The lane taking the edge has returned
    /// or skips the region: nothing reads them.
    fn undef_args(&mut self, merge: ir::Block, live: &[Value]) -> Result<Vec<VReg>, BackendError> {
        let sh = self.sh;
        let mut args = Vec::new();
        for &p in sh.blocks[merge].params.iter().chain(live) {
            let ty = sh.values[p].ty;
            let n = comp_count(sh, ty).unwrap_or(0);
            let zero = if is_bool(sh, ty) {
                Comp::Bool(false)
            } else {
                Comp::Const(0)
            };
            for _ in 0..n {
                args.push(self.materialize(zero));
            }
        }
        Ok(args)
    }

    /// What an edge to the region copy's merge `J_i` passes besides the
    /// merge's parameters: the live-out values and the returned predicate
    /// unchanged (the lanes taking it did not return).
    pub(super) fn region_exit_args(&mut self, to: ir::Block) -> Result<Vec<VReg>, BackendError> {
        let Some(exit) = self.wide.region_exit.as_ref().filter(|e| e.merge == to) else {
            return Ok(Vec::new());
        };
        let (live, returned) = (exit.live_out, exit.returned);
        let mut args = Vec::new();
        for &v in live {
            for c in self.value(v)?.clone() {
                args.push(self.materialize(c));
            }
        }
        args.push(self.materialize(returned));
        Ok(args)
    }

    /// `J_i`'s parameters after the merge's own: the live-out values (the
    /// copy's names for them from here on) and the returned predicate.
    pub(super) fn region_merge_params(&mut self) -> Result<Vec<VReg>, BackendError> {
        let Some(exit) = self.wide.region_exit.take() else {
            return Ok(Vec::new());
        };
        let mut params = Vec::new();
        for &v in exit.live_out {
            let comps = self.new_regs_for(v)?;
            params.extend(comps.iter().filter_map(|c| c.vreg()));
            self.vals.insert(v, comps);
        }
        params.extend(self.region_returned_param());
        Ok(params)
    }

    /// A return inside a region copy: to the copy's merge `J_i`, returned.
    pub(super) fn region_return(&mut self) -> Result<(), BackendError> {
        let exit = self
            .wide
            .region_exit
            .as_ref()
            .expect("inside a region copy");
        let (merge, live) = (exit.merge, exit.live_out);
        let mut args = self.undef_args(merge, live)?;
        args.push(self.materialize(Comp::Bool(true)));
        let to = self.blocks.at(merge);
        self.bra(to, args);
        Ok(())
    }

    /// Enters the current copy's region at `to`; with `skip` (the lowering
    /// says the copy's invocations may have returned), lanes whose
    /// invocation has returned go straight to the copy's merge. `bar`: the
    /// selection region's convergence barrier, opened here rather than at
    /// its header so that the skipping lanes are in it too and meet the
    /// others at its BSYNC.
    pub(super) fn enter_region_copy(
        &mut self,
        to: BlockId,
        args: Vec<VReg>,
        merge: ir::Block,
        live_out: &[Value],
        (skip, bar): (bool, Option<u8>),
    ) -> Result<(), BackendError> {
        if let Some(bar) = bar {
            let target = self.blocks.at(merge).target();
            self.emit(Instr::new(Op::Bssy(OpBssy { bar, target })));
        }
        if !skip {
            self.bra(to, args);
            return Ok(());
        }
        let p = self.returned_pred(self.wide.copy as usize);
        let mut skip = self.undef_args(merge, live_out)?;
        skip.push(p.vreg());
        let j = self.blocks.at(merge);
        self.emit(Instr::guarded(
            p.pred(),
            Op::Bra(OpBra { target: j.target() }),
        ));
        self.f.add_edge(self.cur, j, skip);
        self.f.add_edge(self.cur, to, args);
        Ok(())
    }

    /// A run of spine instructions of block `b`, once per copy, in the
    /// lowering's form: interleaved, or copy after copy with each copy
    /// that may have returned skipping it.
    pub(super) fn copies_run(
        &mut self,
        b: ir::Block,
        run: &Run,
        copies: &mut [CopyState],
    ) -> Result<(), BackendError> {
        let k = copies.len();
        match &run.form {
            RunForm::Interleaved => {
                for &inst in &run.insts {
                    for c in 0..k {
                        self.enter_copy(copies, c);
                        self.inst(b, inst)?;
                    }
                }
            }
            RunForm::Guarded {
                returned,
                live_after,
            } => {
                for c in 0..k {
                    self.enter_copy(copies, c);
                    if returned.copy(c, k) {
                        let p = self.returned_pred(c);
                        self.skipped_run(b, &run.insts, live_after, p)?;
                    } else {
                        for &inst in &run.insts {
                            self.inst(b, inst)?;
                        }
                    }
                }
            }
        }
        self.enter_copy(copies, 0);
        Ok(())
    }

    /// `@returned BRA Z; R: run; BRA S; Z: undefined results; BRA S; S:`
    /// with the run's results used after it (`live_after`) as parameters
    /// of S. Z is its own block so that the undefined arguments can be made
    /// after the run is selected.
    fn skipped_run(
        &mut self,
        b: ir::Block,
        run: &[Inst],
        live_after: &[Value],
        returned: PReg,
    ) -> Result<(), BackendError> {
        let x = self.cur;
        let (r, z, s) = (self.f.new_block(), self.f.new_block(), self.f.new_block());
        self.split_off.entry(x).or_default().extend([r, z, s]);
        self.emit(Instr::guarded(
            returned.pred(),
            Op::Bra(OpBra { target: z.target() }),
        ));
        self.f.add_edge(x, z, Vec::new());
        self.f.add_edge(x, r, Vec::new());
        self.cur = r;
        for &inst in run {
            self.inst(b, inst)?;
        }
        let (mut args, mut params, mut undef) = (Vec::new(), Vec::new(), Vec::new());
        for &v in live_after {
            let Some(comps) = self.vals.get(v).cloned() else {
                continue;
            };
            let mut renamed = Vec::with_capacity(comps.len());
            for c in comps {
                let (file, zero) = match c {
                    Comp::Reg(_) => (RegFile::Gpr, Comp::Const(0)),
                    Comp::Pred(_) => (RegFile::Pred, Comp::Bool(false)),
                    other => {
                        renamed.push(other);
                        continue;
                    }
                };
                let fresh = match file {
                    RegFile::Gpr => Comp::Reg(self.f.new_vreg(file)),
                    RegFile::Pred => Comp::Pred(self.f.new_pred()),
                };
                args.push(self.materialize(c));
                params.push(fresh.vreg().expect("a fresh register"));
                undef.push(zero);
                renamed.push(fresh);
            }
            self.vals.insert(v, renamed);
        }
        self.bra(s, args);
        self.cur = z;
        let undef: Vec<VReg> = undef.into_iter().map(|c| self.materialize(c)).collect();
        self.bra(s, undef);
        self.cur = s;
        self.f.blocks[s].params = params;
        Ok(())
    }

    /// EmitMeshTasksEXT (operands `x`, `y`, `z`) where some invocation may
    /// have returned: lane 0 writes a zero count, then every invocation
    /// still running writes the counts (uniform, so all write the same
    /// words); then the shader ends.
    pub(super) fn mesh_tasks_after_return(
        &mut self,
        [x, y, z]: [Value; 3],
        copies: &mut [CopyState],
    ) -> Result<(), BackendError> {
        let zero = Comp::Const(0);
        let lane0 = self.lane0_guard();
        self.write_mesh_tasks(zero, zero, zero, lane0);
        for c in 0..copies.len() {
            self.enter_copy(copies, c);
            let (cx, cy, cz) = (
                self.value_comp(x)?,
                self.value_comp(y)?,
                self.value_comp(z)?,
            );
            let running = match self.wide.returned[c] {
                Comp::Pred(p) => PredSrc {
                    neg: true,
                    ..p.pred()
                },
                _ => PredSrc::TRUE,
            };
            self.write_mesh_tasks(cx, cy, cz, running);
        }
        self.enter_copy(copies, 0);
        self.emit(Instr::new(Op::Exit));
        Ok(())
    }
}

fn is_bool(sh: &ir::Shader, ty: ir::TypeId) -> bool {
    matches!(
        sh.types[ty],
        ir::Type::Scalar(ir::Scalar::Bool)
            | ir::Type::Vector {
                scalar: ir::Scalar::Bool,
                ..
            }
    )
}
