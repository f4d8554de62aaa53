//! Module-level constants (and OpUndef) → prologue instructions. A scalar
//! becomes `Op::Const(bits)`; a composite becomes a `CompositeConstruct` of
//! the values of its constituents; OpConstantNull becomes zeros of the right
//! shape, built the same way. Specialization constants take their default
//! value.

use super::Translator;
use super::arith;
use super::operands::{Operands, malformed, result_id, result_type, unsupported};
use super::spec::scalar_value;
use crate::FrontendError;
use crate::ir::{Op, Scalar, Type, TypeId, Value};
use rspirv::dr::{Instruction, Operand};

/// The most elements an OpConstantNull array may have: zeros are built
/// element by element, and a huge array would exhaust memory.
const MAX_NULL_ELEMENTS: u32 = 1 << 16;

impl Translator<'_> {
    /// The value of a module-level constant or OpUndef, emitted on first use.
    pub(super) fn constant(&mut self, inst: &Instruction) -> Result<Value, FrontendError> {
        let id = result_id(inst)?;
        if let Some(&v) = self.values.get(&id) {
            return Ok(v);
        }
        if self.in_progress.len() >= super::types::MAX_NESTING {
            return Err(unsupported(
                inst,
                format!(
                    "types and constants nested deeper than {}",
                    super::types::MAX_NESTING
                ),
            ));
        }
        if !self.in_progress.insert(id) {
            return Err(malformed(inst, "the constant contains itself"));
        }
        let value = self.build_constant(inst, id);
        self.in_progress.remove(&id);
        let value = value?;
        self.values.insert(id, value);
        Ok(value)
    }

    fn build_constant(&mut self, inst: &Instruction, id: u32) -> Result<Value, FrontendError> {
        use spirv::Op as O;
        let ty = self.ty(inst, result_type(inst)?)?;
        let op = match inst.class.opcode {
            O::SpecConstantTrue | O::SpecConstantFalse | O::SpecConstant
                if let Some(bits) = self.info.spec_override(id) =>
            {
                Op::Const(bits)
            }
            O::ConstantTrue | O::SpecConstantTrue => Op::Const(1),
            O::ConstantFalse | O::SpecConstantFalse => Op::Const(0),
            O::Constant | O::SpecConstant => Op::Const(self.scalar_bits(inst, ty)?),
            O::ConstantComposite | O::SpecConstantComposite => {
                let constituents = Operands::new(inst).rest_ids("constituent")?;
                let values = constituents
                    .into_iter()
                    .map(|c| self.value(inst, c))
                    .collect::<Result<Vec<_>, _>>()?;
                Op::CompositeConstruct(values)
            }
            O::ConstantNull => return self.zero(inst, ty),
            O::Undef => Op::Undef,
            O::SpecConstantOp => self.spec_constant_op(inst)?,
            _ => return Err(unsupported(inst, "this kind of constant is not supported")),
        };
        self.check_composite(inst, &op, ty)?;
        Ok(self.emit_in_prologue(op, ty, Some(id)))
    }

    /// OpSpecConstantOp: integer and boolean scalars are evaluated now;
    /// the composite operations become their IR op in the prologue.
    fn spec_constant_op(&mut self, inst: &Instruction) -> Result<Op, FrontendError> {
        if let Some((_, bits)) = scalar_value(&self.info, result_id(inst)?) {
            return Ok(Op::Const(bits));
        }
        let mut ops = Operands::new(inst);
        let opcode = match ops.any("opcode")? {
            Operand::LiteralSpecConstantOpInteger(op) => *op,
            other => return Err(ops.wrong_kind("opcode", other)),
        };
        Ok(match opcode {
            spirv::Op::CompositeExtract => {
                let composite = ops.id("composite")?;
                let composite = self.value(inst, composite)?;
                let indices = ops.rest_literals("index")?;
                Op::CompositeExtract { composite, indices }
            }
            spirv::Op::CompositeInsert => {
                let object = ops.id("object")?;
                let object = self.value(inst, object)?;
                let composite = ops.id("composite")?;
                let composite = self.value(inst, composite)?;
                let indices = ops.rest_literals("index")?;
                Op::CompositeInsert {
                    object,
                    composite,
                    indices,
                }
            }
            spirv::Op::VectorShuffle => {
                let a = ops.id("vector 1")?;
                let a = self.value(inst, a)?;
                let b = ops.id("vector 2")?;
                let b = self.value(inst, b)?;
                let components = ops.rest_literals("component")?;
                Op::VectorShuffle { a, b, components }
            }
            // Vectors (and anything the evaluation above leaves): the
            // operation itself, which the backend folds.
            other => {
                let mut args = Vec::new();
                while ops.remaining() > 0 {
                    let id = ops.id("operand")?;
                    args.push(self.value(inst, id)?);
                }
                let (unary, binary, compare) = (
                    arith::unary(other),
                    arith::binary(other),
                    arith::compare(other),
                );
                let integer_conversion = matches!(other, spirv::Op::SConvert | spirv::Op::UConvert);
                match *args.as_slice() {
                    [a] if unary.is_some() => Op::Unary(unary.expect("matched"), a),
                    [a] if integer_conversion => {
                        Op::Convert(arith::convert(other).expect("a conversion"), a)
                    }
                    [a, b] if binary.is_some() => Op::Binary(binary.expect("matched"), a, b),
                    [a, b] if compare.is_some() => Op::Cmp(compare.expect("matched"), a, b),
                    _ => {
                        return Err(unsupported(
                            inst,
                            format!(
                                "specialization constant operation Op{other:?} on these operands"
                            ),
                        ));
                    }
                }
            }
        })
    }

    /// The bits of an OpConstant of scalar type `ty`, zero-extended from
    /// the type's width (SPIR-V sign-extends narrow signed literals).
    fn scalar_bits(&self, inst: &Instruction, ty: TypeId) -> Result<u64, FrontendError> {
        let bits = match self.shader.types[ty] {
            Type::Scalar(Scalar::Int { bits, .. } | Scalar::Float { bits }) => bits,
            _ => return Err(malformed(inst, "the type is not a numeric scalar")),
        };
        let literal = match inst.operands.first() {
            Some(Operand::LiteralBit32(v)) => u64::from(*v),
            Some(Operand::LiteralBit64(v)) => *v,
            _ => return Err(malformed(inst, "missing value")),
        };
        Ok(match bits {
            64 => literal,
            n => literal & ((1u64 << n) - 1),
        })
    }

    /// The all-zero value of `ty` (for OpConstantNull `inst`), one per type.
    fn zero(&mut self, inst: &Instruction, ty: TypeId) -> Result<Value, FrontendError> {
        if let Some(&v) = self.zeros.get(&ty) {
            return Ok(v);
        }
        let op = match self.shader.types[ty].clone() {
            Type::Scalar(_) => Op::Const(0),
            Type::Vector { scalar, len } => {
                let scalar_ty = self.intern(Type::Scalar(scalar));
                let z = self.zero(inst, scalar_ty)?;
                Op::CompositeConstruct(vec![z; usize::from(len)])
            }
            Type::Matrix {
                column, columns, ..
            } => {
                let z = self.zero(inst, column)?;
                Op::CompositeConstruct(vec![z; usize::from(columns)])
            }
            Type::Array {
                elem,
                len: Some(len),
                ..
            } if len <= MAX_NULL_ELEMENTS => {
                let z = self.zero(inst, elem)?;
                Op::CompositeConstruct(vec![z; len as usize])
            }
            Type::Struct { members, .. } => {
                let zeros = members
                    .iter()
                    .map(|m| self.zero(inst, m.ty))
                    .collect::<Result<Vec<_>, _>>()?;
                Op::CompositeConstruct(zeros)
            }
            _ => {
                let name = self.shader.type_name(ty);
                return Err(unsupported(inst, format!("a null constant of type {name}")));
            }
        };
        let v = self.emit_in_prologue(op, ty, inst.result_id);
        self.zeros.insert(ty, v);
        Ok(v)
    }
}
