//! Dominators of the reachable blocks (Cooper, Harvey and Kennedy, "A
//! Simple, Fast Dominance Algorithm", 2001) and the check that every
//! definition dominates its uses.

use super::invalid;
use crate::FrontendError;
use crate::ir::{Block, Shader, ValueDef};
use cranelift_entity::{EntitySet, SecondaryMap};

pub(super) struct Dominators {
    /// Reverse postorder number of each reachable block.
    rpo: SecondaryMap<Block, Option<usize>>,
    /// Immediate dominator by RPO number (the entry's is itself).
    idom: Vec<usize>,
    order: Vec<Block>,
}

impl Dominators {
    pub(super) fn compute(shader: &Shader) -> Self {
        let order = reverse_postorder(shader);
        let mut rpo = SecondaryMap::with_capacity(shader.blocks.len());
        for (i, &b) in order.iter().enumerate() {
            rpo[b] = Some(i);
        }
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); order.len()];
        for (i, &b) in order.iter().enumerate() {
            for s in shader.successors(b) {
                if let Some(j) = rpo[s] {
                    preds[j].push(i);
                }
            }
        }
        const NONE: usize = usize::MAX;
        let mut idom = vec![NONE; order.len()];
        if !order.is_empty() {
            idom[0] = 0;
        }
        let mut changed = true;
        while changed {
            changed = false;
            for b in 1..order.len() {
                let mut new = NONE;
                for &p in &preds[b] {
                    if idom[p] == NONE {
                        continue;
                    }
                    new = if new == NONE {
                        p
                    } else {
                        intersect(&idom, p, new)
                    };
                }
                if new != idom[b] {
                    idom[b] = new;
                    changed = true;
                }
            }
        }
        Dominators { rpo, idom, order }
    }

    /// Whether `a` dominates `b` (both reachable; a block dominates itself).
    pub(super) fn dominates(&self, a: Block, b: Block) -> bool {
        let (Some(a), Some(b)) = (self.rpo[a], self.rpo[b]) else {
            return false;
        };
        let mut b = b;
        loop {
            if a == b {
                return true;
            }
            if b == 0 || a > b {
                return false;
            }
            b = self.idom[b];
        }
    }

    /// The reachable blocks in reverse postorder.
    pub(super) fn order(&self) -> &[Block] {
        &self.order
    }
}

fn intersect(idom: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while a > b {
            a = idom[a];
        }
        while b > a {
            b = idom[b];
        }
    }
    a
}

fn reverse_postorder(shader: &Shader) -> Vec<Block> {
    let Some(&entry) = shader.layout.first() else {
        return Vec::new();
    };
    let mut post = Vec::new();
    let mut seen = EntitySet::with_capacity(shader.blocks.len());
    seen.insert(entry);
    // (block, its successors, the next one to visit)
    let mut stack = vec![(entry, shader.successors(entry), 0)];
    while let Some((b, succs, next)) = stack.last_mut() {
        if let Some(&s) = succs.get(*next) {
            *next += 1;
            if seen.insert(s) {
                let succs = shader.successors(s);
                stack.push((s, succs, 0));
            }
        } else {
            post.push(*b);
            stack.pop();
        }
    }
    post.reverse();
    post
}

/// Every use in a reachable block is dominated by its definition:
/// earlier in the same block, or in a block that dominates the user's.
pub(super) fn check_uses(shader: &Shader, doms: &Dominators) -> Result<(), FrontendError> {
    let mut position = SecondaryMap::with_capacity(shader.insts.len());
    for &b in doms.order() {
        for (i, &inst) in shader.blocks[b].insts.iter().enumerate() {
            position[inst] = Some((b, i));
        }
    }
    for &b in doms.order() {
        for (i, &inst) in shader.blocks[b].insts.iter().enumerate() {
            let mut bad = None;
            shader.insts[inst].op.for_each_arg(|v| {
                if bad.is_some() {
                    return;
                }
                let ok = match shader.values[v].def {
                    ValueDef::Param(pb, _) => doms.dominates(pb, b),
                    ValueDef::Inst(def) => match position[def] {
                        Some((db, di)) if db == b => di < i,
                        Some((db, _)) => doms.dominates(db, b),
                        None => false,
                    },
                };
                if !ok {
                    bad = Some(v);
                }
            });
            if let Some(v) = bad {
                return Err(invalid(
                    &b.to_string(),
                    Some(inst),
                    &format!("the definition of {v} does not dominate this use"),
                ));
            }
        }
    }
    let entry = shader.entry_block();
    for (gv, data) in &shader.globals {
        if let Some(init) = data.initializer {
            let in_entry = match shader.values[init].def {
                ValueDef::Inst(def) => position[def].is_some_and(|(b, _)| b == entry),
                ValueDef::Param(..) => false,
            };
            if !in_entry {
                return Err(invalid(
                    &gv.to_string(),
                    None,
                    &format!("the initializer {init} is not defined in the entry block"),
                ));
            }
        }
    }
    Ok(())
}
