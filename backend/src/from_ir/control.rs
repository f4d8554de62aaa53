//! Control flow: terminators, convergence barriers around divergent
//! selections (BSSY at the header, BSYNC at the merge block), and critical
//! edge splitting for regalloc2.

use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{Instr, Op, OpBra, OpBssy, PredSrc, Reg, Target};
use crate::mir::MFunc;
use spvsass_frontend::ir::{self, BlockCall, InstData, Merge};
use std::collections::{HashMap, HashSet};

fn predecessors(sh: &ir::Shader) -> HashMap<ir::Block, Vec<ir::Block>> {
    let mut preds: HashMap<ir::Block, Vec<ir::Block>> = HashMap::new();
    for &b in &sh.layout {
        for s in sh.successors(b) {
            preds.entry(s).or_default().push(b);
        }
    }
    preds
}

/// The merge block and continue target of every loop, each with its
/// loop's header: the blocks a `break` or `continue` branches to.
fn loop_exits(sh: &ir::Shader) -> HashMap<ir::Block, ir::Block> {
    let mut exits = HashMap::new();
    for &b in &sh.layout {
        if let Some(Merge::Loop {
            merge,
            continue_target,
        }) = sh.blocks[b].merge
        {
            exits.insert(merge, b);
            exits.insert(continue_target, b);
        }
    }
    exits
}

/// Whether the selection construct headed by `header` has an edge that
/// leaves it other than to `merge`. The construct is the blocks reachable
/// from the header before the merge, stopping at the exits of loops that
/// enclose it, that the header dominates (found by dropping, until none is
/// left, every block with a predecessor outside).
fn escapes(
    sh: &ir::Shader,
    preds: &HashMap<ir::Block, Vec<ir::Block>>,
    exits: &HashMap<ir::Block, ir::Block>,
    header: ir::Block,
    merge: ir::Block,
) -> bool {
    let mut inside = HashSet::new();
    let mut stack = vec![header];
    while let Some(b) = stack.pop() {
        // A loop exit whose loop header is not inside belongs to an
        // enclosing loop: reaching it is a break or continue.
        let enclosing_exit = b != header && exits.get(&b).is_some_and(|h| !inside.contains(h));
        if b != merge && !enclosing_exit && inside.insert(b) {
            stack.extend(sh.successors(b));
        }
    }
    loop {
        let outside_pred = inside.iter().copied().find(|&b| {
            b != header
                && preds
                    .get(&b)
                    .is_some_and(|ps| ps.iter().any(|p| !inside.contains(p)))
        });
        match outside_pred {
            Some(b) => {
                inside.remove(&b);
            }
            None => break,
        }
    }
    inside.iter().any(|&b| {
        sh.successors(b)
            .iter()
            .any(|s| *s != merge && !inside.contains(s))
    })
}

impl Isel<'_> {
    /// Gives each selection construct with a conditional branch a
    /// convergence barrier, numbered by nesting depth. A selection that a
    /// branch leaves other than through its merge block (a `break` or
    /// `continue` to the enclosing loop) gets none: its lanes would never
    /// all reach the BSYNC. Such lanes reconverge where the loop's do.
    ///
    /// A loop gets one too: BSSY in the block that enters it, BSYNC at its
    /// merge block, where lanes that left at different iterations wait
    /// for each other.
    pub(super) fn plan_barriers(&mut self) -> Result<(), BackendError> {
        let preds = predecessors(self.sh);
        let exits = loop_exits(self.sh);
        let position: HashMap<ir::Block, usize> = self
            .sh
            .layout
            .iter()
            .enumerate()
            .map(|(i, &b)| (b, i))
            .collect();
        let mut open: Vec<ir::Block> = Vec::new();
        for &b in &self.sh.layout {
            while open.last() == Some(&b) {
                open.pop();
            }
            let data = &self.sh.blocks[b];
            if let Some(Merge::Loop { merge, .. }) = data.merge
                && !self.bsync_at.contains_key(&merge)
            {
                // The entering edges come from blocks laid out before the
                // header; the back edge from after it.
                let entering: Vec<ir::Block> = preds
                    .get(&b)
                    .into_iter()
                    .flatten()
                    .copied()
                    .filter(|p| position[p] < position[&b])
                    .collect();
                if let [pre] = entering[..]
                    && matches!(self.sh.terminator(pre), Some(ir::Op::Jump(_)))
                {
                    let bar = u8::try_from(open.len()).unwrap_or(u8::MAX);
                    if bar >= OpBssy::BARRIERS {
                        return Err(BackendError::TooDeep(OpBssy::BARRIERS));
                    }
                    self.loop_bssy.insert(pre, (bar, merge));
                    self.bsync_at.insert(merge, bar);
                    open.push(merge);
                }
            }
            let conditional = matches!(self.sh.terminator(b), Some(ir::Op::Branch { .. }));
            if let (Some(Merge::Selection { merge }), true) = (data.merge, conditional)
                && !escapes(self.sh, &preds, &exits, b, merge)
            {
                let bar = u8::try_from(open.len()).unwrap_or(u8::MAX);
                if bar >= OpBssy::BARRIERS {
                    return Err(BackendError::TooDeep(OpBssy::BARRIERS));
                }
                self.bssy_at.insert(b, bar);
                self.bsync_at.insert(merge, bar);
                open.push(merge);
            }
        }
        Ok(())
    }

    fn edge_args(&mut self, call: &BlockCall) -> Result<Vec<u32>, BackendError> {
        let mut args = Vec::new();
        for &a in &call.args {
            for c in self.value(a)?.clone() {
                args.push(self.materialize(c));
            }
        }
        Ok(args)
    }

    pub(super) fn terminator(&mut self, b: ir::Block, inst: &InstData) -> Result<(), BackendError> {
        let from = self.cur;
        match &inst.op {
            ir::Op::Jump(call) => {
                if let Some(&(bar, merge)) = self.loop_bssy.get(&b) {
                    let target = Target::Block(self.blocks[&merge] as u32);
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
                    Comp::Bool(true) => return self.jump(from, then_dest),
                    Comp::Bool(false) => return self.jump(from, else_dest),
                    Comp::Pred(p) => (then_dest, else_dest, PredSrc::reg(Reg::Virt(p))),
                    _ => {
                        return Err(BackendError::Invalid {
                            what: "a branch on a non-boolean".into(),
                            spirv_id: inst.spirv_id,
                        });
                    }
                };
                let taken_args = self.edge_args(taken)?;
                let other_args = self.edge_args(not_taken)?;
                if let Some(&bar) = self.bssy_at.get(&b) {
                    let Some(Merge::Selection { merge }) = self.sh.blocks[b].merge else {
                        unreachable!()
                    };
                    let target = Target::Block(self.blocks[&merge] as u32);
                    self.emit(Instr::new(Op::Bssy(OpBssy { bar, target })));
                }
                let t = self.blocks[&taken.block];
                let e = self.blocks[&not_taken.block];
                self.emit(Instr::guarded(
                    guard,
                    Op::Bra(OpBra {
                        target: Target::Block(t as u32),
                    }),
                ));
                self.f.add_edge(from, t, taken_args);
                self.f.add_edge(from, e, other_args);
            }
            ir::Op::Return | ir::Op::Unreachable => self.emit(Instr::new(Op::Exit)),
            ir::Op::Switch { .. } => return Err(self.unsupported("OpSwitch", inst)),
            _ => unreachable!("only terminators reach here"),
        }
        Ok(())
    }

    fn jump(&mut self, from: usize, call: &BlockCall) -> Result<(), BackendError> {
        let args = self.edge_args(call)?;
        let t = self.blocks[&call.block];
        self.emit(Instr::new(Op::Bra(OpBra {
            target: Target::Block(t as u32),
        })));
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
    let mut before: Vec<Vec<usize>> = vec![Vec::new(); n];
    for from in 0..n {
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
                target: Target::Block(to as u32),
            })));
            // A conditional branch names its taken successor.
            for ins in &mut f.blocks[from].instrs {
                if let Op::Bra(OpBra { target }) = &mut ins.op
                    && *target == Target::Block(to as u32)
                    && si == 0
                {
                    *target = Target::Block(mid as u32);
                }
            }
            before[to].push(mid);
        }
    }
    // New layout: each split block right before its target.
    let mut order = Vec::with_capacity(f.blocks.len());
    for (b, split) in before.iter().enumerate() {
        order.extend(split);
        order.push(b);
    }
    f.reorder(&order);
}
