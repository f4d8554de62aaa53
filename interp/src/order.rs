//! The order in which a subgroup's invocations are scheduled: a reverse
//! postorder of the blocks in which every construct's body comes before its
//! merge block and a loop's continue target after its body. Running the
//! invocations at the earliest position first keeps a subgroup together
//! through structured control flow: invocations that leave a selection or
//! a loop wait at its merge for the others, as SPIR-V's maximal
//! reconvergence describes, so subgroup operations see the invocations
//! that reach them together.

use cranelift_entity::SecondaryMap;
use spvsass_frontend::ir::{Block, Merge, Shader};

/// Each block's rank: lower runs first.
pub fn block_ranks(shader: &Shader) -> SecondaryMap<Block, u32> {
    let mut post = Vec::new();
    let mut seen: SecondaryMap<Block, bool> = SecondaryMap::new();
    // Iterative DFS: (block, successors still to visit).
    let entry = shader.entry_block();
    let mut stack: Vec<(Block, Vec<Block>)> = vec![(entry, visit_order(shader, entry))];
    seen[entry] = true;
    while let Some((b, next)) = stack.last_mut() {
        if let Some(s) = next.pop() {
            if !seen[s] {
                seen[s] = true;
                let succ = visit_order(shader, s);
                stack.push((s, succ));
            }
        } else {
            post.push(*b);
            stack.pop();
        }
    }
    let mut ranks = SecondaryMap::with_default(u32::MAX);
    for (i, b) in post.iter().rev().enumerate() {
        ranks[*b] = i as u32;
    }
    ranks
}

/// The successors of `b` in the order to pop them (last first): a header
/// visits its merge block first, then its continue target, then the
/// branch targets, so those finish first and rank last.
fn visit_order(shader: &Shader, b: Block) -> Vec<Block> {
    let mut v: Vec<Block> = shader.successors(b);
    v.reverse();
    match shader.blocks[b].merge {
        Some(Merge::Selection { merge }) => v.push(merge),
        Some(Merge::Loop {
            merge,
            continue_target,
        }) => {
            v.push(continue_target);
            v.push(merge);
        }
        None => {}
    }
    v
}
