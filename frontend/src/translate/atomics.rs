//! Atomics and barriers. Scopes and memory semantics must be constants,
//! as Vulkan requires; they are checked but not kept: the IR's atomics and
//! barriers order all memory of the workgroup, which is what a workgroup
//! scope asks and more than a subgroup scope does.

use super::Translator;
use super::operands::{Operands, malformed, result_id, unsupported};
use crate::FrontendError;
use crate::ir::{AtomicOp, Block, Op, StorageClass, Type};
use rspirv::dr::{Instruction, Operand};

/// The IR atomic for an OpAtomic* opcode.
pub(super) fn atomic_op(op: spirv::Op) -> Option<AtomicOp> {
    use spirv::Op as O;
    Some(match op {
        O::AtomicLoad => AtomicOp::Load,
        O::AtomicStore => AtomicOp::Store,
        O::AtomicExchange => AtomicOp::Exchange,
        O::AtomicCompareExchange => AtomicOp::CompareExchange,
        O::AtomicIIncrement => AtomicOp::IIncrement,
        O::AtomicIDecrement => AtomicOp::IDecrement,
        O::AtomicIAdd => AtomicOp::IAdd,
        O::AtomicISub => AtomicOp::ISub,
        O::AtomicSMin => AtomicOp::SMin,
        O::AtomicUMin => AtomicOp::UMin,
        O::AtomicSMax => AtomicOp::SMax,
        O::AtomicUMax => AtomicOp::UMax,
        O::AtomicAnd => AtomicOp::And,
        O::AtomicOr => AtomicOp::Or,
        O::AtomicXor => AtomicOp::Xor,
        O::AtomicFAddEXT => AtomicOp::FAdd,
        O::AtomicFMinEXT => AtomicOp::FMin,
        O::AtomicFMaxEXT => AtomicOp::FMax,
        _ => return None,
    })
}

impl Translator<'_> {
    pub(super) fn atomic(
        &mut self,
        block: Block,
        inst: &Instruction,
        op: AtomicOp,
    ) -> Result<(), FrontendError> {
        let mut ops = Operands::new(inst);
        let ptr_id = ops.id("pointer")?;
        let ptr = self.value(inst, ptr_id)?;
        self.constant_scope(inst, &mut ops, "memory scope")?;
        self.constant_scope(inst, &mut ops, "memory semantics")?;
        if op == AtomicOp::CompareExchange {
            self.constant_scope(inst, &mut ops, "unequal memory semantics")?;
        }
        let args = self.rest_values(inst, &mut ops, "value")?;
        if args.len() != op.value_operands() {
            return Err(malformed(
                inst,
                format!("takes {} values, not {}", op.value_operands(), args.len()),
            ));
        }
        match *self.shader.value_type(ptr) {
            Type::Pointer {
                class:
                    StorageClass::Workgroup
                    | StorageClass::TaskPayload
                    | StorageClass::StorageBuffer
                    | StorageClass::PhysicalStorageBuffer
                    | StorageClass::Image,
                ..
            } => {}
            Type::Pointer { class, .. } => {
                return Err(unsupported(
                    inst,
                    format!(
                        "atomics on {class:?} memory (only Workgroup, TaskPayloadWorkgroupEXT, buffers and image texels)"
                    ),
                ));
            }
            _ => return Err(malformed(inst, "the pointer operand is not a pointer")),
        }
        let atomic = Op::Atomic { op, ptr, args };
        if op == AtomicOp::Store {
            self.effect(block, atomic, Some(ptr_id));
            Ok(())
        } else {
            result_id(inst)?;
            self.emit(block, inst, atomic)
        }
    }

    /// OpControlBarrier / OpMemoryBarrier.
    pub(super) fn barrier(
        &mut self,
        block: Block,
        inst: &Instruction,
    ) -> Result<(), FrontendError> {
        let mut ops = Operands::new(inst);
        let (op, first) = if inst.class.opcode == spirv::Op::ControlBarrier {
            let first = self.constant_scope(inst, &mut ops, "execution scope")?;
            self.constant_scope(inst, &mut ops, "memory scope")?;
            (Op::ControlBarrier, first)
        } else {
            (
                Op::MemoryBarrier,
                self.constant_scope(inst, &mut ops, "memory scope")?,
            )
        };
        self.constant_scope(inst, &mut ops, "memory semantics")?;
        self.effect(block, op, Some(first));
        Ok(())
    }

    /// A scope or memory-semantics operand: the id of an integer constant.
    /// Returns the id.
    pub(super) fn constant_scope(
        &self,
        inst: &Instruction,
        ops: &mut Operands,
        what: &str,
    ) -> Result<u32, FrontendError> {
        let id = match ops.any(what)? {
            Operand::IdScope(id) | Operand::IdMemorySemantics(id) | Operand::IdRef(id) => *id,
            other => return Err(ops.wrong_kind(what, other)),
        };
        if self.info.u32_constant(id).is_none() {
            return Err(malformed(
                inst,
                format!("the {what} %{id} is not an integer constant"),
            ));
        }
        Ok(id)
    }
}
