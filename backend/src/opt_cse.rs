//! Common-subexpression elimination over the dominator tree.
//!
//! Walking the dominator tree from the entry, an unguarded pure instruction
//! (`mir_info::is_cse_candidate`: no memory but the read-only constant
//! banks, no warp-wide op, not the clock) with the same op and operands as
//! one in a dominating position is dropped and its result renamed to the
//! earlier one. Lane-varying S2R values (SR_TID.X, SR_LANEID) are the same
//! for a thread wherever they are read, so they are merged too. Registers
//! in 64/128-bit groups are left alone.

use crate::isa::{Instr, OperandKind, Reg};
use crate::mir::{BlockId, MFunc, VReg};
use crate::mir_info::{Info, idoms, is_cse_candidate, rename_uses, single_def};
use cranelift_entity::SecondaryMap;
use rustc_hash::FxHashMap;
use std::collections::hash_map::Entry;

/// Runs the pass.
pub fn cse(f: &mut MFunc) {
    let info = Info::new(f);
    let idom = idoms(f);
    let mut children: SecondaryMap<BlockId, Vec<BlockId>> = SecondaryMap::new();
    for (b, d) in idom.iter() {
        if let Some(d) = d {
            children[*d].push(b);
        }
    }
    // Sized for every instruction up front: growing it rehashed each
    // whole instruction again, a large part of the pass.
    let candidates = f.blocks.values().map(|b| b.instrs.len()).sum();
    // Each expression with its result and the block computing it.
    let mut table: FxHashMap<Instr, (VReg, BlockId)> =
        FxHashMap::with_capacity_and_hasher(candidates, Default::default());
    let mut rename: FxHashMap<VReg, VReg> = FxHashMap::default();
    let mut dead: Vec<(BlockId, usize)> = Vec::new();
    // The blocks on the dominator-tree path being walked: an entry from a
    // block off the path is out of scope and is overwritten when met,
    // cheaper than removing each block's entries on leaving it.
    let mut open: SecondaryMap<BlockId, bool> = SecondaryMap::with_capacity(f.blocks.len());
    // (block, entering): on leaving a block its expressions go out of scope.
    let mut stack = vec![(BlockId::ENTRY, true)];
    while let Some((b, entering)) = stack.pop() {
        open[b] = entering;
        if !entering {
            continue;
        }
        stack.push((b, false));
        stack.extend(children[b].iter().rev().map(|&c| (c, true)));
        for (i, ins) in f.blocks[b].instrs.iter_mut().enumerate() {
            if !rename.is_empty() {
                ins.visit_regs(&mut |r, _, kind, _| {
                    if let (Some(v), OperandKind::Use) = (VReg::from_reg(*r), kind)
                        && let Some(&n) = rename.get(&v)
                    {
                        *r = n.reg();
                    }
                });
            }
            if !ins.guard.is_true() || !is_cse_candidate(&ins.op) {
                continue;
            }
            let Some((d, _)) = single_def(ins).filter(|(d, _)| info.is_plain(*d)) else {
                continue;
            };
            let mut key = *ins;
            key.visit_regs(&mut |r, _, kind, _| {
                if kind == OperandKind::Def {
                    *r = Reg::Virt(u32::MAX);
                }
            });
            match table.entry(key) {
                Entry::Occupied(e) if open[e.get().1] => {
                    rename.insert(d, e.get().0);
                    dead.push((b, i));
                }
                Entry::Occupied(mut e) => {
                    e.insert((d, b));
                }
                Entry::Vacant(e) => {
                    e.insert((d, b));
                }
            }
        }
    }
    if dead.is_empty() {
        return;
    }
    // One pass per block (`dead` is in block walk order, ascending within
    // a block): removing one by one moved the block's tail each time,
    // quadratic in a long block.
    dead.sort_unstable();
    let mut dead = dead.into_iter().peekable();
    for (b, block) in f.blocks.iter_mut() {
        let mut i = 0;
        block.instrs.retain(|_| {
            let drop = dead.next_if_eq(&(b, i)).is_some();
            i += 1;
            !drop
        });
    }
    rename_uses(f, &rename);
}
