//! The limits an H100's driver reports for task, mesh and compute shaders
//! (docs/HARDWARE.md, "Limits the H100's driver reports";
//! VK_EXT_mesh_shader properties) and the warp width. The compiler checks
//! shaders against them (the backend's `limits` module); the binary
//! container and the simulator check programs and launches.

/// Lanes of a warp.
pub const WARP_LANES: u32 = 32;
/// The largest compute workgroup (Vulkan's maxComputeWorkGroupInvocations
/// on NVIDIA; 32 warps).
pub const MAX_COMPUTE_INVOCATIONS: u32 = 1024;
pub const MAX_INVOCATIONS: u32 = 128;
pub const MAX_OUTPUT_VERTICES: u32 = 256;
pub const MAX_OUTPUT_PRIMITIVES: u32 = 256;
pub const MAX_OUTPUT_COMPONENTS: u32 = 128;
/// The generic attributes of the SPH map: 128 components, 4 per location.
pub const MAX_LOCATION: u32 = MAX_OUTPUT_COMPONENTS / 4 - 1;
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
/// The views a multiview render pass may have with mesh shaders: the
/// highest set bit of its view mask must be below this
/// (maxMeshMultiviewViewCount: 4 on the H100, docs/HARDWARE.md).
pub const MAX_MESH_MULTIVIEW_VIEWS: u32 = 4;
