//! The capabilities a module may declare. Checking them up front turns a
//! module that needs features the compiler lacks (images, kernels, ray
//! tracing, ...) into one clear error instead of a failure deep inside the
//! translation.

use super::operands::malformed;
use crate::FrontendError;
use rspirv::dr::{self, Operand};
use spirv::Capability as C;

/// Whether the translation copes with modules declaring `cap`. Declaring a
/// capability is harmless by itself: instructions that use a feature the
/// compiler does not translate (say a subgroup operation) are still
/// rejected one by one.
fn accepted(cap: C) -> bool {
    matches!(
        cap,
        C::Shader
            | C::Matrix
            | C::MeshShadingEXT
            // glslang adds it for the gl_MeshPrimitivesEXT block, which has
            // a gl_PrimitiveShadingRateEXT member.
            | C::FragmentShadingRateKHR
            | C::Int8
            | C::Int16
            | C::Int64
            | C::Float16
            | C::Float64
            | C::StorageBuffer8BitAccess
            | C::UniformAndStorageBuffer8BitAccess
            | C::StoragePushConstant8
            | C::StorageBuffer16BitAccess
            | C::UniformAndStorageBuffer16BitAccess
            | C::StoragePushConstant16
            | C::GroupNonUniform
            | C::GroupNonUniformVote
            | C::GroupNonUniformArithmetic
            | C::GroupNonUniformBallot
            | C::GroupNonUniformShuffle
            | C::GroupNonUniformShuffleRelative
            | C::GroupNonUniformClustered
            | C::GroupNonUniformQuad
            | C::VulkanMemoryModel
            | C::VulkanMemoryModelDeviceScope
            | C::PhysicalStorageBufferAddresses
            // Storage-buffer pointers chosen at run time (OpSelect, OpPhi,
            // OpPtrAccessChain): 64-bit addresses in the backend
            // (backend/src/from_ir/var_ptrs.rs, docs/ABI.md).
            | C::VariablePointersStorageBuffer
            | C::VariablePointers
            | C::ClipDistance
            | C::CullDistance
            | C::MultiView
            | C::DrawParameters
            | C::ShaderLayer
            | C::ShaderViewportIndex
            | C::ShaderViewportIndexLayerEXT
            | C::Int64Atomics
            | C::AtomicFloat32AddEXT
            | C::AtomicFloat64AddEXT
            | C::AtomicFloat16AddEXT
            | C::AtomicFloat32MinMaxEXT
            | C::AtomicFloat64MinMaxEXT
            | C::AtomicFloat16MinMaxEXT
            | C::ShaderNonUniform
            | C::StorageBufferArrayDynamicIndexing
            | C::UniformBufferArrayDynamicIndexing
            | C::StorageBufferArrayNonUniformIndexing
            | C::UniformBufferArrayNonUniformIndexing
            | C::RuntimeDescriptorArray
            | C::DenormPreserve
            | C::DenormFlushToZero
            | C::SignedZeroInfNanPreserve
            | C::RoundingModeRTE
            | C::RoundingModeRTZ
            | C::SubgroupBallotKHR
            // Declared for `sample` interpolation on mesh outputs.
            | C::SampleRateShading
            // Workgroup blocks with Offset layouts, aliasing one another
            // (compute; backend from_ir/memory.rs).
            | C::WorkgroupMemoryExplicitLayoutKHR
            | C::WorkgroupMemoryExplicitLayout8BitAccessKHR
            | C::WorkgroupMemoryExplicitLayout16BitAccessKHR
            // Images, samplers and texel buffers (translate/images.rs).
            | C::SampledBuffer
            | C::ImageBuffer
            | C::ImageQuery
            | C::StorageImageWriteWithoutFormat
            | C::StorageImageReadWithoutFormat
            | C::StorageImageExtendedFormats
            | C::Sampled1D
            | C::Image1D
            | C::SampledCubeArray
            | C::ImageCubeArray
            | C::ImageMSArray
            | C::StorageImageMultisample
            | C::ImageGatherExtended
            | C::MinLod
            | C::SampledImageArrayDynamicIndexing
            | C::StorageImageArrayDynamicIndexing
            | C::SampledImageArrayNonUniformIndexing
            | C::StorageImageArrayNonUniformIndexing
            | C::UniformTexelBufferArrayDynamicIndexing
            | C::StorageTexelBufferArrayDynamicIndexing
            | C::UniformTexelBufferArrayNonUniformIndexing
            | C::StorageTexelBufferArrayNonUniformIndexing
    )
}

/// The extensions whose instructions and decorations the translation
/// knows (or that add nothing it must know: HLSL annotations, non-semantic
/// info).
const EXTENSIONS: &[&str] = &[
    "SPV_EXT_mesh_shader",
    "SPV_KHR_storage_buffer_storage_class",
    "SPV_KHR_physical_storage_buffer",
    "SPV_KHR_variable_pointers",
    "SPV_EXT_physical_storage_buffer",
    "SPV_KHR_vulkan_memory_model",
    "SPV_KHR_8bit_storage",
    "SPV_KHR_16bit_storage",
    "SPV_KHR_shader_draw_parameters",
    "SPV_KHR_multiview",
    "SPV_KHR_non_semantic_info",
    "SPV_KHR_relaxed_extended_instruction",
    "SPV_EXT_shader_atomic_float_add",
    "SPV_EXT_shader_atomic_float_min_max",
    "SPV_EXT_shader_atomic_float16_add",
    "SPV_KHR_fragment_shading_rate",
    "SPV_EXT_shader_viewport_index_layer",
    "SPV_EXT_descriptor_indexing",
    "SPV_KHR_float_controls",
    "SPV_KHR_shader_ballot",
    "SPV_KHR_subgroup_uniform_control_flow",
    "SPV_GOOGLE_hlsl_functionality1",
    "SPV_GOOGLE_user_type",
    "SPV_GOOGLE_decorate_string",
    "SPV_KHR_workgroup_memory_explicit_layout",
];

pub(super) fn check_extensions(module: &dr::Module) -> Result<(), FrontendError> {
    for inst in &module.extensions {
        match inst.operands.first() {
            Some(Operand::LiteralString(name)) if EXTENSIONS.contains(&name.as_str()) => {}
            Some(Operand::LiteralString(name)) => {
                return Err(FrontendError::UnsupportedExtension(name.clone()));
            }
            _ => return Err(malformed(inst, "missing extension name")),
        }
    }
    Ok(())
}

pub(super) fn check_capabilities(module: &dr::Module) -> Result<(), FrontendError> {
    for inst in &module.capabilities {
        match inst.operands.first() {
            Some(Operand::Capability(cap)) if accepted(*cap) => {}
            Some(Operand::Capability(cap)) => {
                return Err(FrontendError::UnsupportedCapability(format!("{cap:?}")));
            }
            _ => return Err(malformed(inst, "missing capability operand")),
        }
    }
    Ok(())
}
