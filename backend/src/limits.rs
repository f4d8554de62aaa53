//! The limits an H100's driver reports for task and mesh shaders
//! (docs/HARDWARE.md, "Limits the H100's driver reports";
//! VK_EXT_mesh_shader properties), checked at compile
//! time so that a shader the hardware could not run is refused with the
//! execution mode or declaration and the value that break it.

use crate::binary::MeshState;
use crate::error::BackendError;
use crate::from_ir::places::comp_count;
use crate::isbe_layout::AttrLayout;
use spvsass_frontend::ir::{Shader, Stage, StorageClass};

pub const MAX_INVOCATIONS: u32 = 128;
pub const MAX_OUTPUT_VERTICES: u32 = 256;
pub const MAX_OUTPUT_PRIMITIVES: u32 = 256;
pub const MAX_OUTPUT_COMPONENTS: u32 = 128;
/// The generic attributes of the SPH map: 128 components, 4 per location.
pub const MAX_LOCATION: u32 = MAX_OUTPUT_COMPONENTS / 4 - 1;

/// A user output's Location must fit the attribute map.
pub fn max_location(loc: u32, spirv_id: u32) -> Result<(), BackendError> {
    limit(
        format!("the Location of output %{spirv_id}"),
        loc,
        MAX_LOCATION,
        "maxMeshOutputComponents: 128 components, locations 0..31",
    )
}
pub const MAX_OUTPUT_MEMORY: u32 = 32768;
/// Shared memory of a compute workgroup (maxComputeSharedMemorySize on
/// NVIDIA's Vulkan drivers: 48 KiB).
pub const MAX_COMPUTE_SHARED_BYTES: u32 = 49152;
/// Local memory per invocation: 512 KiB on every architecture since
/// Fermi (CUDA C++ Programming Guide, "Technical Specifications per
/// Compute Capability": maximum amount of local memory per thread).
pub const MAX_LOCAL_BYTES: u32 = 512 * 1024;
/// Workgroup counts of a compute dispatch (maxComputeWorkGroupCount on
/// NVIDIA's Vulkan drivers).
pub const MAX_COMPUTE_GROUPS: [u32; 3] = [(1 << 31) - 1, 65535, 65535];
/// Workgroup counts of a task or mesh draw, per side and in all
/// (maxTaskWorkGroupCount / maxMeshWorkGroupCount and their
/// TotalCount; docs/HARDWARE.md, "Limits the H100's driver reports").
pub const MAX_DRAW_GROUPS: [u32; 3] = [1 << 22, 65535, 65535];
pub const MAX_DRAW_GROUPS_TOTAL: u32 = 1 << 22;
/// General-purpose registers per thread: R0..R254 (R255 is RZ).
pub const MAX_GPRS: u32 = 255;
/// Clip and cull distance words of a vertex (0x2c0..0x2e0): 8, shared
/// by maxClipDistances and maxCombinedClipAndCullDistances.
pub const MAX_CLIP_CULL_DISTANCES: u32 = 8;
pub const MAX_PAYLOAD_BYTES: u32 = 16384;
pub const MAX_TASK_SHARED_BYTES: u32 = 32768;
pub const MAX_MESH_SHARED_BYTES: u32 = 28672;

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
pub fn check_shader(sh: &Shader) -> Result<(), BackendError> {
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
            class_bytes(sh, StorageClass::Workgroup),
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
pub fn check_outputs(m: &MeshState) -> Result<(), BackendError> {
    let vertices = AttrLayout::new(0, m.vertex_attrs.clone(), m.max_vertices);
    let primitives = AttrLayout::new(0, m.primitive_attrs.clone(), m.max_primitives);
    limit(
        "mesh output memory: bytes",
        vertices.size() + primitives.size(),
        MAX_OUTPUT_MEMORY,
        "maxMeshOutputMemorySize",
    )
}

/// The views a multiview render pass may have with mesh shaders: the
/// highest set bit of its view mask must be below this
/// (maxMeshMultiviewViewCount: 4 on the H100, docs/HARDWARE.md).
pub const MAX_MESH_MULTIVIEW_VIEWS: u32 = 4;
