//! Control flow: terminators, convergence barriers around divergent
//! selections (BSSY at the header, BSYNC at the merge block), and critical
//! edge splitting for regalloc2.

use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{Instr, IntCmp, Op, OpBra, OpBssy, OpISetP, PredCombine, PredSrc, Src};
use crate::mir::{BlockId, MFunc, PReg, VReg};
use crate::structured;
use cranelift_entity::{EntityRef, SecondaryMap};
use spvsass_frontend::ir::{self, BlockCall, InstData, Merge};

impl Isel<'_> {
    /// Gives each selection construct with a divergent branch or switch
    /// (crate::uniformity) a convergence barrier, numbered by nesting
    /// depth; a uniform one needs none. A selection that a
    /// branch leaves other than through its merge block (a `break` or
    /// `continue` to the enclosing loop) gets none: its lanes would never
    /// all reach the BSYNC. Such lanes reconverge where the loop's do.
    ///
    /// A loop that lanes may leave at different iterations gets one too:
    /// BSSY in the block that enters it, BSYNC at its merge block, where
    /// they wait for each other; unless a branch leaves it past its merge
    /// (a break out of an enclosing loop, an inlined early return): the
    /// lanes taking it would never reach that BSYNC. They meet the others
    /// at the enclosing loop's barrier, which such a branch makes
    /// divergent too (crate::uniformity).
    ///
    /// In a wide workgroup, a return inside a region branches to the
    /// region's merge (`returns`), past the merges of the constructs around
    /// it inside the region (`ReturnLowering::returns_past`): those get no
    /// barrier either, as for a `break`; the region's own construct keeps
    /// its barrier, whose BSYNC the returning lanes reach.
    ///
    /// The last barrier stays free for the divergent loops selection
    /// builds inside one instruction (`Barriers::inner`).
    pub(super) fn plan_barriers(
        &mut self,
        returns: Option<&crate::lower_returns::ReturnLowering>,
    ) -> Result<(), BackendError> {
        let preds = structured::predecessors(self.sh);
        let exits = structured::loop_exits(self.sh);
        let sh = self.sh;
        // Each block's position in the layout.
        let mut position: SecondaryMap<ir::Block, usize> =
            SecondaryMap::with_capacity(sh.blocks.len());
        for (i, &b) in sh.layout.iter().enumerate() {
            position[b] = i;
        }
        let returns_past = |h: ir::Block| returns.is_some_and(|r| r.returns_past.contains(h));
        let mut open: Vec<ir::Block> = Vec::new();
        for &b in &self.sh.layout {
            while open.last() == Some(&b) {
                open.pop();
            }
            let data = &self.sh.blocks[b];
            if let Some(Merge::Loop { merge, .. }) = data.merge
                && self.divergence.divergent_loop(b)
                && !returns_past(b)
                && !structured::escapes(self.sh, &preds, &exits, b, merge)
                && self.barriers.bsync_at[merge].is_none()
            {
                // The entering edges come from blocks laid out before the
                // header; the back edge from after it.
                let entering: Vec<ir::Block> = preds[b]
                    .iter()
                    .copied()
                    .filter(|&p| position[p] < position[b])
                    .collect();
                if let [pre] = entering[..]
                    && matches!(self.sh.terminator(pre), Some(ir::Op::Jump(_)))
                {
                    let bar = u8::try_from(open.len()).unwrap_or(u8::MAX);
                    if bar >= OpBssy::BARRIERS - 1 {
                        return Err(BackendError::TooDeep(OpBssy::BARRIERS));
                    }
                    self.barriers.inner = self.barriers.inner.max(bar + 1);
                    self.barriers.loop_bssy[pre] = Some((bar, merge));
                    self.barriers.bsync_at[merge] = Some(bar);
                    open.push(merge);
                }
            }
            // A uniform branch sends every invocation the same way: they
            // stay together without a barrier.
            let divergent = self.divergence.divergent_branch(b);
            if let (Some(Merge::Selection { merge }), true) = (data.merge, divergent)
                && !structured::escapes(self.sh, &preds, &exits, b, merge)
                && !returns_past(b)
            {
                let bar = u8::try_from(open.len()).unwrap_or(u8::MAX);
                if bar >= OpBssy::BARRIERS - 1 {
                    return Err(BackendError::TooDeep(OpBssy::BARRIERS));
                }
                self.barriers.inner = self.barriers.inner.max(bar + 1);
                self.barriers.bssy_at[b] = Some(bar);
                self.barriers.bsync_at[merge] = Some(bar);
                open.push(merge);
            }
        }
        Ok(())
    }

    fn edge_args(&mut self, call: &BlockCall) -> Result<Vec<VReg>, BackendError> {
        let mut args = Vec::new();
        for &a in &call.args {
            for c in self.value(a)?.clone() {
                args.push(self.materialize(c));
            }
        }
        // Leaving a region copy of a wide workgroup (`returns`).
        args.extend(self.region_exit_args(call.block)?);
        Ok(args)
    }

    pub(super) fn terminator(&mut self, b: ir::Block, inst: &InstData) -> Result<(), BackendError> {
        let from = self.cur;
        match &inst.op {
            ir::Op::Jump(call) => {
                if let Some((bar, merge)) = self.barriers.loop_bssy[b] {
                    let target = self.blocks.at(merge).target();
                    self.emit(Instr::new(Op::Bssy(OpBssy { bar, target })));
                }
                self.jump(from, call)?
            }
            ir::Op::Branch {
                cond,
                then_dest,
                else_dest,
            } => {
                let (taken, not_taken, guard) = match self.value_comp(*cond)? {
                    // The merge block still synchronises (its BSYNC was
                    // planned from the IR's divergence): open the barrier
                    // for the invocations that all go one way.
                    Comp::Bool(true) => {
                        self.open_selection_barrier(b);
                        return self.jump(from, then_dest);
                    }
                    Comp::Bool(false) => {
                        self.open_selection_barrier(b);
                        return self.jump(from, else_dest);
                    }
                    Comp::Pred(p) => (then_dest, else_dest, p.pred()),
                    _ => {
                        return Err(BackendError::Invalid {
                            what: "a branch on a non-boolean".into(),
                            spirv_id: inst.spirv_id,
                        });
                    }
                };
                let taken_args = self.edge_args(taken)?;
                let other_args = self.edge_args(not_taken)?;
                self.open_selection_barrier(b);
                let t = self.blocks.at(taken.block);
                let e = self.blocks.at(not_taken.block);
                self.emit(Instr::guarded(guard, Op::Bra(OpBra { target: t.target() })));
                self.f.add_edge(from, t, taken_args);
                self.f.add_edge(from, e, other_args);
            }
            ir::Op::Return | ir::Op::Unreachable => self.emit(Instr::new(Op::Exit)),
            ir::Op::Switch {
                selector,
                default,
                cases,
            } => self.switch(b, inst, *selector, default, cases)?,
            _ => unreachable!("only terminators reach here"),
        }
        Ok(())
    }

    /// BSSY of the convergence barrier that selection header `b` opens,
    /// if the plan gave it one (its merge block starts with the BSYNC).
    fn open_selection_barrier(&mut self, b: ir::Block) {
        if let Some(bar) = self.barriers.bssy_at[b] {
            let Some(Merge::Selection { merge }) = self.sh.blocks[b].merge else {
                unreachable!("barriers open at selection headers")
            };
            let target = self.blocks.at(merge).target();
            self.emit(Instr::new(Op::Bssy(OpBssy { bar, target })));
        }
    }

    /// OpSwitch as a chain of conditional branches: the cases that go to
    /// one target (with the same arguments) share one predicate, an OR of
    /// compares; cases that go where the default goes need none. The
    /// header computes every predicate and edge argument, opens the
    /// convergence barrier if the switch has one, and branches to the
    /// first target; each further branch is a block of its own (laid out
    /// right after the header), the last one jumping to the default.
    fn switch(
        &mut self,
        b: ir::Block,
        inst: &InstData,
        selector: ir::Value,
        default: &BlockCall,
        cases: &[(u64, BlockCall)],
    ) -> Result<(), BackendError> {
        let from = self.cur;
        let sel = self.value_comp(selector)?;
        if let Comp::Const(k) = sel {
            let hit = cases.iter().find(|(lit, _)| *lit == u64::from(k));
            self.open_selection_barrier(b);
            return self.jump(from, hit.map_or(default, |(_, call)| call));
        }
        let groups = self.switch_groups(inst, default, cases)?;
        let sel = self.src_of(sel);
        let mut arms = Vec::new();
        for (call, lits) in &groups {
            let p = self.case_predicate(sel, lits);
            let args = self.edge_args(call)?;
            arms.push((p, call.block, args));
        }
        let default_args = self.edge_args(default)?;
        self.open_selection_barrier(b);
        let mut at = from;
        for (p, block, args) in arms {
            let t = self.blocks.at(block);
            self.cur = at;
            self.emit(Instr::guarded(
                p.pred(),
                Op::Bra(OpBra { target: t.target() }),
            ));
            self.f.add_edge(at, t, args);
            let next = self.f.new_block();
            self.split_off.entry(from).or_default().push(next);
            self.f.add_edge(at, next, Vec::new());
            at = next;
        }
        self.cur = at;
        let t = self.blocks.at(default.block);
        self.emit(Instr::new(Op::Bra(OpBra { target: t.target() })));
        self.f.add_edge(at, t, default_args);
        Ok(())
    }

    /// The cases of an OpSwitch grouped by target: the cases that go to
    /// one target (with the same arguments) share one predicate, in the
    /// order of their first case; cases that go where the default goes are
    /// left out. A literal over 32 bits is refused.
    pub(super) fn switch_groups<'c>(
        &self,
        inst: &InstData,
        default: &BlockCall,
        cases: &'c [(u64, BlockCall)],
    ) -> Result<Vec<(&'c BlockCall, Vec<u32>)>, BackendError> {
        let mut groups: Vec<(&BlockCall, Vec<u32>)> = Vec::new();
        for (lit, call) in cases {
            let lit = u32::try_from(*lit)
                .map_err(|_| self.unsupported("a switch on a 64-bit selector", inst))?;
            if call == default {
                continue;
            }
            match groups.iter_mut().find(|(c, _)| *c == call) {
                Some((_, lits)) => lits.push(lit),
                None => groups.push((call, vec![lit])),
            }
        }
        Ok(groups)
    }

    /// A predicate true where `sel` equals one of `lits` (not empty): one
    /// ISETP.EQ per literal, ORed through the accumulator.
    pub(super) fn case_predicate(&mut self, sel: Src, lits: &[u32]) -> PReg {
        let mut p: Option<PReg> = None;
        for &lit in lits {
            let lit = self.src_of(Comp::Const(lit));
            let accum = p.map_or(PredSrc::TRUE, |p| p.pred());
            let r = self.f.new_pred();
            self.emit(Instr::new(Op::ISetP(OpISetP {
                dst: r.dst(),
                cmp: IntCmp::Eq,
                signed: false,
                combine: if p.is_some() {
                    PredCombine::Or
                } else {
                    PredCombine::And
                },
                srcs: [sel, lit],
                accum,
            })));
            p = Some(r);
        }
        p.expect("a group has a case")
    }

    fn jump(&mut self, from: BlockId, call: &BlockCall) -> Result<(), BackendError> {
        let args = self.edge_args(call)?;
        let t = self.blocks.at(call.block);
        self.emit(Instr::new(Op::Bra(OpBra { target: t.target() })));
        self.f.add_edge(from, t, args);
        Ok(())
    }
}

/// Splits every edge from a block with several successors to a block with
/// several predecessors (regalloc2 needs it). The new block holds a single
/// BRA, carries the edge's arguments, and is laid out right before its
/// target so that it usually falls through and disappears at emission.
pub fn split_critical_edges(f: &mut MFunc) {
    let n = f.blocks.len();
    let mut before: SecondaryMap<BlockId, Vec<BlockId>> = SecondaryMap::with_capacity(n);
    for from in (0..n).map(BlockId::new) {
        if f.blocks[from].succs.len() < 2 {
            continue;
        }
        for si in 0..f.blocks[from].succs.len() {
            let to = f.blocks[from].succs[si];
            if f.blocks[to].preds.len() < 2 {
                continue;
            }
            let mid = f.new_block();
            let args = std::mem::take(&mut f.blocks[from].succ_args[si]);
            f.blocks[from].succs[si] = mid;
            f.blocks[mid].preds.push(from);
            let p = f.blocks[to]
                .preds
                .iter()
                .position(|&p| p == from)
                .expect("edge is recorded on both ends");
            f.blocks[to].preds[p] = mid;
            f.blocks[mid].succs.push(to);
            f.blocks[mid].succ_args.push(args);
            f.blocks[mid].instrs.push(Instr::new(Op::Bra(OpBra {
                target: to.target(),
            })));
            // A conditional branch names its taken successor.
            for ins in &mut f.blocks[from].instrs {
                if let Op::Bra(OpBra { target }) = &mut ins.op
                    && *target == to.target()
                    && si == 0
                {
                    *target = mid.target();
                }
            }
            before[to].push(mid);
        }
    }
    // New layout: each split block right before its target.
    let mut order = Vec::with_capacity(f.blocks.len());
    for b in (0..n).map(BlockId::new) {
        order.extend(&before[b]);
        order.push(b);
    }
    f.reorder(&order);
}
