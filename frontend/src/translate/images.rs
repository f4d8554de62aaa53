//! Images and samplers are not part of this compiler yet. A module that
//! uses one is rejected at the first instruction of the entry point that
//! touches one (an OpImage* instruction, OpSampledImage, or a load of an
//! image or sampler), so that the message names what the shader does with
//! it rather than a type declaration.

use super::module_info::ModuleInfo;
use super::operands::unsupported;
use crate::FrontendError;
use rspirv::dr::{Function, Operand};
use spirv::Op;

pub(super) fn reject_images(info: &ModuleInfo, function: &Function) -> Result<(), FrontendError> {
    for inst in function.blocks.iter().flat_map(|b| &b.instructions) {
        // The grammar's name, without the "Op" prefix: no String per
        // instruction.
        let image_op =
            inst.class.opname.starts_with("Image") || inst.class.opcode == Op::SampledImage;
        let image_result = inst.result_type.is_some_and(|t| is_image_type(info, t));
        if image_op || image_result {
            return Err(unsupported(
                inst,
                "images and samplers are not supported (yet)",
            ));
        }
    }
    Ok(())
}

fn is_image_type(info: &ModuleInfo, ty: u32) -> bool {
    info.def(ty).is_some_and(|d| {
        matches!(
            d.class.opcode,
            Op::TypeImage | Op::TypeSampler | Op::TypeSampledImage
        )
    })
}

/// Whether `id` is a module-level variable of class UniformConstant (the
/// class of images, samplers and acceleration structures).
pub(super) fn is_image_variable(info: &ModuleInfo, id: u32) -> bool {
    info.def(id).is_some_and(|d| {
        d.class.opcode == Op::Variable
            && d.operands.first()
                == Some(&Operand::StorageClass(spirv::StorageClass::UniformConstant))
    })
}
