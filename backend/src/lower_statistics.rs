//! Pipeline statistics counted by the shaders themselves
//! (docs/HARDWARE.md, "Workgroups": the hardware does not count task and
//! mesh invocations), lowered to intrinsics before instruction selection.
//!
//! Input: the shader (its stage, workgroup size and SetMeshOutputsEXT
//! instructions). Output: `Intrinsic::AddToQuery`s, which add to the
//! 64-bit counters of the query block at the root table's query address
//! (`abi::query`; Vulkan's query results are 64-bit, so a long draw cannot
//! wrap them):
//! - once per workgroup, the workgroup's API invocation count (the
//!   workgroup size, whatever lanes it runs on): in the prologue of a
//!   task shader, and of a mesh shader whose SetMeshOutputsEXT may not
//!   run exactly once;
//! - before each SetMeshOutputsEXT, the primitive count it passes, culled
//!   primitives included, as the H100 counts MESH_PRIMITIVES_GENERATED.
//!
//! Selection guards each site's intrinsics with one test of the query
//! address and a branch over them (docs/ABI.md, "Pipeline statistics"),
//! so a site costs two issued instructions when no query is active. A
//! mesh shader whose one SetMeshOutputsEXT is in its entry block (it runs
//! exactly once per workgroup) counts its invocations there too: one site,
//! two instructions in all.
//!
//! In-shader culling (`from_ir/mesh_cull.rs`) keeps that count: the
//! intrinsic goes with the SetMeshOutputsEXT of the part that runs before
//! the culling epilogue, and the epilogue rewrites only the MAP primitive
//! count, so statistics stay pre-cull.

use crate::abi::query;
use crate::intrinsics::{Intrinsic, Intrinsics, Operand};
use spvsass_frontend::ir::{Inst, Op, Shader, Stage};

/// Adds the statistics intrinsics of `sh` to `out`.
pub(crate) fn lower_statistics(sh: &Shader, out: &mut Intrinsics) {
    let set_outputs: Vec<(Inst, _)> = sh
        .insts
        .iter()
        .filter_map(|(id, inst)| match inst.op {
            Op::SetMeshOutputs {
                primitive_count, ..
            } => Some((id, primitive_count)),
            _ => None,
        })
        .collect();
    let invocations = Intrinsic::AddToQuery {
        offset: match sh.stage {
            Stage::Task => query::TASK_INVOCATIONS,
            Stage::Mesh => query::MESH_INVOCATIONS,
            Stage::Compute => return,
        },
        value: Operand::Const(sh.invocations()),
    };
    match (sh.stage, once_per_workgroup(sh, &set_outputs)) {
        (Stage::Mesh, Some(id)) => out.before[id].push(invocations),
        _ => out.prologue.push(invocations),
    }
    for (id, primitive_count) in set_outputs {
        out.before[id].push(Intrinsic::AddToQuery {
            offset: query::MESH_PRIMITIVES,
            value: Operand::Value(primitive_count),
        });
    }
}

/// The one SetMeshOutputsEXT of `sh`, where it is in the entry block: it
/// then runs exactly once per workgroup (the block has no way out before
/// its terminator, and the instruction may run at most once).
fn once_per_workgroup<T>(sh: &Shader, set_outputs: &[(Inst, T)]) -> Option<Inst> {
    match set_outputs {
        [(id, _)] => sh.blocks[sh.entry_block()]
            .insts
            .contains(id)
            .then_some(*id),
        _ => None,
    }
}
