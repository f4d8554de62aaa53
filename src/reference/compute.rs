//! A compute run: one dispatch of the description's groups, then the
//! buffers and the invocation count are read back.

use super::bindings::Bindings;
use super::commands;
use super::device::Gpu;
use super::error::ReferenceError;
use super::interface::Spirv;
use super::modules;
use super::queries::Queries;
use super::result::Statistics;
use ash::vk;
use std::ffi::CString;

pub fn run(
    gpu: &mut Gpu,
    bindings: &Bindings,
    shader: &Spirv,
    entry: &str,
    groups: [u32; 3],
) -> Result<Statistics, ReferenceError> {
    for (axis, (&g, &limit)) in groups
        .iter()
        .zip(&gpu.limits.max_compute_work_group_count)
        .enumerate()
    {
        if g > limit {
            return Err(ReferenceError::LimitExceeded {
                device: gpu.info.device_name.clone(),
                what: [
                    "workgroup count x",
                    "workgroup count y",
                    "workgroup count z",
                ][axis],
                value: g.into(),
                limit: limit.into(),
            });
        }
    }
    let module = modules::create(gpu, shader)?;
    let name = entry_name(entry);
    let stage = vk::PipelineShaderStageCreateInfo::default()
        .stage(vk::ShaderStageFlags::COMPUTE)
        .module(module)
        .name(&name);
    let info = vk::ComputePipelineCreateInfo::default()
        .stage(stage)
        .layout(bindings.layout);
    // SAFETY: the module holds this entry point (checked) and the layout
    // describes the set and push constants.
    let pipeline = unsafe {
        gpu.device
            .create_compute_pipelines(vk::PipelineCache::null(), &[info], None)
    }
    .map_err(|(_, result)| ReferenceError::Pipeline {
        what: "compute",
        result,
    })?[0];
    let pipeline = gpu.own(pipeline);
    let queries = Queries::new(gpu, false, false)?;

    let cmd = commands::begin(gpu)?;
    queries.begin(gpu, cmd);
    // SAFETY: `cmd` is recording; all objects live in `gpu`.
    unsafe {
        gpu.device
            .cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, pipeline);
        bindings.record(gpu, cmd, vk::PipelineBindPoint::COMPUTE);
        gpu.device
            .cmd_dispatch(cmd, groups[0], groups[1], groups[2]);
    }
    queries.end(gpu, cmd);
    commands::host_barrier(gpu, cmd);
    commands::submit_and_wait(gpu, cmd)?;
    queries.read(gpu)
}

/// The entry point's name for Vulkan; a name with a NUL byte cannot have
/// matched an OpEntryPoint, so it never gets here.
pub fn entry_name(entry: &str) -> CString {
    CString::new(entry).unwrap_or_default()
}
