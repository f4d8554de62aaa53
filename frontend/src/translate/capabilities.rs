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
            | C::ClipDistance
            | C::CullDistance
            | C::MultiView
            | C::DrawParameters
            | C::ShaderLayer
            | C::ShaderViewportIndex
            | C::ShaderViewportIndexLayerEXT
    )
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
