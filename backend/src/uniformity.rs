//! Which IR values are the same in every invocation of a workgroup
//! (uniform), for the warp-aggregated atomics (from_ir/atomics.rs).
//!
//! A small forward analysis, conservative by construction: a value is
//! uniform when it is
//! - a constant (or undef),
//! - a load of a built-in that is one per workgroup: WorkgroupId,
//!   NumWorkgroups, WorkgroupSize, SubgroupSize,
//! - a pointer (variable address, access chain) whose indices are uniform,
//! - the result of a pure operation (arithmetic, comparison, conversion,
//!   select, composite access, math) whose operands are all uniform.
//!
//! Everything else is not: loads of memory (another invocation may have
//! stored a different value, and the invocation id built-ins differ by
//! lane), atomics, subgroup ops, and block parameters (a value merged after
//! a divergent branch differs per lane). The blocks are visited in layout
//! order, which puts every definition before its uses outside block
//! parameters, so one pass suffices. Uniform here means uniform among the
//! invocations that execute the instruction together, which is what the
//! atomics' fast path needs.

use spvsass_frontend::ir::{BuiltIn, Op, Shader, Value};
use std::collections::HashSet;

/// The uniform values of `sh`.
pub fn uniform_values(sh: &Shader) -> HashSet<Value> {
    let mut uniform = HashSet::new();
    for &b in &sh.layout {
        for &i in &sh.blocks[b].insts {
            let inst = &sh.insts[i];
            let Some(result) = inst.result else { continue };
            if is_uniform(sh, &inst.op, &uniform) {
                uniform.insert(result);
            }
        }
    }
    uniform
}

fn is_uniform(sh: &Shader, op: &Op, uniform: &HashSet<Value>) -> bool {
    let all_args = || {
        let mut all = true;
        op.for_each_arg(|v| all &= uniform.contains(&v));
        all
    };
    match op {
        Op::Const(_) | Op::Undef | Op::VarAddr(_) => true,
        Op::Load { ptr } => {
            let Ok(place) = crate::from_ir::places::resolve(sh, *ptr, None) else {
                return false;
            };
            matches!(
                sh.globals[place.var].builtin,
                Some(
                    BuiltIn::WorkgroupId
                        | BuiltIn::NumWorkgroups
                        | BuiltIn::WorkgroupSize
                        | BuiltIn::SubgroupSize
                )
            ) && all_args()
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
        | Op::Math(..) => all_args(),
        _ => false,
    }
}
