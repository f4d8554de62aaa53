//! Block order for register allocation: every block after a predecessor
//! (loop headers after their entering edge), as in a reverse postorder.
//!
//! regalloc2's checker propagates register contents in block order from an
//! empty state, so a block laid out before all of its predecessors is
//! checked as if no register held a value, and every value live into it
//! is reported unknown (`UnknownValueInAllocation`). regalloc2's loop-depth
//! estimate (and so its spill weights) also reads an edge to an earlier
//! block as a loop back edge. Instruction selection keeps the SPIR-V block
//! order, which puts dominators first, but the block that splits a loop's
//! critical back edge lands in front of the loop header, before its only
//! predecessor. This pass moves such blocks the least distance: it is a
//! topological sort of the CFG without its back edges that keeps the
//! existing order wherever that order is already topological.

use crate::mir::{BlockId, MFunc};
use cranelift_entity::{EntityRef, SecondaryMap};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Reorders the blocks of `f` so that forward edges go forward.
pub fn order_blocks(f: &mut MFunc) {
    let order = forward_order(f);
    if order.iter().enumerate().any(|(i, &b)| i != b.index()) {
        f.reorder(&order);
    }
}

/// The edges that close a cycle in a depth-first walk from the entry (and
/// then from any block the entry does not reach, in order): `back[b][k]`
/// for the `k`-th successor of block `b`.
fn back_edges(f: &MFunc) -> SecondaryMap<BlockId, Vec<bool>> {
    let n = f.blocks.len();
    let mut back: SecondaryMap<BlockId, Vec<bool>> = SecondaryMap::with_capacity(n);
    for (b, blk) in f.blocks.iter() {
        back[b] = vec![false; blk.succs.len()];
    }
    let mut visited: SecondaryMap<BlockId, bool> = SecondaryMap::with_capacity(n);
    let mut on_stack: SecondaryMap<BlockId, bool> = SecondaryMap::with_capacity(n);
    for root in f.blocks.keys() {
        if visited[root] {
            continue;
        }
        // (block, index of the next successor to look at)
        let mut stack = vec![(root, 0usize)];
        visited[root] = true;
        on_stack[root] = true;
        while let Some(&mut (b, ref mut k)) = stack.last_mut() {
            let Some(&s) = f.blocks[b].succs.get(*k) else {
                on_stack[b] = false;
                stack.pop();
                continue;
            };
            let edge = *k;
            *k += 1;
            if on_stack[s] {
                back[b][edge] = true;
            } else if !visited[s] {
                visited[s] = true;
                on_stack[s] = true;
                stack.push((s, 0));
            }
        }
    }
    back
}

/// A topological order of the CFG without its back edges; among the
/// blocks whose forward predecessors are all placed, the one first in the
/// current order goes next.
fn forward_order(f: &MFunc) -> Vec<BlockId> {
    let n = f.blocks.len();
    let back = back_edges(f);
    let mut waiting: SecondaryMap<BlockId, usize> = SecondaryMap::with_capacity(n);
    for (b, blk) in f.blocks.iter() {
        for (k, &s) in blk.succs.iter().enumerate() {
            if !back[b][k] {
                waiting[s] += 1;
            }
        }
    }
    let mut ready: BinaryHeap<Reverse<BlockId>> = f
        .blocks
        .keys()
        .filter(|&b| waiting[b] == 0)
        .map(Reverse)
        .collect();
    let mut order = Vec::with_capacity(n);
    while let Some(Reverse(b)) = ready.pop() {
        order.push(b);
        for (k, &s) in f.blocks[b].succs.iter().enumerate() {
            if !back[b][k] {
                waiting[s] -= 1;
                if waiting[s] == 0 {
                    ready.push(Reverse(s));
                }
            }
        }
    }
    debug_assert_eq!(order.len(), n, "the CFG without back edges is acyclic");
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Instr, Op, OpBra, Target};

    /// A function with `n` empty blocks and the given edges (no
    /// arguments); each block ends in a branch to its first successor or
    /// EXIT.
    fn cfg(n: usize, edges: &[(usize, usize)]) -> MFunc {
        let mut f = MFunc::default();
        for _ in 0..n {
            f.new_block();
        }
        for &(a, b) in edges {
            f.add_edge(BlockId::new(a), BlockId::new(b), Vec::new());
        }
        for blk in f.blocks.values_mut() {
            blk.instrs.push(match blk.succs.first() {
                Some(&s) => Instr::new(Op::Bra(OpBra { target: s.target() })),
                None => Instr::new(Op::Exit),
            });
        }
        f
    }

    fn indices(blocks: &[BlockId]) -> Vec<usize> {
        blocks.iter().map(|b| b.index()).collect()
    }

    fn every_block_after_a_predecessor(f: &MFunc) -> bool {
        f.blocks
            .iter()
            .skip(1)
            .all(|(b, blk)| blk.preds.iter().any(|&p| p < b))
    }

    #[test]
    fn an_order_that_is_already_topological_is_kept() {
        // entry -> header <-> body, header -> exit
        let mut f = cfg(4, &[(0, 1), (1, 2), (2, 1), (1, 3)]);
        assert_eq!(indices(&forward_order(&f)), vec![0, 1, 2, 3]);
        order_blocks(&mut f);
        assert_eq!(indices(&f.blocks[BlockId::new(2)].succs), vec![1]);
    }

    #[test]
    fn a_split_back_edge_in_front_of_its_header_moves_behind_its_latch() {
        // The layout of phi_heavy_loop.comp after edge splitting: block 1
        // splits the back edge 4 -> 2 and sits in front of the header.
        let edges = [(0, 2), (1, 2), (2, 3), (3, 5), (3, 4), (4, 1), (4, 6)];
        let mut f = cfg(8, &[edges.as_slice(), &[(5, 7), (6, 7)]].concat());
        assert!(!every_block_after_a_predecessor(&f));
        assert_eq!(indices(&forward_order(&f)), vec![0, 2, 3, 4, 1, 5, 6, 7]);
        order_blocks(&mut f);
        assert!(every_block_after_a_predecessor(&f));
        // Old block 1 is now block 4, branching back to the header (old 2,
        // now 1), and the latch (old 4, now 3) branches to it.
        assert_eq!(indices(&f.blocks[BlockId::new(4)].succs), vec![1]);
        assert_eq!(
            f.blocks[BlockId::new(4)].instrs[0].op,
            Op::Bra(OpBra {
                target: Target::Block(1)
            })
        );
        assert_eq!(indices(&f.blocks[BlockId::new(3)].succs), vec![4, 6]);
    }

    #[test]
    fn unreachable_blocks_and_their_cycles_are_placed() {
        let f = cfg(5, &[(0, 4), (2, 3), (3, 2), (1, 2)]);
        let mut order = indices(&forward_order(&f));
        order.sort_unstable();
        assert_eq!(order, vec![0, 1, 2, 3, 4]);
    }
}
