//! Blocks no path from the entry reaches (a loop's continue block after an
//! inlined early return, a region header the wide-workgroup selection
//! replaced, the arms of a branch whose condition folded to a constant)
//! may be empty, pass values never defined or take parameters no edge
//! passes; regalloc2 refuses all three (a parameter nothing defines has no
//! register class). Each becomes a lone EXIT with no parameters and no
//! successors.

use crate::isa::{Instr, Op};
use crate::mir::{BlockId, MFunc};
use cranelift_entity::SecondaryMap;

pub fn cut_unreachable(f: &mut MFunc) {
    let mut seen: SecondaryMap<BlockId, bool> = SecondaryMap::new();
    seen.resize(f.blocks.len());
    let mut stack = vec![BlockId::ENTRY];
    while let Some(b) = stack.pop() {
        if std::mem::replace(&mut seen[b], true) {
            continue;
        }
        stack.extend(f.blocks[b].succs.iter().copied());
    }
    for (b, _) in seen.iter().filter(|(_, reached)| !**reached) {
        for s in std::mem::take(&mut f.blocks[b].succs) {
            f.blocks[s].preds.retain(|&p| p != b);
        }
        let block = &mut f.blocks[b];
        block.succ_args.clear();
        block.preds.clear();
        block.params.clear();
        block.instrs = vec![Instr::new(Op::Exit)];
    }
}
