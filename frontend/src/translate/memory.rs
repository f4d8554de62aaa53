//! Memory instructions beyond plain loads and stores: OpPtrAccessChain,
//! OpCopyMemory, OpArrayLength, OpPtrEqual/OpPtrNotEqual/OpPtrDiff, and
//! the memory operands of loads, stores and copies.

use super::Translator;
use super::operands::{Operands, malformed};
use crate::FrontendError;
use crate::ir::{BinaryOp, Block, CmpOp, ConvOp, Op, Scalar, StorageClass, Type};
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

    /// OpPtrEqual, OpPtrNotEqual and OpPtrDiff compare storage-buffer
    /// pointers by address: each operand becomes its 64-bit address
    /// (`ConvOp::PtrToU`; the backend computes it for a pointer into a
    /// variable as for a variable pointer, `from_ir/var_ptrs.rs`), then an
    /// integer comparison, or for OpPtrDiff the byte difference divided by
    /// the pointer type's ArrayStride (the element count between them), or
    /// without one by the step OpPtrAccessChain takes on operand 2.
    pub(super) fn pointer_compare(
        &mut self,
        block: Block,
        inst: &Instruction,
    ) -> Result<(), FrontendError> {
        let mut ops = Operands::new(inst);
        let a = self.operand(inst, &mut ops, "operand 1")?;
        let b = self.operand(inst, &mut ops, "operand 2")?;
        let ty = self.shader.values[a].ty;
        let Type::Pointer {
            class,
            array_stride,
            ..
        } = self.shader.types[ty]
        else {
            return Err(malformed(inst, "operand 1 is not a pointer"));
        };
        if self.shader.values[b].ty != ty {
            return Err(malformed(inst, "the operands are not pointers of one type"));
        }
        match class {
            StorageClass::StorageBuffer | StorageClass::PhysicalStorageBuffer => {}
            other => {
                return Err(super::operands::unsupported(
                    inst,
                    format!(
                        "comparisons of pointers to {other:?} memory (storage-buffer pointers only)"
                    ),
                ));
            }
        }
        let u64_ty = self.intern(Type::Scalar(Scalar::Int {
            bits: 64,
            signed: false,
        }));
        let id = inst.result_id;
        let (_, x) = self
            .shader
            .append(block, Op::Convert(ConvOp::PtrToU, a), Some(u64_ty), id);
        let (_, y) = self
            .shader
            .append(block, Op::Convert(ConvOp::PtrToU, b), Some(u64_ty), id);
        let (x, y) = (
            x.expect("a conversion has a result"),
            y.expect("a conversion has a result"),
        );
        match inst.class.opcode {
            spirv::Op::PtrEqual => self.emit(block, inst, Op::Cmp(CmpOp::IEq, x, y)),
            spirv::Op::PtrNotEqual => self.emit(block, inst, Op::Cmp(CmpOp::INe, x, y)),
            _ => {
                let result_ty = self.ty(inst, super::operands::result_type(inst)?)?;
                let Type::Scalar(Scalar::Int { bits, .. }) = self.shader.types[result_ty] else {
                    return Err(malformed(inst, "the result type is not an integer scalar"));
                };
                if bits != 32 && bits != 64 {
                    return Err(super::operands::unsupported(
                        inst,
                        format!("OpPtrDiff to a {bits}-bit integer"),
                    ));
                }
                let (_, bytes) =
                    self.shader
                        .append(block, Op::Binary(BinaryOp::ISub, x, y), Some(u64_ty), id);
                let bytes = bytes.expect("a subtraction has a result");
                // Both pointers point into one array of one buffer, so the
                // difference fits the result's width; 32-bit results divide
                // in 32 bits (64-bit division is a loop, wide_div.rs).
                let conv = if bits == 64 {
                    ConvOp::Bitcast
                } else {
                    ConvOp::UConvert
                };
                let (_, diff) =
                    self.shader
                        .append(block, Op::Convert(conv, bytes), Some(result_ty), id);
                let diff = diff.expect("a conversion has a result");
                let stride = match array_stride.filter(|&s| s > 0) {
                    Some(s) => self.emit_in_prologue(Op::Const(u64::from(s)), result_ty, id),
                    // Without an ArrayStride, the step OpPtrAccessChain
                    // takes: the address one element on, minus operand 2's.
                    None => {
                        let one = self.emit_in_prologue(Op::Const(1), result_ty, id);
                        let (_, next) = self.shader.append(
                            block,
                            Op::PtrAccessChain {
                                base: b,
                                element: one,
                                indices: Vec::new(),
                            },
                            Some(ty),
                            id,
                        );
                        let next = next.expect("an access chain has a result");
                        let (_, z) = self.shader.append(
                            block,
                            Op::Convert(ConvOp::PtrToU, next),
                            Some(u64_ty),
                            id,
                        );
                        let z = z.expect("a conversion has a result");
                        let (_, step) = self.shader.append(
                            block,
                            Op::Binary(BinaryOp::ISub, z, y),
                            Some(u64_ty),
                            id,
                        );
                        let step = step.expect("a subtraction has a result");
                        let (_, step) =
                            self.shader
                                .append(block, Op::Convert(conv, step), Some(result_ty), id);
                        step.expect("a conversion has a result")
                    }
                };
                self.emit(block, inst, Op::Binary(BinaryOp::SDiv, diff, stride))
            }
        }
    }
}
