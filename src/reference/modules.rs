//! Shader modules: the run's SPIR-V, and the pass-through fragment shaders
//! built from tests/shaders/fragment/ (see tests/shaders/build.sh).

use super::device::Gpu;
use super::error::ReferenceError;
use super::interface::{ColourOutput, Spirv};
use ash::vk;
use std::path::PathBuf;

// The committed .spv files, kept 4-byte aligned for vkCreateShaderModule by
// copying them into words at run time.
const SMOOTH: &[u8] = include_bytes!("../../tests/shaders/fragment/passthrough_smooth.frag.spv");
const PER_PRIMITIVE: &[u8] =
    include_bytes!("../../tests/shaders/fragment/passthrough_per_primitive.frag.spv");
const WHITE: &[u8] = include_bytes!("../../tests/shaders/fragment/passthrough_white.frag.spv");

pub fn create(gpu: &mut Gpu, spirv: &Spirv) -> Result<vk::ShaderModule, ReferenceError> {
    module(gpu, &spirv.words, spirv.path.clone())
}

/// The fragment shader that writes the mesh shader's Location-0 colour.
pub fn fragment(gpu: &mut Gpu, colour: ColourOutput) -> Result<vk::ShaderModule, ReferenceError> {
    let (bytes, name) = match colour {
        ColourOutput::Absent => (WHITE, "passthrough_white.frag.spv"),
        ColourOutput::PerVertex => (SMOOTH, "passthrough_smooth.frag.spv"),
        ColourOutput::PerPrimitive => (PER_PRIMITIVE, "passthrough_per_primitive.frag.spv"),
    };
    built_in(gpu, bytes, name)
}

/// A module of the runner's own, committed as `name` (a .spv file's
/// bytes, copied into words for their alignment).
pub fn built_in(
    gpu: &mut Gpu,
    bytes: &[u8],
    name: &str,
) -> Result<vk::ShaderModule, ReferenceError> {
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    module(gpu, &words, PathBuf::from("(built in) ").join(name))
}

fn module(gpu: &mut Gpu, words: &[u32], path: PathBuf) -> Result<vk::ShaderModule, ReferenceError> {
    let info = vk::ShaderModuleCreateInfo::default().code(words);
    // SAFETY: the words parsed as a SPIR-V module with the needed entry point.
    let m = unsafe { gpu.device.create_shader_module(&info, None) }
        .map_err(|result| ReferenceError::ShaderModule { path, result })?;
    Ok(gpu.own(m))
}
