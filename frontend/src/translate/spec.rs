//! Specialization constants: the user's overrides ([`SpecValue`], by
//! SpecId) and the evaluation of OpSpecConstantOp on integer and boolean
//! scalars, which array lengths and workgroup sizes need as numbers.

use super::module_info::ModuleInfo;
use crate::FrontendError;
use rspirv::dr::{Instruction, Operand};
use spirv::Op;
use std::str::FromStr;

/// A value given for a specialization constant (`--spec ID=VALUE`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SpecValue {
    Bool(bool),
    /// An integer, also accepted for float constants (converted).
    Int(i128),
    Float(f64),
}

impl FromStr for SpecValue {
    type Err = String;

    /// `true`, `false`, a decimal or `0x` hexadecimal integer (optionally
    /// negative), or a float (`1.5`, `2e3`, `-0.25`).
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim();
        match t {
            "true" => return Ok(SpecValue::Bool(true)),
            "false" => return Ok(SpecValue::Bool(false)),
            _ => {}
        }
        let (negative, digits) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t),
        };
        let int = match digits
            .strip_prefix("0x")
            .or_else(|| digits.strip_prefix("0X"))
        {
            Some(hex) => i128::from_str_radix(hex, 16).ok(),
            None => digits.parse::<i128>().ok(),
        };
        if let Some(v) = int {
            return Ok(SpecValue::Int(if negative { -v } else { v }));
        }
        t.parse::<f64>()
            .map(SpecValue::Float)
            .map_err(|_| format!("\"{s}\" is not a boolean, integer or float"))
    }
}

/// A scalar type as far as constants care.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum ConstType {
    Bool,
    Int { bits: u32, signed: bool },
    Float { bits: u32 },
}

impl ConstType {
    pub(super) fn of(info: &ModuleInfo, ty: u32) -> Option<ConstType> {
        let def = info.def(ty)?;
        let lit = |i: usize| match def.operands.get(i) {
            Some(Operand::LiteralBit32(v)) => Some(*v),
            _ => None,
        };
        match def.class.opcode {
            Op::TypeBool => Some(ConstType::Bool),
            Op::TypeInt => Some(ConstType::Int {
                bits: lit(0)?,
                signed: lit(1)? != 0,
            }),
            Op::TypeFloat => Some(ConstType::Float { bits: lit(0)? }),
            _ => None,
        }
    }

    fn bits(self) -> u32 {
        match self {
            ConstType::Bool => 1,
            ConstType::Int { bits, .. } | ConstType::Float { bits } => bits,
        }
    }

    fn mask(self, v: u64) -> u64 {
        match self.bits() {
            b if b >= 64 => v,
            b => v & ((1u64 << b) - 1),
        }
    }

    fn sign_extend(self, v: u64) -> i64 {
        let b = self.bits().clamp(1, 64);
        let shift = 64 - b;
        ((v << shift) as i64) >> shift
    }
}

/// The bits (zero-extended to 64) that `value` gives a constant of type
/// `ty`, for SpecId `spec_id`.
pub(super) fn override_bits(
    spec_id: u32,
    ty: ConstType,
    value: SpecValue,
) -> Result<u64, FrontendError> {
    let bad = |what: String| FrontendError::Specialization { spec_id, what };
    Ok(match (ty, value) {
        (ConstType::Bool, SpecValue::Bool(b)) => u64::from(b),
        (ConstType::Bool, SpecValue::Int(v @ (0 | 1))) => v as u64,
        (ConstType::Int { bits, signed }, SpecValue::Int(v)) => {
            let (min, max) = if signed {
                (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
            } else {
                (0, (1i128 << bits) - 1)
            };
            if v < min || v > max {
                return Err(bad(format!(
                    "{v} does not fit a {bits}-bit {} integer",
                    if signed { "signed" } else { "unsigned" }
                )));
            }
            ty.mask(v as u64)
        }
        (ConstType::Float { bits }, SpecValue::Int(v)) => float_bits(bits, v as f64, &bad)?,
        (ConstType::Float { bits }, SpecValue::Float(f)) => float_bits(bits, f, &bad)?,
        (ty, value) => return Err(bad(format!("{value:?} is not a value of type {ty:?}"))),
    })
}

fn float_bits(
    bits: u32,
    f: f64,
    bad: &dyn Fn(String) -> FrontendError,
) -> Result<u64, FrontendError> {
    match bits {
        32 => Ok(u64::from((f as f32).to_bits())),
        64 => Ok(f.to_bits()),
        _ => Err(bad(format!(
            "{bits}-bit float constants cannot be specialized"
        ))),
    }
}

/// How deep OpSpecConstantOp operands may nest before evaluation gives up
/// (a guard against cycles and adversarial depth).
const MAX_DEPTH: u32 = 64;

/// The value of the integer or boolean scalar constant `id` (OpConstant*,
/// OpSpecConstant* with overrides applied, OpSpecConstantOp evaluated).
pub(super) fn scalar_value(info: &ModuleInfo, id: u32) -> Option<(ConstType, u64)> {
    eval(info, id, 0)
}

fn eval(info: &ModuleInfo, id: u32, depth: u32) -> Option<(ConstType, u64)> {
    if depth > MAX_DEPTH {
        return None;
    }
    let inst = info.def(id)?;
    let ty = ConstType::of(info, inst.result_type?)?;
    let bits = match inst.class.opcode {
        Op::ConstantTrue => 1,
        Op::ConstantFalse | Op::ConstantNull => 0,
        Op::SpecConstantTrue | Op::SpecConstantFalse | Op::SpecConstant => {
            match info.spec_override(id) {
                Some(bits) => bits,
                None => literal(inst, ty)?,
            }
        }
        Op::Constant => literal(inst, ty)?,
        Op::SpecConstantOp => spec_op(info, inst, ty, depth)?,
        _ => return None,
    };
    Some((ty, ty.mask(bits)))
}

/// A scalar CompositeExtract of a constant composite (glslang's
/// `gl_WorkGroupSize.x` with local_size_x_id, used in array lengths):
/// `operands` are the composite and the literal indices.
fn extract(info: &ModuleInfo, operands: &[Operand], depth: u32) -> Option<u64> {
    let Some(&Operand::IdRef(mut id)) = operands.first() else {
        return None;
    };
    for index in &operands[1..] {
        let Operand::LiteralBit32(index) = index else {
            return None;
        };
        let composite = info.def(id)?;
        match composite.class.opcode {
            Op::ConstantComposite | Op::SpecConstantComposite => {
                let Operand::IdRef(part) = composite.operands.get(*index as usize)? else {
                    return None;
                };
                id = *part;
            }
            _ => return None,
        }
    }
    eval(info, id, depth + 1).map(|(_, v)| v)
}

/// The literal of an OpConstant / OpSpecConstant / Op*True / Op*False.
fn literal(inst: &Instruction, ty: ConstType) -> Option<u64> {
    match inst.class.opcode {
        Op::SpecConstantTrue => return Some(1),
        Op::SpecConstantFalse => return Some(0),
        _ => {}
    }
    match inst.operands.first()? {
        Operand::LiteralBit32(v) => Some(ty.mask(u64::from(*v))),
        Operand::LiteralBit64(v) => Some(*v),
        _ => None,
    }
}

fn spec_op(info: &ModuleInfo, inst: &Instruction, ty: ConstType, depth: u32) -> Option<u64> {
    let Some(Operand::LiteralSpecConstantOpInteger(op)) = inst.operands.first() else {
        return None;
    };
    if *op == Op::CompositeExtract {
        return extract(info, &inst.operands[1..], depth);
    }
    let args = inst.operands[1..]
        .iter()
        .map(|o| match o {
            Operand::IdRef(id) => eval(info, *id, depth + 1),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    let arg = |i: usize| args.get(i).copied();
    let (at, a) = arg(0)?;
    let s = |t: ConstType, v: u64| t.sign_extend(v);
    let b = || arg(1).map(|(_, v)| v);
    let sb = || arg(1).map(|(t, v)| s(t, v));
    let shift = |v: u64| u32::try_from(v).ok().filter(|&n| n < 64);
    let bool_of = |c: bool| u64::from(c);
    Some(match op {
        Op::SConvert => s(at, a) as u64,
        Op::UConvert => a,
        Op::SNegate => (s(at, a)).wrapping_neg() as u64,
        Op::Not => !a,
        Op::IAdd => a.wrapping_add(b()?),
        Op::ISub => a.wrapping_sub(b()?),
        Op::IMul => a.wrapping_mul(b()?),
        Op::UDiv => a.checked_div(b()?)?,
        Op::SDiv => s(at, a).checked_div(sb()?)? as u64,
        Op::UMod => a.checked_rem(b()?)?,
        Op::SRem => s(at, a).checked_rem(sb()?)? as u64,
        Op::SMod => {
            let (x, y) = (s(at, a), sb()?);
            let r = x.checked_rem(y)?;
            (if r != 0 && (r < 0) != (y < 0) {
                r + y
            } else {
                r
            }) as u64
        }
        Op::ShiftRightLogical => a.checked_shr(shift(b()?)?)?,
        Op::ShiftRightArithmetic => (s(at, a) >> shift(b()?)?) as u64,
        Op::ShiftLeftLogical => a.checked_shl(shift(b()?)?)?,
        Op::BitwiseOr | Op::LogicalOr => a | b()?,
        Op::BitwiseXor => a ^ b()?,
        Op::BitwiseAnd | Op::LogicalAnd => a & b()?,
        Op::LogicalNot => bool_of(a == 0),
        Op::LogicalEqual | Op::IEqual => bool_of(a == b()?),
        Op::LogicalNotEqual | Op::INotEqual => bool_of(a != b()?),
        Op::ULessThan => bool_of(a < b()?),
        Op::UGreaterThan => bool_of(a > b()?),
        Op::ULessThanEqual => bool_of(a <= b()?),
        Op::UGreaterThanEqual => bool_of(a >= b()?),
        Op::SLessThan => bool_of(s(at, a) < sb()?),
        Op::SGreaterThan => bool_of(s(at, a) > sb()?),
        Op::SLessThanEqual => bool_of(s(at, a) <= sb()?),
        Op::SGreaterThanEqual => bool_of(s(at, a) >= sb()?),
        Op::Select => {
            if a != 0 {
                b()?
            } else {
                arg(2)?.1
            }
        }
        _ => return None,
    })
    .map(|v| ty.mask(v))
}
