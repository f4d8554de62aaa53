//! The compile-time checks of a shader against the limits an H100's
//! driver reports (the constants live in `spvsass_isa::limits`), so that a
//! shader the hardware could not run is refused with the execution mode or
//! declaration and the value that break it.

pub use spvsass_isa::limits::*;

use crate::binary::MeshState;
use crate::error::BackendError;
use crate::from_ir::places::comp_count;
use crate::isbe_layout::AttrLayout;
use spvsass_frontend::ir::{Shader, Stage, StorageClass};

/// A user output's Location must fit the attribute map.
pub(crate) fn max_location(loc: u32, spirv_id: u32) -> Result<(), BackendError> {
    limit(
        format!("the Location of output %{spirv_id}"),
        loc,
        MAX_LOCATION,
        "maxMeshOutputComponents: 128 components, locations 0..31",
    )
}

fn limit(
    what: impl Into<String>,
    value: u32,
    limit: u32,
    property: &'static str,
) -> Result<(), BackendError> {
    if value > limit {
        return Err(BackendError::Limit {
            what: what.into(),
            value,
            limit,
            property,
        });
    }
    Ok(())
}

/// Bytes of the variables of one storage class (32-bit components, the
/// project's packing of payload and shared memory).
fn class_bytes(sh: &Shader, class: StorageClass) -> u32 {
    sh.globals
        .values()
        .filter(|g| g.class == class)
        .filter_map(|g| comp_count(sh, g.ty))
        .map(|n| 4 * n)
        .sum()
}

/// The limits known before instruction selection: workgroup size, output
/// counts, payload and shared memory sizes.
pub(crate) fn check_shader(sh: &Shader) -> Result<(), BackendError> {
    let [x, y, z] = sh.workgroup_size;
    limit(
        format!("OpExecutionMode LocalSize {x} {y} {z}: invocations"),
        sh.invocations(),
        MAX_INVOCATIONS,
        "maxTaskWorkGroupInvocations / maxMeshWorkGroupInvocations",
    )?;
    if let Some(m) = sh.mesh {
        limit(
            "OpExecutionMode OutputVertices",
            m.max_vertices,
            MAX_OUTPUT_VERTICES,
            "maxMeshOutputVertices",
        )?;
        limit(
            "OpExecutionMode OutputPrimitivesEXT",
            m.max_primitives,
            MAX_OUTPUT_PRIMITIVES,
            "maxMeshOutputPrimitives",
        )?;
    }
    limit(
        "the TaskPayloadWorkgroupEXT variable: bytes",
        class_bytes(sh, StorageClass::TaskPayload),
        MAX_PAYLOAD_BYTES,
        "maxTaskPayloadSize",
    )?;
    let (shared_limit, property) = match sh.stage {
        Stage::Task => (MAX_TASK_SHARED_BYTES, "maxTaskSharedMemorySize"),
        _ => (MAX_MESH_SHARED_BYTES, "maxMeshSharedMemorySize"),
    };
    if sh.stage != Stage::Compute {
        limit(
            "Workgroup variables: bytes",
            // As laid out in the ISBE (aliased explicit blocks count once).
            crate::from_ir::shared::SharedLayout::new(sh, 0).bytes,
            shared_limit,
            property,
        )?;
    }
    Ok(())
}

/// The limit on what a mesh shader writes: output memory (the SKEW
/// layouts, which hold whole blocks of 32 elements: the output granularity
/// 32 the H100 reports, docs/HARDWARE.md). The 128 output components are the 32 locations of the
/// attribute map, checked where a Location becomes an address
/// (`max_location`).
pub(crate) fn check_outputs(m: &MeshState) -> Result<(), BackendError> {
    let vertices = AttrLayout::new(0, m.vertex_attrs.clone(), m.max_vertices);
    let primitives = AttrLayout::new(0, m.primitive_attrs.clone(), m.max_primitives);
    limit(
        "mesh output memory: bytes",
        vertices.size() + primitives.size(),
        MAX_OUTPUT_MEMORY,
        "maxMeshOutputMemorySize",
    )
}
