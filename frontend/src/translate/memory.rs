//! Memory instructions beyond plain loads and stores: OpPtrAccessChain,
//! OpCopyMemory, OpArrayLength, and the memory operands of loads, stores
//! and copies.

use super::Translator;
use super::operands::{Operands, malformed};
use crate::FrontendError;
use crate::ir::{Block, Op, Type};
use rspirv::dr::{Instruction, Operand};
use spirv::MemoryAccess;

/// Checks an optional memory-operand mask and the literals and ids it
/// announces. Alignment matters to nothing after the frontend (the pointee
/// types carry the layout), so it is checked, not kept.
pub(super) fn check_memory_operands(
    inst: &Instruction,
    ops: &mut Operands,
) -> Result<(), FrontendError> {
    // OpCopyMemory may carry two masks (target, then source).
    while ops.remaining() > 0 {
        let mask = match ops.any("memory operands")? {
            Operand::MemoryAccess(m) => *m,
            other => return Err(ops.wrong_kind("memory operands", other)),
        };
        if mask.contains(MemoryAccess::ALIGNED) {
            let align = ops.literal("alignment")?;
            if !align.is_power_of_two() {
                return Err(malformed(
                    inst,
                    format!("alignment {align} is not a power of two"),
                ));
            }
        }
        if mask.contains(MemoryAccess::MAKE_POINTER_AVAILABLE) {
            ops.any("availability scope")?;
        }
        if mask.contains(MemoryAccess::MAKE_POINTER_VISIBLE) {
            ops.any("visibility scope")?;
        }
    }
    Ok(())
}

impl Translator<'_> {
    pub(super) fn ptr_access_chain(
        &mut self,
        block: Block,
        inst: &Instruction,
    ) -> Result<(), FrontendError> {
        let mut ops = Operands::new(inst);
        let base = self.operand(inst, &mut ops, "base")?;
        let element = self.operand(inst, &mut ops, "element")?;
        let indices = self.rest_values(inst, &mut ops, "index")?;
        let ty = self.chain_type(inst, base)?;
        self.emit_typed(
            block,
            inst,
            ty,
            Op::PtrAccessChain {
                base,
                element,
                indices,
            },
        )
    }

    pub(super) fn copy_memory(
        &mut self,
        block: Block,
        inst: &Instruction,
    ) -> Result<(), FrontendError> {
        if inst.class.opcode == spirv::Op::CopyMemorySized {
            return Err(super::operands::unsupported(
                inst,
                "copies of a byte count need the Addresses capability",
            ));
        }
        let mut ops = Operands::new(inst);
        let dst_id = ops.id("target")?;
        let dst = self.value(inst, dst_id)?;
        let src = self.operand(inst, &mut ops, "source")?;
        check_memory_operands(inst, &mut ops)?;
        let pointee = |t: &Type| match t {
            Type::Pointer { pointee, .. } => Some(*pointee),
            _ => None,
        };
        let (d, s) = (
            pointee(self.shader.value_type(dst)),
            pointee(self.shader.value_type(src)),
        );
        if d.is_none() || d != s {
            return Err(malformed(
                inst,
                "target and source are not pointers to one type",
            ));
        }
        self.effect(block, Op::CopyMemory { dst, src }, Some(dst_id));
        Ok(())
    }

    pub(super) fn array_length(
        &mut self,
        block: Block,
        inst: &Instruction,
    ) -> Result<(), FrontendError> {
        let mut ops = Operands::new(inst);
        let ptr = self.operand(inst, &mut ops, "structure")?;
        let member = ops.literal("array member")?;
        let Type::Pointer { pointee, .. } = *self.shader.value_type(ptr) else {
            return Err(malformed(inst, "the structure operand is not a pointer"));
        };
        let runtime_array = match &self.shader.types[pointee] {
            Type::Struct { members, .. } => members.get(member as usize).map(|m| m.ty),
            _ => None,
        }
        .is_some_and(|ty| matches!(self.shader.types[ty], Type::Array { len: None, .. }));
        if !runtime_array {
            return Err(malformed(
                inst,
                format!("member {member} of the pointee is not a runtime array"),
            ));
        }
        self.emit(block, inst, Op::ArrayLength { ptr, member })
    }
}
