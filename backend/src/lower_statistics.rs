//! Pipeline statistics counted by the shaders themselves
//! (docs/HARDWARE.md, "Workgroups": the hardware does not count task and
//! mesh invocations), lowered to intrinsics before instruction selection.
//!
//! Input: the shader (its stage, workgroup size and SetMeshOutputsEXT
//! instructions). Output: `Intrinsic::AddToQuery`s, which add to the
//! 64-bit counters of the query block at the root table's query address
//! (`abi::query`; Vulkan's query results are 64-bit, so a long draw cannot
//! wrap them):
//! - in the prologue of a task or mesh shader, the workgroup's API
//!   invocation count (the workgroup size, whatever lanes it runs on);
//! - before each SetMeshOutputsEXT, the primitive count it passes, culled
//!   primitives included, as the H100 counts MESH_PRIMITIVES_GENERATED.
//!
//! In-shader culling (`from_ir/mesh_cull.rs`) keeps that count: the
//! intrinsic goes with the SetMeshOutputsEXT of the part that runs before
//! the culling epilogue, and the epilogue rewrites only the MAP primitive
//! count, so statistics stay pre-cull.

use crate::abi::query;
use crate::intrinsics::{Intrinsic, Intrinsics, Operand};
use spvsass_frontend::ir::{Op, Shader, Stage};

/// Adds the statistics intrinsics of `sh` to `out`.
pub(crate) fn lower_statistics(sh: &Shader, out: &mut Intrinsics) {
    let invocations = match sh.stage {
        Stage::Task => Some(query::TASK_INVOCATIONS),
        Stage::Mesh => Some(query::MESH_INVOCATIONS),
        Stage::Compute => None,
    };
    if let Some(offset) = invocations {
        out.prologue.push(Intrinsic::AddToQuery {
            offset,
            value: Operand::Const(sh.invocations()),
        });
    }
    for (id, inst) in sh.insts.iter() {
        if let Op::SetMeshOutputs {
            primitive_count, ..
        } = inst.op
        {
            out.before[id].push(Intrinsic::AddToQuery {
                offset: query::MESH_PRIMITIVES,
                value: Operand::Value(primitive_count),
            });
        }
    }
}
