//! SPIR-V built-ins and storage classes as the IR names them.

use crate::ir::{BuiltIn, StorageClass};
use spirv::BuiltIn as B;

/// The IR's built-in for `b`, or `None` for one that task, mesh and compute
/// shaders cannot use or that the compiler does not know (yet).
pub(super) fn builtin(b: B) -> Option<BuiltIn> {
    Some(match b {
        B::LocalInvocationId => BuiltIn::LocalInvocationId,
        B::LocalInvocationIndex => BuiltIn::LocalInvocationIndex,
        B::GlobalInvocationId => BuiltIn::GlobalInvocationId,
        B::WorkgroupId => BuiltIn::WorkgroupId,
        B::NumWorkgroups => BuiltIn::NumWorkgroups,
        B::WorkgroupSize => BuiltIn::WorkgroupSize,
        B::SubgroupLocalInvocationId => BuiltIn::SubgroupLocalInvocationId,
        B::SubgroupSize => BuiltIn::SubgroupSize,
        B::SubgroupId => BuiltIn::SubgroupId,
        B::NumSubgroups => BuiltIn::NumSubgroups,
        B::SubgroupEqMask => BuiltIn::SubgroupEqMask,
        B::SubgroupGeMask => BuiltIn::SubgroupGeMask,
        B::SubgroupGtMask => BuiltIn::SubgroupGtMask,
        B::SubgroupLeMask => BuiltIn::SubgroupLeMask,
        B::SubgroupLtMask => BuiltIn::SubgroupLtMask,
        B::ViewIndex => BuiltIn::ViewIndex,
        B::DrawIndex => BuiltIn::DrawIndex,
        B::Position => BuiltIn::Position,
        B::PointSize => BuiltIn::PointSize,
        B::ClipDistance => BuiltIn::ClipDistance,
        B::CullDistance => BuiltIn::CullDistance,
        B::PrimitiveId => BuiltIn::PrimitiveId,
        B::Layer => BuiltIn::Layer,
        B::ViewportIndex => BuiltIn::ViewportIndex,
        B::CullPrimitiveEXT => BuiltIn::CullPrimitive,
        B::PrimitiveShadingRateKHR => BuiltIn::PrimitiveShadingRate,
        B::PrimitivePointIndicesEXT => BuiltIn::PrimitivePointIndices,
        B::PrimitiveLineIndicesEXT => BuiltIn::PrimitiveLineIndices,
        B::PrimitiveTriangleIndicesEXT => BuiltIn::PrimitiveTriangleIndices,
        _ => return None,
    })
}

/// The IR's storage class for `class`, or `None` for those that belong to
/// other stages or APIs.
pub(super) fn storage_class(class: spirv::StorageClass) -> Option<StorageClass> {
    use spirv::StorageClass as S;
    Some(match class {
        S::Function => StorageClass::Function,
        S::Private => StorageClass::Private,
        S::Workgroup => StorageClass::Workgroup,
        S::Input => StorageClass::Input,
        S::Output => StorageClass::Output,
        S::TaskPayloadWorkgroupEXT => StorageClass::TaskPayload,
        S::StorageBuffer => StorageClass::StorageBuffer,
        S::Uniform => StorageClass::Uniform,
        S::PushConstant => StorageClass::PushConstant,
        S::PhysicalStorageBuffer => StorageClass::PhysicalStorageBuffer,
        S::UniformConstant => StorageClass::UniformConstant,
        S::Image => StorageClass::Image,
        _ => return None,
    })
}
