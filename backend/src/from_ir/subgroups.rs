//! Instruction selection for task and mesh workgroups of more than 32
//! invocations: the logical subgroups of `crate::logical_subgroups`,
//! unrolled. Each copy `i` has its own values (and its own MIR blocks for
//! regions); spine blocks are shared and hold every copy's instructions.
//!
//! Layout of one region (header H, merge M) for copies 0..k:
//! `E(H)` (spine form of H: the parameters of every copy) -> `H_0 ..` copy 0
//! `.. -> J_0` (M for copy 0) -> `H_1 ..` copy 1 `.. -> J_1` -> ... ->
//! `J_{k-1}` -> `M` (spine form, the parameters of every copy). Each `H_i`
//! dominates everything after it, so values a region defines stay usable
//! after its merge, as in the IR.
//!
//! Each spine block is emitted piece by piece as `lower_returns.rs` cut it
//! (runs of instructions once per copy, boundaries and terminators once),
//! and what those pieces and the region copies do about early returns is
//! that lowering's decision (`returns.rs` emits it).

use super::spine_switch::SwitchArms;
use super::{BlockMap, Comp, Isel, ValueMap, returns::RegionExit};
use crate::error::BackendError;
use crate::isa::{
    Dst, Instr, IntCmp, Op, OpBra, OpBssy, OpBsync, OpIAdd3, OpISetP, OpPLop3, OpVote, PredCombine,
    PredSrc, RegFile, Src, VoteMode,
};
use crate::logical_subgroups::{Plan, WARP_LANES};
use crate::lower_returns::{MayHaveReturned, Once, Piece};
use crate::mir::{BlockId, VReg};
use cranelift_entity::{EntitySet, SecondaryMap};

use spvsass_frontend::ir::{self, BlockCall, BuiltIn, InstData, Value};

/// What one logical subgroup sees: its values and where its blocks are.
#[derive(Default)]
pub(super) struct CopyState {
    vals: ValueMap,
    lane_ids: EntitySet<Value>,
    blocks: BlockMap,
    /// Per region header, this copy's blocks of the region and of its
    /// merge: a merge that is also the next region's header has a block
    /// in each (never swapped by `enter_copy`).
    regions: SecondaryMap<ir::Block, Vec<(ir::Block, BlockId)>>,
}

impl<'a> Isel<'a> {
    /// Makes copy `i` the one that `block`, `inst` and `terminator` see.
    pub(super) fn enter_copy(&mut self, copies: &mut [CopyState], i: usize) {
        let cur = self.wide.copy as usize;
        std::mem::swap(&mut self.vals, &mut copies[cur].vals);
        std::mem::swap(&mut self.lane_ids, &mut copies[cur].lane_ids);
        std::mem::swap(&mut self.blocks, &mut copies[cur].blocks);
        std::mem::swap(&mut self.vals, &mut copies[i].vals);
        std::mem::swap(&mut self.lane_ids, &mut copies[i].lane_ids);
        std::mem::swap(&mut self.blocks, &mut copies[i].blocks);
        self.wide.copy = i as u32;
    }

    /// Selects the whole shader as `plan` says.
    /// `cull`: the shader writes CullPrimitiveEXT. In-shader culling, when
    /// compiled in (`mesh_cull`), runs once, at the spine's OpReturn, for
    /// every logical subgroup's outputs: the culling pass
    /// (`insert_cull.rs`) puts its code in the block reserved here.
    pub(super) fn select_wide(&mut self, plan: &Plan, cull: bool) -> Result<(), BackendError> {
        let k = plan.copies as usize;
        let sh = self.sh;
        // MIR blocks, in layout order (the entry block first).
        let mut spine = BlockMap::default();
        let mut copies: Vec<CopyState> = (0..k).map(|_| CopyState::default()).collect();
        let mut li = 0;
        while li < sh.layout.len() {
            let b = sh.layout[li];
            spine.insert(b, self.f.new_block());
            if let Some(merge) = plan.regions[b] {
                let inner: Vec<ir::Block> = sh.layout[li..]
                    .iter()
                    .copied()
                    .take_while(|&x| plan.region_of[x] == Some(b))
                    .collect();
                for c in copies.iter_mut() {
                    let mut pairs: Vec<(ir::Block, BlockId)> =
                        inner.iter().map(|&rb| (rb, self.f.new_block())).collect();
                    pairs.push((merge, self.f.new_block()));
                    c.blocks.extend(pairs.iter().copied());
                    c.regions.insert(b, pairs);
                }
                li += inner.len();
            } else {
                li += 1;
            }
        }
        self.reserve_culling();
        self.cur = spine.at(sh.entry_block());
        let lowering = self.return_lowering();
        if lowering.tracked {
            self.wide.returned = vec![Comp::Bool(false); k];
        }
        if let Some(rest) = lowering.partial_lanes {
            let lane = Comp::Reg(self.special_reg(crate::isa::SpecialReg::LaneId));
            let lane = self.src_of(lane);
            if let Comp::Pred(p) = self.alu(Op::ISetP(OpISetP {
                dst: Dst::None,
                cmp: IntCmp::Lt,
                signed: false,
                combine: PredCombine::And,
                srcs: [lane, Src::imm(rest)],
                accum: PredSrc::TRUE,
            })) {
                self.wide.partial = Some(p.pred());
            }
            // The lanes past the workgroup in the last logical subgroup
            // are no invocations: they start out returned, so they skip
            // every region copy and run of spine instructions of that
            // copy (stores, atomics and subgroup operations included).
            if let Comp::Pred(past) = self.alu(Op::ISetP(OpISetP {
                dst: Dst::None,
                cmp: IntCmp::Ge,
                signed: false,
                combine: PredCombine::And,
                srcs: [lane, Src::imm(rest)],
                accum: PredSrc::TRUE,
            })) {
                self.wide.returned[k - 1] = Comp::Pred(past);
            }
        }
        if cull {
            self.init_viewport_masks();
        }
        self.init_shared()?;
        self.prologue_intrinsics()?;
        // The entry block goes on where the prologue ends (after the
        // statistics guard's join: from_ir/intrinsics.rs).
        spine.insert(sh.entry_block(), self.cur);
        // Copy 0 is entered between the steps (the spine map stays in
        // `spine`).
        self.wide.copy = 0;
        std::mem::swap(&mut self.vals, &mut copies[0].vals);
        std::mem::swap(&mut self.lane_ids, &mut copies[0].lane_ids);
        std::mem::swap(&mut self.blocks, &mut copies[0].blocks);
        let mut li = 0;
        while li < sh.layout.len() {
            let b = sh.layout[li];
            let Some(merge) = plan.regions[b] else {
                self.spine_block(b, plan, &spine, &mut copies)?;
                li += 1;
                continue;
            };
            self.region(b, merge, plan, &spine, &mut copies)?;
            li += sh.layout[li..]
                .iter()
                .take_while(|&&x| plan.region_of[x] == Some(b))
                .count();
        }
        Ok(())
    }

    /// Parameters of `b` for every copy, as one MIR parameter list.
    fn spine_params(&mut self, b: ir::Block, copies: &mut [CopyState]) -> Result<(), BackendError> {
        let mut params = Vec::new();
        for i in 0..copies.len() {
            self.enter_copy(copies, i);
            for &p in &self.sh.blocks[b].params {
                let comps = self.new_regs_for(p)?;
                params.extend(comps.iter().map(reg_of));
                self.vals.insert(p, comps);
            }
        }
        self.enter_copy(copies, 0);
        // Every spine block after the entry takes each copy's returned
        // predicate.
        if self.return_lowering().returned[b] == MayHaveReturned::Any {
            params.extend(self.returned_params());
        }
        self.f.blocks[self.cur].params = params;
        Ok(())
    }

    /// Arguments of a spine edge: every copy's, in copy order.
    pub(super) fn spine_args(
        &mut self,
        call: &BlockCall,
        copies: &mut [CopyState],
    ) -> Result<Vec<VReg>, BackendError> {
        let mut args = Vec::new();
        for i in 0..copies.len() {
            self.enter_copy(copies, i);
            for &a in &call.args {
                for c in self.value(a)?.clone() {
                    args.push(self.materialize(c));
                }
            }
        }
        self.enter_copy(copies, 0);
        args.extend(self.returned_args());
        Ok(args)
    }

    pub(super) fn bra(&mut self, to: BlockId, args: Vec<VReg>) {
        self.emit(Instr::new(Op::Bra(OpBra {
            target: to.target(),
        })));
        self.f.add_edge(self.cur, to, args);
    }

    /// A spine block, or the part of a selection region's header before
    /// its branch (its copies branch): its pieces as the lowering cut them.
    fn spine_block(
        &mut self,
        b: ir::Block,
        plan: &Plan,
        spine: &BlockMap,
        copies: &mut [CopyState],
    ) -> Result<(), BackendError> {
        self.cur = spine.at(b);
        self.spine_params(b, copies)?;
        for piece in &self.return_lowering().pieces[b] {
            match piece {
                Piece::Run(run) => self.copies_run(b, run, copies)?,
                Piece::Once(i, once) => self.once(b, *i, once, plan, spine, copies)?,
            }
        }
        Ok(())
    }

    /// A spine instruction selected once for the workgroup.
    fn once(
        &mut self,
        b: ir::Block,
        i: ir::Inst,
        once: &Once,
        plan: &Plan,
        spine: &BlockMap,
        copies: &mut [CopyState],
    ) -> Result<(), BackendError> {
        let sh = self.sh;
        let inst = &sh.insts[i];
        match once {
            // All copies of the region before ran already: nothing to
            // wait for on one warp.
            Once::Barrier => {}
            Once::MeshTasksAfterReturn(counts) => self.mesh_tasks_after_return(*counts, copies)?,
            Once::Refused(e) => return Err(e.clone()),
            // Uniform (the analysis proved the control flow uniform, and
            // the API wants the operands uniform): emitted once.
            Once::Uniform => self.inst(b, i)?,
            Once::Terminator => match &inst.op {
                ir::Op::Return | ir::Op::Unreachable => self.inst(b, i)?,
                ir::Op::Jump(call) => {
                    let args = self.spine_args(call, copies)?;
                    self.bra(spine.at(call.block), args);
                }
                ir::Op::Switch {
                    selector,
                    default,
                    cases,
                } => {
                    let voted = plan.voted.contains(b);
                    let arms = SwitchArms {
                        selector: *selector,
                        default,
                        cases,
                    };
                    self.spine_switch(inst, arms, voted, spine, copies)?
                }
                ir::Op::Branch {
                    cond,
                    then_dest,
                    else_dest,
                } => {
                    let cond = if plan.voted.contains(b) {
                        self.workgroup_vote(*cond, copies)?
                    } else {
                        self.value_comp(*cond)?
                    };
                    self.spine_branch(cond, then_dest, else_dest, inst, spine, copies)?
                }
                _ => unreachable!("the lowering marks only terminators so"),
            },
        }
        Ok(())
    }

    /// The condition of a voted spine branch (`Plan::voted`), evaluated
    /// once for the workgroup: true when any invocation still running, of
    /// any copy, has it true. For a dynamically uniform condition, which
    /// Vulkan requires around barriers and SetMeshOutputsEXT /
    /// EmitMeshTasksEXT, that is every invocation's value; for any other it
    /// still sends the whole warp one way, so the spine never diverges.
    /// Copy `i` contributes `cond_i & !returned_i` (lanes that returned, or
    /// that are no invocations, hold stale values), ORed over the copies
    /// with PLOP3, then one `VOTE.ANY` over the warp: k PLOP3s and a VOTE.
    fn workgroup_vote(
        &mut self,
        cond: Value,
        copies: &mut [CopyState],
    ) -> Result<Comp, BackendError> {
        self.workgroup_vote_of(copies, |isel| isel.value_comp(cond))
    }

    /// [`Self::workgroup_vote`] of the condition `cond_of` computes in each
    /// copy in turn (the copy entered), a boolean `Comp`.
    pub(super) fn workgroup_vote_of(
        &mut self,
        copies: &mut [CopyState],
        mut cond_of: impl FnMut(&mut Isel<'a>) -> Result<Comp, BackendError>,
    ) -> Result<Comp, BackendError> {
        let mut any: Option<PredSrc> = None;
        for i in 0..copies.len() {
            self.enter_copy(copies, i);
            let c = cond_of(self)?;
            let returned = self
                .wide
                .returned
                .get(i)
                .copied()
                .unwrap_or(Comp::Bool(false));
            let c = match c {
                Comp::Bool(false) => continue,
                Comp::Bool(true) => PredSrc::TRUE,
                Comp::Pred(p) => p.pred(),
                _ => {
                    return Err(BackendError::Invalid {
                        what: "a branch on a non-boolean".into(),
                        spirv_id: None,
                    });
                }
            };
            let running = match returned {
                Comp::Bool(true) => continue,
                Comp::Pred(r) => Some(PredSrc {
                    reg: r.pred().reg,
                    neg: true,
                }),
                _ => None,
            };
            // The term c & running, ORed into `any` (PLOP3 LUT over
            // a = 0xf0, b = 0xcc, c = 0xaa).
            let term = match (running, any) {
                (None, None) => c,
                (Some(run), None) => self.plop3([c, run, PredSrc::TRUE], 0xc0),
                (None, Some(acc)) => self.plop3([c, acc, PredSrc::TRUE], 0xfc),
                (Some(run), Some(acc)) => self.plop3([c, run, acc], 0xea),
            };
            if term.is_true() {
                // A copy whose every lane runs has it true: taken.
                self.enter_copy(copies, 0);
                return Ok(Comp::Bool(true));
            }
            any = Some(term);
        }
        self.enter_copy(copies, 0);
        let Some(any) = any else {
            return Ok(Comp::Bool(false));
        };
        let p = self.f.new_pred();
        self.emit(Instr::new(Op::Vote(OpVote {
            dst: Dst::None,
            pdst: p.dst(),
            src: any,
            mode: VoteMode::Any,
        })));
        Ok(Comp::Pred(p))
    }

    /// A predicate register holding `lut` over three predicates.
    fn plop3(&mut self, srcs: [PredSrc; 3], lut: u8) -> PredSrc {
        let p = self.f.new_vreg(RegFile::Pred);
        self.emit(Instr::new(Op::PLop3(OpPLop3 {
            dst: p.dst(),
            srcs,
            lut,
        })));
        p.pred()
    }

    /// A uniform branch (a proven-uniform condition is copy 0's; a voted
    /// one the workgroup's): no convergence barrier is needed.
    fn spine_branch(
        &mut self,
        cond: Comp,
        then_dest: &BlockCall,
        else_dest: &BlockCall,
        inst: &InstData,
        spine: &BlockMap,
        copies: &mut [CopyState],
    ) -> Result<(), BackendError> {
        let guard = match cond {
            Comp::Bool(true) => {
                let args = self.spine_args(then_dest, copies)?;
                self.bra(spine.at(then_dest.block), args);
                return Ok(());
            }
            Comp::Bool(false) => {
                let args = self.spine_args(else_dest, copies)?;
                self.bra(spine.at(else_dest.block), args);
                return Ok(());
            }
            Comp::Pred(p) => p.pred(),
            _ => {
                return Err(BackendError::Invalid {
                    what: "a branch on a non-boolean".into(),
                    spirv_id: inst.spirv_id,
                });
            }
        };
        let taken_args = self.spine_args(then_dest, copies)?;
        let other_args = self.spine_args(else_dest, copies)?;
        let (t, e) = (spine.at(then_dest.block), spine.at(else_dest.block));
        self.emit(Instr::guarded(guard, Op::Bra(OpBra { target: t.target() })));
        self.f.add_edge(self.cur, t, taken_args);
        self.f.add_edge(self.cur, e, other_args);
        Ok(())
    }

    /// A loop region is entered by a plain branch, not by its preheader's
    /// terminator (control.rs), so its convergence barrier opens here; the
    /// BSYNC at its merge is emitted with the merge block.
    fn open_loop_barrier(&mut self, merge: ir::Block) {
        if let Some(&(bar, _)) = self
            .barriers
            .loop_bssy
            .values()
            .flatten()
            .find(|(_, m)| *m == merge)
        {
            let target = self.blocks.at(merge).target();
            self.emit(Instr::new(Op::Bssy(OpBssy { bar, target })));
        }
    }

    /// One region, once per copy, chained through the merge's copies.
    fn region(
        &mut self,
        header: ir::Block,
        merge: ir::Block,
        plan: &Plan,
        spine: &BlockMap,
        copies: &mut [CopyState],
    ) -> Result<(), BackendError> {
        let sh = self.sh;
        let k = copies.len();
        // This region's blocks for every copy (the merge's block may have
        // been taken by a later region whose header it is).
        for i in 0..k {
            self.enter_copy(copies, i);
            let pairs = copies[i].regions[header].clone();
            self.blocks.extend(pairs);
        }
        self.enter_copy(copies, 0);
        // E(H): the header's parameters for every copy; for a selection,
        // also its instructions before the branch, and each copy of H is
        // then the branch alone.
        let selection = plan.selections.contains(header);
        if selection {
            self.spine_block(header, plan, spine, copies)?;
        } else {
            self.cur = spine.at(header);
            self.spine_params(header, copies)?;
        }
        let entry_args = |isel: &mut Isel<'_>| -> Result<Vec<VReg>, BackendError> {
            let mut args = Vec::new();
            if selection {
                return Ok(args);
            }
            for &p in &sh.blocks[header].params {
                for c in isel.value(p)?.clone() {
                    args.push(isel.materialize(c));
                }
            }
            Ok(args)
        };
        let lowering = self.return_lowering();
        let live_out: &[ir::Value] = lowering.live_out[header].as_deref().unwrap_or(&[]);
        // Where copies keep returned predicates, a selection region's
        // barrier opens where each copy is entered (`enter_region_copy`).
        let bar = if lowering.tracked && selection {
            self.barriers.bssy_at[header].take()
        } else {
            None
        };
        let skip = |c: usize| lowering.returned[header].copy(c, k);
        let args = entry_args(self)?;
        let to = self.blocks.at(header);
        self.open_loop_barrier(merge);
        self.enter_region_copy(to, args, merge, live_out, (skip(0), bar))?;
        let inner: Vec<ir::Block> = sh
            .layout
            .iter()
            .copied()
            .filter(|&b| plan.region_of[b] == Some(header))
            .collect();
        let mut merge_params = Vec::new();
        for i in 0..k {
            self.enter_copy(copies, i);
            self.wide.region_exit = lowering.tracked.then(|| RegionExit {
                merge,
                returned: self.wide.returned[i],
                live_out,
            });
            for &b in &inner {
                if selection && b == header {
                    self.cur = self.blocks.at(b);
                    if let Some(&term) = sh.blocks[b].insts.last() {
                        self.inst(b, term)?;
                    }
                } else {
                    self.block(b)?;
                }
            }
            // J_i: the merge block of copy i.
            self.cur = self.blocks.at(merge);
            let mut params = Vec::new();
            for &p in &sh.blocks[merge].params {
                let comps = self.new_regs_for(p)?;
                params.extend(comps.iter().map(reg_of));
                self.vals.insert(p, comps);
            }
            merge_params.extend(params.iter().copied());
            params.extend(self.region_merge_params()?);
            self.f.blocks[self.cur].params = params;
            if let Some(bar) = self.barriers.bsync_at[merge] {
                self.emit(Instr::new(Op::Bsync(OpBsync { bar })));
            }
            if i + 1 < k {
                // Copy i + 1 enters with its own header arguments from E(H).
                let j = self.cur;
                self.enter_copy(copies, i + 1);
                self.cur = j;
                let args = entry_args(self)?;
                let to = self.blocks.at(header);
                self.open_loop_barrier(merge);
                self.enter_region_copy(to, args, merge, live_out, (skip(i + 1), bar))?;
            } else {
                let mut args = std::mem::take(&mut merge_params);
                args.extend(self.returned_args());
                self.bra(spine.at(merge), args);
            }
        }
        self.enter_copy(copies, 0);
        Ok(())
    }

    /// The guard of a write: in the last logical subgroup of a workgroup
    /// whose size is not a multiple of 32, the lanes past the workgroup
    /// are no invocations and must not write.
    pub(super) fn logical_guard(&mut self, guard: PredSrc) -> PredSrc {
        let Some(active) = self.wide.partial else {
            return guard;
        };
        if self.wide.copy + 1 != self.wide.copies {
            return guard;
        }
        if guard == PredSrc::TRUE {
            return active;
        }
        // PLOP3 LUT for a & b (a = 0xf0, b = 0xcc).
        let p = self.f.new_vreg(RegFile::Pred);
        self.emit(Instr::new(Op::PLop3(OpPLop3 {
            dst: p.dst(),
            srcs: [guard, active, PredSrc::TRUE],
            lut: 0xc0,
        })));
        p.pred()
    }

    /// Built-ins that depend on the subgroup: the lane masks (in every
    /// stage), and those that depend on the logical subgroup of a wide
    /// workgroup; `None` for the others.
    pub(super) fn subgroup_builtin(
        &mut self,
        b: BuiltIn,
    ) -> Result<Option<Vec<Comp>>, BackendError> {
        use crate::isa::SpecialReg as Sr;
        let mask = match b {
            BuiltIn::SubgroupEqMask => Some(Sr::EqMask),
            BuiltIn::SubgroupGeMask => Some(Sr::GeMask),
            BuiltIn::SubgroupGtMask => Some(Sr::GtMask),
            BuiltIn::SubgroupLeMask => Some(Sr::LeMask),
            BuiltIn::SubgroupLtMask => Some(Sr::LtMask),
            _ => None,
        };
        if let Some(sr) = mask {
            // A u32x4 whose upper words name no lane of a 32-wide subgroup.
            let m = Comp::Reg(self.special_reg(sr));
            return Ok(Some(vec![
                m,
                Comp::Const(0),
                Comp::Const(0),
                Comp::Const(0),
            ]));
        }
        if self.wide.copies <= 1 {
            return Ok(None);
        }
        let index = |isel: &mut Isel<'_>| {
            let lane = Comp::Reg(isel.special_reg(crate::isa::SpecialReg::LaneId));
            if isel.wide.copy == 0 {
                return lane;
            }
            let lane = isel.src_of(lane);
            isel.alu(Op::IAdd3(OpIAdd3 {
                dst: Dst::None,
                srcs: [lane, Src::imm(isel.wide.copy * WARP_LANES), Src::ZERO],
            }))
        };
        Ok(Some(match b {
            BuiltIn::LocalInvocationIndex => vec![index(self)],
            BuiltIn::SubgroupId => vec![Comp::Const(self.wide.copy)],
            BuiltIn::NumSubgroups => vec![Comp::Const(self.wide.copies)],
            BuiltIn::SubgroupLocalInvocationId => {
                vec![Comp::Reg(self.special_reg(crate::isa::SpecialReg::LaneId))]
            }
            BuiltIn::LocalInvocationId => {
                let [x, y, z] = self.sh.workgroup_size;
                let idx = index(self);
                if y == 1 && z == 1 {
                    return Ok(Some(vec![idx, Comp::Const(0), Comp::Const(0)]));
                }
                // idx = lx + x * (ly + y * lz), as draw_local_id splits
                // the lane of a workgroup that fits one warp.
                let (rest, lx) = self.udiv_rem(idx, Comp::Const(x));
                let (lz, ly) = self.udiv_rem(rest, Comp::Const(y));
                vec![lx, ly, lz]
            }
            _ => return Ok(None),
        }))
    }
}

fn reg_of(c: &Comp) -> VReg {
    c.vreg().expect("new_regs_for gives registers")
}
