//! The reference runner: runs a run description (docs/RUNS.md) on a real
//! Vulkan driver through `ash`, headless, and captures what the simulator
//! must agree with: read-back buffers, the rendered RGBA32F image, pipeline
//! statistics and MESH_PRIMITIVES_GENERATED.
//!
//! libvulkan is opened at run time (ash's `loaded` feature): building needs
//! no Vulkan SDK, and a machine without a loader gets
//! [`ReferenceError::NoLoader`] rather than a link failure.

mod bindings;
mod buffers;
mod colour_pass;
mod commands;
mod compute;
pub mod cuda;
mod description;
mod device;
mod error;
mod image_inputs;
mod images;
mod interface;
mod mesh;
mod modules;
mod ms_fill;
mod queries;
mod readback;
mod result;

pub use description::{
    BufferDescription, BufferKind, CullMode, Data, FrontFace, ImageSize, PUSH_CONSTANT_LIMIT,
    Pipeline, RunDescription, ShaderRef, Stages, resolve_data,
};
pub use error::{DescriptionError, ReferenceError};
pub use image_inputs::{
    ImageDescription, SamplerDescription, bound as bound_images, words as image_words,
};
pub use result::{
    BufferResult, Capture, DeviceInfo, FORMAT, IMAGE_FILE, ImageResult, RESULT_FILE, RunResult,
    Statistics,
};

use ash::vk;
use interface::Spirv;
use rspirv::spirv::{Capability, ExecutionModel};
use std::path::Path;

/// Loads the run description at `path` and runs it; the run is named after
/// the file (`tests/runs/NAME.json` gives `NAME`).
pub fn run_file(path: &Path) -> Result<Capture, ReferenceError> {
    let desc = RunDescription::load(path)?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let base = path.parent().unwrap_or(Path::new("."));
    run(&desc, &name, base)
}

/// Runs `desc`, whose relative paths start at `base`.
pub fn run(desc: &RunDescription, name: &str, base: &Path) -> Result<Capture, ReferenceError> {
    let invalid = |problem| ReferenceError::InvalidDescription {
        path: base.join(format!("{name}.json")),
        problem,
    };
    match desc.pipeline().map_err(invalid)? {
        Pipeline::Compute(shader) => {
            // Everything that can be checked without a device comes first.
            let spirv = Spirv::load(&base.join(&shader.spirv))?;
            spirv.entry_point(ExecutionModel::GLCompute, &shader.entry)?;
            spirv.check_buffers(desc)?;
            let mut gpu = device::Gpu::new(device::Needs {
                float_atomic_add: spirv.declares(Capability::AtomicFloat32AddEXT),
                float_atomic_min_max: spirv.declares(Capability::AtomicFloat32MinMaxEXT),
                ..device::Needs::default()
            })?;
            let bindings =
                bindings::Bindings::new(&mut gpu, desc, base, vk::ShaderStageFlags::COMPUTE)?;
            let statistics = compute::run(&mut gpu, &bindings, &spirv, &shader.entry, desc.groups)?;
            let mut buffers = readback::buffers(&gpu, desc, &bindings)?;
            buffers.extend(readback::images(&mut gpu, desc, &bindings)?);
            Ok(Capture {
                result: result(name, &gpu, statistics, buffers, None),
                pixels: Vec::new(),
            })
        }
        Pipeline::Mesh { task, mesh, image } => {
            let task_spirv = match task {
                Some(t) => {
                    let s = Spirv::load(&base.join(&t.spirv))?;
                    s.entry_point(ExecutionModel::TaskEXT, &t.entry)?;
                    s.check_buffers(desc)?;
                    Some((s, t.entry.as_str()))
                }
                None => None,
            };
            let mesh_spirv = Spirv::load(&base.join(&mesh.spirv))?;
            let colour = mesh_spirv.colour_output(&mesh.entry)?;
            mesh_spirv.check_buffers(desc)?;
            let declared = |c| {
                mesh_spirv.declares(c) || task_spirv.as_ref().is_some_and(|(t, _)| t.declares(c))
            };
            let needs = device::Needs {
                mesh: true,
                task: task.is_some(),
                multiview: desc.view_mask != 0,
                float_atomic_add: declared(Capability::AtomicFloat32AddEXT),
                float_atomic_min_max: declared(Capability::AtomicFloat32MinMaxEXT),
            };
            let mut gpu = device::Gpu::new(needs)?;
            let mut stages = vk::ShaderStageFlags::MESH_EXT;
            if task.is_some() {
                stages |= vk::ShaderStageFlags::TASK_EXT;
            }
            let bindings = bindings::Bindings::new(&mut gpu, desc, base, stages)?;
            let shaders = mesh::MeshShaders {
                task: task_spirv.as_ref().map(|(s, e)| (s, *e)),
                mesh: (&mesh_spirv, mesh.entry.as_str()),
                colour,
            };
            let (statistics, pixels) = mesh::run(&mut gpu, desc, &bindings, &shaders, image)?;
            let mut buffers = readback::buffers(&gpu, desc, &bindings)?;
            buffers.extend(readback::images(&mut gpu, desc, &bindings)?);
            let image = ImageResult {
                file: IMAGE_FILE.into(),
                width: image.width,
                height: image.height,
                layers: desc.layers(),
                format: "rgba32f".into(),
            };
            Ok(Capture {
                result: result(name, &gpu, statistics, buffers, Some(image)),
                pixels,
            })
        }
    }
}

fn result(
    name: &str,
    gpu: &device::Gpu,
    statistics: Statistics,
    buffers: Vec<BufferResult>,
    image: Option<ImageResult>,
) -> RunResult {
    RunResult {
        format: FORMAT,
        run: name.to_owned(),
        command: None,
        device: gpu.info.clone(),
        statistics,
        buffers,
        image,
    }
}
