//! Queries on the IR's structured control flow (the merge blocks SPIR-V
//! declares on selection and loop headers), shared by the convergence
//! barriers (from_ir/control.rs) and the divergence analysis
//! (uniformity.rs).

use cranelift_entity::{EntitySet, SecondaryMap};
use spvsass_frontend::ir::{Block, Merge, Shader};

/// The predecessors of every block, in layout order.
pub fn predecessors(sh: &Shader) -> SecondaryMap<Block, Vec<Block>> {
    let mut preds: SecondaryMap<Block, Vec<Block>> = SecondaryMap::with_capacity(sh.blocks.len());
    for &b in &sh.layout {
        for s in sh.successors(b) {
            preds[s].push(b);
        }
    }
    preds
}

/// The merge block and continue target of every loop, each with its
/// loop's header: the blocks a `break` or `continue` branches to.
pub fn loop_exits(sh: &Shader) -> SecondaryMap<Block, Option<Block>> {
    let mut exits = SecondaryMap::with_capacity(sh.blocks.len());
    for &b in &sh.layout {
        if let Some(Merge::Loop {
            merge,
            continue_target,
        }) = sh.blocks[b].merge
        {
            exits[merge] = Some(b);
            exits[continue_target] = Some(b);
        }
    }
    exits
}

/// The blocks reachable from `header` before `merge`, stopping at the
/// exits of loops that enclose the header (a `break` or `continue` out of
/// the construct).
pub fn reachable_before(
    sh: &Shader,
    exits: &SecondaryMap<Block, Option<Block>>,
    header: Block,
    merge: Block,
) -> EntitySet<Block> {
    let mut inside = EntitySet::with_capacity(sh.blocks.len());
    let mut stack = vec![header];
    while let Some(b) = stack.pop() {
        // A loop exit whose loop header is not inside belongs to an
        // enclosing loop: reaching it is a break or continue.
        let enclosing_exit = b != header && exits[b].is_some_and(|h| !inside.contains(h));
        if b != merge && !enclosing_exit && inside.insert(b) {
            stack.extend(sh.successors(b));
        }
    }
    inside
}

/// Whether the construct headed by `header` has an edge that leaves it
/// other than to `merge` (`escape_targets`).
pub fn escapes(
    sh: &Shader,
    preds: &SecondaryMap<Block, Vec<Block>>,
    exits: &SecondaryMap<Block, Option<Block>>,
    header: Block,
    merge: Block,
) -> bool {
    !escape_targets(sh, preds, exits, header, merge).is_empty()
}

/// The blocks outside the selection or loop construct headed by `header`
/// that an edge from inside it reaches, `merge` aside: the targets of a
/// `break`, `continue` or inlined early return out of it. The construct is
/// the blocks reachable from the header before the merge
/// (`reachable_before`) that the header dominates (found by dropping,
/// until none is left, every block with a predecessor outside; the order
/// of removal does not matter: what stays is the largest such set).
pub fn escape_targets(
    sh: &Shader,
    preds: &SecondaryMap<Block, Vec<Block>>,
    exits: &SecondaryMap<Block, Option<Block>>,
    header: Block,
    merge: Block,
) -> Vec<Block> {
    let mut inside = reachable_before(sh, exits, header, merge);
    loop {
        let outside_pred = inside
            .iter()
            .find(|&b| b != header && preds[b].iter().any(|&p| !inside.contains(p)));
        match outside_pred {
            Some(b) => {
                inside.remove(b);
            }
            None => break,
        }
    }
    let mut targets: Vec<Block> = inside
        .iter()
        .flat_map(|b| sh.successors(b))
        .filter(|&s| s != merge && !inside.contains(s))
        .collect();
    targets.sort();
    targets.dedup();
    targets
}

/// A loop: its header, merge block and body (the blocks reachable from
/// the header before the merge, nested loops included).
pub struct Loop {
    pub header: Block,
    pub merge: Block,
    pub body: EntitySet<Block>,
    /// How many blocks `body` holds.
    pub size: usize,
}

/// Every loop, in the layout order of their headers.
pub fn loops(sh: &Shader) -> Vec<Loop> {
    let mut out = Vec::new();
    for &header in &sh.layout {
        if let Some(Merge::Loop { merge, .. }) = sh.blocks[header].merge {
            let mut body = EntitySet::with_capacity(sh.blocks.len());
            let mut size = 0;
            let mut stack = vec![header];
            while let Some(b) = stack.pop() {
                if b != merge && body.insert(b) {
                    size += 1;
                    stack.extend(sh.successors(b));
                }
            }
            out.push(Loop {
                header,
                merge,
                body,
                size,
            });
        }
    }
    out
}
