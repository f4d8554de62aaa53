//! OpExtInst: GLSL.std.450 instructions → IR ops (see [`arith::glsl_std_450`]),
//! non-semantic and debug-information ones dropped, any other set rejected
//! by name.

use super::Translator;
use super::arith::{self, Glsl};
use super::operands::{Operands, malformed, result_id, result_type, unsupported};
use crate::FrontendError;
use crate::ir::{Block, MathOp, Op, Type};
use rspirv::dr::{Instruction, Operand};

impl Translator<'_> {
    pub(super) fn ext_inst(
        &mut self,
        block: Block,
        inst: &Instruction,
    ) -> Result<(), FrontendError> {
        let mut ops = Operands::new(inst);
        let set_id = ops.id("instruction set")?;
        let set = self.info.ext_inst_set(set_id).ok_or_else(|| {
            malformed(
                inst,
                format!("%{set_id} is not an imported instruction set"),
            )
        })?;
        // Non-semantic instructions (debug info, printf, ...) change
        // nothing by definition; nor do the older debug-information sets
        // (DXC's -fspv-debug=rich emits OpenCL.DebugInfo.100).
        if set.starts_with("NonSemantic.") || matches!(set, "OpenCL.DebugInfo.100" | "DebugInfo") {
            return Ok(());
        }
        if set != "GLSL.std.450" {
            return Err(unsupported(
                inst,
                format!("instructions of the set \"{set}\""),
            ));
        }
        let number = match ops.any("instruction")? {
            Operand::LiteralExtInstInteger(n) => *n,
            other => return Err(ops.wrong_kind("instruction", other)),
        };
        let Some(glsl_op) = spirv::GlslStd450Op::from_u32(number) else {
            return Err(malformed(
                inst,
                format!("GLSL.std.450 has no instruction {number}"),
            ));
        };
        match arith::glsl_std_450(glsl_op) {
            Glsl::Unary(op) => {
                let a = self.operand(inst, &mut ops, "x")?;
                self.emit(block, inst, Op::Unary(op, a))
            }
            Glsl::Binary(op) => {
                let a = self.operand(inst, &mut ops, "x")?;
                let b = self.operand(inst, &mut ops, "y")?;
                self.emit(block, inst, Op::Binary(op, a, b))
            }
            Glsl::Math(op) => {
                let args = self.rest_values(inst, &mut ops, "operand")?;
                self.math(block, inst, op, args)
            }
            Glsl::WithPointer(op) => {
                let x = self.operand(inst, &mut ops, "x")?;
                let ptr = self.operand(inst, &mut ops, "pointer")?;
                self.math_with_pointer(block, inst, op, x, ptr)
            }
            Glsl::Invalid(why) => Err(unsupported(
                inst,
                format!("GLSL.std.450 {glsl_op:?}: {why}"),
            )),
        }
    }

    /// An `Op::Math` after checking its operand count.
    pub(super) fn math(
        &mut self,
        block: Block,
        inst: &Instruction,
        op: MathOp,
        args: Vec<crate::ir::Value>,
    ) -> Result<(), FrontendError> {
        if args.len() != op.arity() {
            return Err(malformed(
                inst,
                format!("{op:?} takes {} operands, not {}", op.arity(), args.len()),
            ));
        }
        self.emit(block, inst, Op::Math(op, args))
    }

    /// Modf / Frexp: the struct form of `op`, its second member stored
    /// through `ptr`, its first the result.
    fn math_with_pointer(
        &mut self,
        block: Block,
        inst: &Instruction,
        op: MathOp,
        x: crate::ir::Value,
        ptr: crate::ir::Value,
    ) -> Result<(), FrontendError> {
        let result_ty = self.ty(inst, result_type(inst)?)?;
        let Type::Pointer { pointee, .. } = *self.shader.value_type(ptr) else {
            return Err(malformed(inst, "the last operand is not a pointer"));
        };
        let pair_ty = self.intern(Type::Struct {
            members: vec![plain_member(result_ty), plain_member(pointee)],
            block: false,
        });
        let id = Some(result_id(inst)?);
        let (_, pair) = self
            .shader
            .append(block, Op::Math(op, vec![x]), Some(pair_ty), id);
        let pair = pair.expect("append gives a result value when given a result type");
        let extract = |index| Op::CompositeExtract {
            composite: pair,
            indices: vec![index],
        };
        let (_, second) = self.shader.append(block, extract(1), Some(pointee), id);
        let second = second.expect("append gives a result value when given a result type");
        self.effect(block, Op::Store { ptr, value: second }, id);
        self.emit(block, inst, extract(0))
    }
}

fn plain_member(ty: crate::ir::TypeId) -> crate::ir::StructMember {
    crate::ir::StructMember {
        ty,
        offset: None,
        builtin: None,
        location: None,
        per_primitive: false,
        interpolation: Default::default(),
    }
}
