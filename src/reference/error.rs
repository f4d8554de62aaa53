//! What can go wrong in a reference run: one variant per failure, each
//! naming the file, device, feature or Vulkan call concerned.

use ash::vk;
use std::path::PathBuf;

/// A run description whose parts do not fit together.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DescriptionError {
    #[error("no stage: give `compute`, or `mesh` (with an optional `task`)")]
    NoStage,
    #[error("`compute` cannot be combined with `task` or `mesh`")]
    ComputeWithMesh,
    #[error("a `task` stage needs a `mesh` stage")]
    TaskWithoutMesh,
    #[error("a mesh run needs an `image` size")]
    MissingImage,
    #[error("image size {0}x{1} is empty")]
    EmptyImage(u32, u32),
    #[error("a compute run has no image")]
    ImageForCompute,
    #[error("a compute run has no views (view_mask must be 0)")]
    ViewMaskForCompute,
    #[error("workgroup counts {0:?} must all be at least 1")]
    ZeroGroups([u32; 3]),
    #[error("set {set} binding {binding} element {element} is given twice")]
    DuplicateBinding {
        set: u32,
        binding: u32,
        element: u32,
    },
    #[error(
        "set {set} binding {binding}: array element {element} is not given (descriptor arrays are bound whole)"
    )]
    MissingElement {
        set: u32,
        binding: u32,
        element: u32,
    },
    #[error("image at set {set} binding {binding}[{element}]: {problem}")]
    Image {
        set: u32,
        binding: u32,
        element: u32,
        problem: &'static str,
    },
    #[error("set {set} binding {binding} holds buffers of two kinds ({kinds})")]
    MixedKinds {
        set: u32,
        binding: u32,
        kinds: String,
    },
}

#[derive(Debug, thiserror::Error)]
pub enum ReferenceError {
    #[error("--reference cuda needs NVIDIA's driver: libcuda could not be opened")]
    NoCuda,
    #[error("CUDA {call} failed: {error}")]
    Cuda { call: &'static str, error: String },
    #[error(
        "the CUDA device has compute capability {major}.{minor}; spvsass writes cubins for \
         sm75, sm86, sm89 and sm90"
    )]
    CudaArch { major: i32, minor: i32 },
    #[error("--reference cuda runs compute descriptions only (a cubin holds a compute kernel)")]
    CudaMesh,
    #[error("{path}: cannot make a cubin: {error}")]
    CudaCompile { path: PathBuf, error: String },
    #[error("cannot bind the run's resources for CUDA: {0}")]
    CudaBind(String),
    #[error("{what}: CUDA cannot express {feature} (docs/CUBIN.md, \"Images under CUDA\")")]
    CudaUnsupported { what: String, feature: String },
    #[error(
        "CUDA gave texture object {got} where the handle packing needs {wanted} \
         (docs/CUBIN.md, \"Images under CUDA\")"
    )]
    CudaObjectIndex { wanted: u64, got: u64 },
    #[error("cannot read {path}: {source}")]
    ReadFile {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {path}: {source}")]
    WriteFile {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("run description {path}: {source}")]
    ParseDescription {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error("run description {path}: {problem}")]
    InvalidDescription {
        path: PathBuf,
        problem: DescriptionError,
    },
    #[error("result {path}: {source}")]
    ParseResult {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error("cannot encode the result as JSON: {0}")]
    EncodeResult(serde_json::Error),
    #[error("{path}: {bytes} bytes, but the result's image size needs {expected}")]
    ImageSize {
        path: PathBuf,
        bytes: usize,
        expected: usize,
    },
    #[error("{what}: {problem}")]
    ImageData { what: String, problem: String },
    #[error("{device}: format {format} is not supported for {usage}")]
    FormatUnsupported {
        device: String,
        format: &'static str,
        usage: &'static str,
    },
    #[error("{what}: {bytes} bytes is not a whole number of 32-bit words")]
    UnalignedData { what: String, bytes: usize },
    #[error("{what}: {bytes} bytes is too large")]
    TooLarge { what: String, bytes: u64 },
    #[error("{what}: {bytes} bytes or more, past the limit of {limit} (docs/RUNS.md)")]
    OverLimit {
        what: String,
        bytes: u64,
        limit: u64,
    },
    #[error(transparent)]
    Output(#[from] crate::output_files::OutputError),
    #[error("{what} is empty (Vulkan buffers need at least 4 bytes)")]
    EmptyBuffer { what: String },
    #[error("{what}: offset {offset} is not a multiple of the device's alignment {align}")]
    OffsetAlignment {
        what: String,
        offset: u64,
        align: u64,
    },
    #[error("{path}: not a SPIR-V module: {reason}")]
    InvalidSpirv { path: PathBuf, reason: String },
    #[error("{path}: no {model} entry point named `{entry}`")]
    EntryPointNotFound {
        path: PathBuf,
        model: &'static str,
        entry: String,
    },
    #[error(
        "{path}: the Location 0 output (id %{id}) is not a vec4 of 32-bit floats, \
         which the pass-through fragment shader needs"
    )]
    UnsupportedColourOutput { path: PathBuf, id: u32 },
    #[error(
        "{path}: the shader uses a {} buffer at set {set} binding {binding} (id %{id}), but {}",
        kind_name(*declared),
        match given {
            Some(k) => format!("the run binds a {} buffer there", kind_name(*k)),
            None => "the run binds none there".to_owned(),
        }
    )]
    BufferInterface {
        path: PathBuf,
        id: u32,
        set: u32,
        binding: u32,
        declared: super::description::BufferKind,
        given: Option<super::description::BufferKind>,
    },
    #[error(
        "{path}: the shader uses the image or sampler %{id} at set {set} binding {binding}, \
         but the run binds no image or sampler there"
    )]
    ImageInterface {
        path: PathBuf,
        id: u32,
        set: u32,
        binding: u32,
    },
    #[error("no Vulkan loader: {0} (install libvulkan1)")]
    NoLoader(#[from] ash::LoadingError),
    #[error("no Vulkan device: {0}")]
    NoDevice(String),
    #[error("no Vulkan device is usable: {0}")]
    NoUsableDevice(String),
    #[error("mesh shaders not supported by this driver ({device}: no VK_EXT_mesh_shader)")]
    MeshShadersUnsupported { device: String },
    #[error("{device} lacks required features: {}", features.join(", "))]
    MissingFeatures {
        device: String,
        features: Vec<&'static str>,
    },
    #[error(
        "{device}: the texel buffer view at offset {offset} of the {what} is not a multiple of minTexelBufferOffsetAlignment ({align})"
    )]
    TexelBufferOffset {
        device: String,
        what: String,
        offset: u64,
        align: u64,
    },
    #[error("{device}: {what} is {value}, above the device limit {limit}")]
    LimitExceeded {
        device: String,
        what: &'static str,
        value: u64,
        limit: u64,
    },
    #[error("{path}: vkCreateShaderModule failed: {result}")]
    ShaderModule { path: PathBuf, result: vk::Result },
    #[error("{what} pipeline creation failed: {result}")]
    Pipeline {
        what: &'static str,
        result: vk::Result,
    },
    #[error("no memory type for {what} (type bits {bits:#x}, wanted {wanted:?})")]
    NoMemoryType {
        what: String,
        bits: u32,
        wanted: vk::MemoryPropertyFlags,
    },
    #[error("{call} failed: {result}")]
    Vulkan {
        call: &'static str,
        result: vk::Result,
    },
    #[error("the device did not finish the run within {0} s (hung or lost)")]
    Timeout(u64),
}

fn kind_name(kind: super::description::BufferKind) -> &'static str {
    match kind {
        super::description::BufferKind::Storage => "storage",
        super::description::BufferKind::Uniform => "uniform",
        super::description::BufferKind::StorageDynamic => "dynamic storage",
        super::description::BufferKind::UniformDynamic => "dynamic uniform",
    }
}

/// Wraps a failed Vulkan call with its name.
pub(crate) fn vk_err(call: &'static str) -> impl FnOnce(vk::Result) -> ReferenceError {
    move |result| ReferenceError::Vulkan { call, result }
}
