//! Divergence analysis: which IR values are the same in every invocation
//! that executes them together (uniform), which branches send all their
//! invocations the same way, and which loops all invocations leave at the
//! same iteration. Instruction selection uses it to drop the convergence
//! barriers (BSSY/BSYNC) of uniform branches and loops
//! (from_ir/control.rs) and for the warp-aggregated atomics
//! (from_ir/atomics.rs).
//!
//! Everything starts uniform and divergence spreads until nothing changes
//! (the sets only grow, so this ends). Divergence starts at
//! - loads of memory other than uniform buffers and push constants
//!   (another invocation may have stored a different value) and of the
//!   built-ins that differ per invocation (ids, masks),
//! - atomics and subgroup operations,
//!
//! and spreads through
//! - data: the result of an operation with a divergent operand, a block
//!   parameter with a divergent incoming argument;
//! - control: a branch (or switch) on a divergent value is divergent. The
//!   parameters of the blocks where its paths meet again (the blocks of its
//!   selection construct and its merge block) are divergent, because which
//!   edge an invocation came along differs. A divergent branch that leaves
//!   a loop, or a selection that a branch inside leaves by `break` or
//!   `continue`, makes the innermost loop around it divergent: invocations
//!   leave it at different iterations, so the parameters of every block of
//!   the loop (its counters among them) and of its merge block are
//!   divergent.
//!
//! Uniform built-ins are those one per workgroup (WorkgroupId,
//! NumWorkgroups, WorkgroupSize, SubgroupSize, NumSubgroups, ViewIndex,
//! DrawIndex); in a mesh shader the task payload is uniform too (the task
//! workgroup wrote it before the launch).

use crate::from_ir::places;
use crate::structured::{self, Loop};
use cranelift_entity::{EntitySet, SecondaryMap};
use spvsass_frontend::ir::{Block, BuiltIn, Merge, Op, Shader, Stage, StorageClass, Value};

/// The result of the analysis.
#[derive(Clone, Debug, Default)]
pub struct Divergence {
    divergent: EntitySet<Value>,
    /// Blocks whose terminator is a branch or switch on a divergent value.
    branches: EntitySet<Block>,
    /// Headers of loops that invocations may leave at different iterations.
    loops: EntitySet<Block>,
}

/// Adds `items` to `set`; whether any was new.
fn insert_all(set: &mut EntitySet<Block>, items: impl IntoIterator<Item = Block>) -> bool {
    let mut new = false;
    for b in items {
        new |= set.insert(b);
    }
    new
}

impl Divergence {
    pub fn analyse(sh: &Shader) -> Divergence {
        Self::analyse_assuming(sh, &EntitySet::new())
    }

    /// The analysis where the branches ending the blocks of `voted` send
    /// every invocation the same way whatever their condition: a wide
    /// task/mesh workgroup evaluates them once for the whole workgroup
    /// (`crate::logical_subgroups::Plan::voted`).
    pub fn analyse_assuming(sh: &Shader, voted: &EntitySet<Block>) -> Divergence {
        let exits = structured::loop_exits(sh);
        let loops = structured::loops(sh);
        let incoming = incoming_args(sh);
        let preds = structured::predecessors(sh);
        let mut d = Divergence::default();
        // Blocks whose parameters are divergent whatever their arguments.
        let mut joins: EntitySet<Block> = EntitySet::with_capacity(sh.blocks.len());
        loop {
            // Whether a value, branch or join was added this round (the
            // sets only grow).
            let mut changed = false;
            for &b in &sh.layout {
                let data = &sh.blocks[b];
                for &p in &data.params {
                    if joins.contains(b) || incoming[p].iter().any(|&a| d.divergent.contains(a)) {
                        changed |= d.divergent.insert(p);
                    }
                }
                for &i in &data.insts {
                    let inst = &sh.insts[i];
                    if let Some(r) = inst.result
                        && !d.divergent.contains(r)
                        && !is_uniform(sh, &inst.op, &d.divergent)
                    {
                        changed |= d.divergent.insert(r);
                    }
                }
                let cond = match sh.terminator(b) {
                    Some(Op::Branch { cond, .. }) => *cond,
                    Some(Op::Switch { selector, .. }) => *selector,
                    _ => continue,
                };
                if !d.divergent.contains(cond) || voted.contains(b) || !d.branches.insert(b) {
                    continue;
                }
                changed = true;
                // Where paths from the branch may go outside its
                // selection construct (every successor when it has none).
                let targets = match sh.blocks[b].merge {
                    Some(Merge::Selection { merge }) => {
                        let inside = structured::reachable_before(sh, &exits, b, merge);
                        changed |= insert_all(&mut joins, inside.iter());
                        changed |= joins.insert(merge);
                        structured::escape_targets(sh, &preds, &exits, b, merge)
                    }
                    _ => sh.successors(b),
                };
                if !targets.is_empty() {
                    let mut around: Vec<&Loop> =
                        loops.iter().filter(|l| l.body.contains(b)).collect();
                    around.sort_by_key(|l| l.size);
                    if around.is_empty() {
                        // Not in a loop (a conditional branch without a
                        // merge): every block after it is a join.
                        changed |= insert_all(&mut joins, reachable(sh, b).iter());
                    }
                    // The innermost loop, and every loop further out that
                    // a target leaves (a break out of two loops, an
                    // inlined early return out of a loop in the one-trip
                    // loop around the callee).
                    for (n, l) in around.into_iter().enumerate() {
                        if n == 0 || targets.iter().any(|&t| !l.body.contains(t)) {
                            d.loops.insert(l.header);
                            changed |= insert_all(&mut joins, l.body.iter());
                            changed |= joins.insert(l.merge);
                        }
                    }
                }
            }
            if !changed {
                return d;
            }
        }
    }

    pub fn is_uniform(&self, v: Value) -> bool {
        !self.divergent.contains(v)
    }

    /// Whether the branch or switch ending `b` may send invocations
    /// different ways.
    pub fn divergent_branch(&self, b: Block) -> bool {
        self.branches.contains(b)
    }

    /// Whether invocations may leave the loop headed by `header` at
    /// different iterations.
    pub fn divergent_loop(&self, header: Block) -> bool {
        self.loops.contains(header)
    }
}

/// The incoming arguments of every block parameter.
fn incoming_args(sh: &Shader) -> SecondaryMap<Value, Vec<Value>> {
    let mut incoming: SecondaryMap<Value, Vec<Value>> =
        SecondaryMap::with_capacity(sh.values.len());
    for &b in &sh.layout {
        let Some(term) = sh.terminator(b) else {
            continue;
        };
        for call in term.block_calls() {
            for (&p, &a) in sh.blocks[call.block].params.iter().zip(&call.args) {
                incoming[p].push(a);
            }
        }
    }
    incoming
}

fn reachable(sh: &Shader, from: Block) -> EntitySet<Block> {
    let mut seen = EntitySet::with_capacity(sh.blocks.len());
    let mut stack = vec![from];
    while let Some(b) = stack.pop() {
        if seen.insert(b) {
            stack.extend(sh.successors(b));
        }
    }
    seen
}

fn uniform_builtin(b: BuiltIn) -> bool {
    matches!(
        b,
        BuiltIn::WorkgroupId
            | BuiltIn::NumWorkgroups
            | BuiltIn::WorkgroupSize
            | BuiltIn::SubgroupSize
            | BuiltIn::NumSubgroups
            | BuiltIn::ViewIndex
            | BuiltIn::DrawIndex
    )
}

/// Whether `op`'s result is uniform given the divergent values so far.
fn is_uniform(sh: &Shader, op: &Op, divergent: &EntitySet<Value>) -> bool {
    let all_args = || {
        let mut all = true;
        op.for_each_arg(|v| all &= !divergent.contains(v));
        all
    };
    match op {
        Op::Const(_) | Op::Undef | Op::VarAddr(_) => true,
        Op::Load { ptr } => {
            let Ok(place) = places::resolve(sh, *ptr, None) else {
                return false;
            };
            let var = &sh.globals[place.var];
            let read_only = match var.class {
                StorageClass::Uniform | StorageClass::PushConstant => true,
                StorageClass::TaskPayload => sh.stage == Stage::Mesh,
                StorageClass::Input => var.builtin.is_some_and(uniform_builtin),
                _ => false,
            };
            read_only && all_args()
        }
        Op::Unary(..)
        | Op::Binary(..)
        | Op::Cmp(..)
        | Op::Convert(..)
        | Op::Select { .. }
        | Op::CompositeConstruct(_)
        | Op::CompositeExtract { .. }
        | Op::CompositeInsert { .. }
        | Op::VectorShuffle { .. }
        | Op::AccessChain { .. }
        | Op::PtrAccessChain { .. }
        | Op::ExtractDynamic { .. }
        | Op::InsertDynamic { .. }
        | Op::CopyLogical(_)
        | Op::ArrayLength { .. }
        | Op::Math(..) => all_args(),
        _ => false,
    }
}
