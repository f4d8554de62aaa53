//! Scalar arithmetic with SPIR-V semantics. Integers are wrapped to their
//! width; floats are IEEE 754 with round-to-nearest-even (halves computed
//! in f32 and rounded once, transcendental functions in f64 and rounded
//! once). Operations whose result SPIR-V leaves undefined report it.

use crate::value::{mask, sext};
use half::f16;
use spvsass_frontend::ir::{BinaryOp, CmpOp, ConvOp, Scalar, UnaryOp};

/// Why a scalar operation produced no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalErr {
    /// SPIR-V leaves the result undefined (division by zero, shift by the
    /// width or more, an out-of-range float conversion...).
    Undefined(String),
    Unsupported(String),
}

pub type R = Result<u64, EvalErr>;

fn undefined(what: impl Into<String>) -> EvalErr {
    EvalErr::Undefined(what.into())
}

/// A float of `bits` bits, widened to f64 exactly.
pub fn to_f64(v: u64, bits: u8) -> f64 {
    match bits {
        16 => f16::from_bits(v as u16).to_f64(),
        32 => f64::from(f32::from_bits(v as u32)),
        _ => f64::from_bits(v),
    }
}

/// `x` rounded once to a float of `bits` bits.
pub fn from_f64(x: f64, bits: u8) -> u64 {
    match bits {
        16 => u64::from(f16::from_f64(x).to_bits()),
        32 => u64::from((x as f32).to_bits()),
        _ => x.to_bits(),
    }
}

/// Applies a correctly rounded binary operation at the float's width:
/// f32 and f64 natively, f16 through f32 (exact for +, −, ×, ÷, √).
fn fbin(a: u64, b: u64, bits: u8, f32op: fn(f32, f32) -> f32, f64op: fn(f64, f64) -> f64) -> u64 {
    match bits {
        16 => {
            let r = f32op(
                f16::from_bits(a as u16).to_f32(),
                f16::from_bits(b as u16).to_f32(),
            );
            u64::from(f16::from_f32(r).to_bits())
        }
        32 => u64::from(f32op(f32::from_bits(a as u32), f32::from_bits(b as u32)).to_bits()),
        _ => f64op(f64::from_bits(a), f64::from_bits(b)).to_bits(),
    }
}

fn fun(a: u64, bits: u8, f32op: fn(f32) -> f32, f64op: fn(f64) -> f64) -> u64 {
    match bits {
        16 => u64::from(f16::from_f32(f32op(f16::from_bits(a as u16).to_f32())).to_bits()),
        32 => u64::from(f32op(f32::from_bits(a as u32)).to_bits()),
        _ => f64op(f64::from_bits(a)).to_bits(),
    }
}

/// A function computed in f64 and rounded once to the float's width.
pub fn fwide(a: u64, bits: u8, f: fn(f64) -> f64) -> u64 {
    from_f64(f(to_f64(a, bits)), bits)
}

pub fn is_nan(v: u64, bits: u8) -> bool {
    to_f64(v, bits).is_nan()
}

fn int_bits(s: Scalar) -> u8 {
    match s {
        Scalar::Bool => 1,
        Scalar::Int { bits, .. } | Scalar::Float { bits } => bits,
    }
}

pub fn unary(op: UnaryOp, s: Scalar, a: u64) -> R {
    let bits = int_bits(s);
    if let UnaryOp::FSqrt | UnaryOp::FRsqrt | UnaryOp::FLog2 = op {
        let x = to_f64(a, bits);
        let ok = if op == UnaryOp::FRsqrt {
            x > 0.0
        } else {
            x >= 0.0
        };
        if !ok {
            return Err(undefined(format!("{op:?} of {x} (outside its domain)")));
        }
    }
    let m = mask(bits);
    Ok(match op {
        UnaryOp::INeg => a.wrapping_neg() & m,
        UnaryOp::Not => !a & m,
        UnaryOp::LogicalNot => u64::from(a == 0),
        UnaryOp::BitCount => u64::from((a & m).count_ones()),
        UnaryOp::BitReverse => (a & m).reverse_bits() >> (64 - u32::from(bits)),
        UnaryOp::FNeg => a ^ (1u64 << (bits - 1)),
        UnaryOp::FAbs => a & !(1u64 << (bits - 1)),
        UnaryOp::FFloor => fun(a, bits, f32::floor, f64::floor),
        UnaryOp::FCeil => fun(a, bits, f32::ceil, f64::ceil),
        UnaryOp::FTrunc => fun(a, bits, f32::trunc, f64::trunc),
        UnaryOp::FRound => fun(a, bits, f32::round_ties_even, f64::round_ties_even),
        UnaryOp::FFract => fun(a, bits, |x| x - x.floor(), |x| x - x.floor()),
        UnaryOp::FSqrt => fun(a, bits, f32::sqrt, f64::sqrt),
        UnaryOp::FRsqrt => fwide(a, bits, |x| 1.0 / x.sqrt()),
        UnaryOp::FExp2 => fwide(a, bits, libm::exp2),
        UnaryOp::FLog2 => fwide(a, bits, libm::log2),
        UnaryOp::FSin => fwide(a, bits, libm::sin),
        UnaryOp::FCos => fwide(a, bits, libm::cos),
    })
}

pub fn binary(op: BinaryOp, s: Scalar, a: u64, b: u64) -> R {
    let bits = int_bits(s);
    let m = mask(bits);
    let (sa, sb) = (sext(a, bits), sext(b, bits));
    let min_signed = 1u64 << (bits - 1);
    Ok(match op {
        BinaryOp::IAdd => a.wrapping_add(b) & m,
        BinaryOp::ISub => a.wrapping_sub(b) & m,
        BinaryOp::IMul => a.wrapping_mul(b) & m,
        BinaryOp::UDiv | BinaryOp::UMod => {
            if b & m == 0 {
                return Err(undefined("integer division by zero"));
            }
            if op == BinaryOp::UDiv {
                (a & m) / (b & m)
            } else {
                (a & m) % (b & m)
            }
        }
        BinaryOp::SDiv | BinaryOp::SRem | BinaryOp::SMod => {
            if b & m == 0 {
                return Err(undefined("integer division by zero"));
            }
            if a & m == min_signed && b & m == m {
                return Err(undefined("signed division of the minimum by -1"));
            }
            let r = match op {
                BinaryOp::SDiv => sa.wrapping_div(sb),
                BinaryOp::SRem => sa.wrapping_rem(sb),
                // The sign of the divisor.
                _ => {
                    let r = sa.wrapping_rem(sb);
                    if r != 0 && ((r < 0) != (sb < 0)) {
                        r + sb
                    } else {
                        r
                    }
                }
            };
            (r as u64) & m
        }
        BinaryOp::FAdd => fbin(a, b, bits, |x, y| x + y, |x, y| x + y),
        BinaryOp::FSub => fbin(a, b, bits, |x, y| x - y, |x, y| x - y),
        BinaryOp::FMul => fbin(a, b, bits, |x, y| x * y, |x, y| x * y),
        BinaryOp::FDiv => fbin(a, b, bits, |x, y| x / y, |x, y| x / y),
        BinaryOp::FRem => fbin(a, b, bits, |x, y| x % y, |x, y| x % y),
        // x - y * floor(x / y), GLSL's mod.
        BinaryOp::FMod => {
            let (x, y) = (to_f64(a, bits), to_f64(b, bits));
            from_f64(x - y * (x / y).floor(), bits)
        }
        BinaryOp::And => a & b & m,
        BinaryOp::Or => (a | b) & m,
        BinaryOp::Xor => (a ^ b) & m,
        BinaryOp::Shl | BinaryOp::ShrLogical | BinaryOp::ShrArithmetic => {
            if b >= u64::from(bits) {
                return Err(undefined(format!("shift by {b} of a {bits}-bit value")));
            }
            match op {
                BinaryOp::Shl => (a << b) & m,
                BinaryOp::ShrLogical => (a & m) >> b,
                _ => ((sa >> b) as u64) & m,
            }
        }
        BinaryOp::LogicalAnd => u64::from(a != 0 && b != 0),
        BinaryOp::LogicalOr => u64::from(a != 0 || b != 0),
        BinaryOp::UMin => a.min(b),
        BinaryOp::UMax => a.max(b),
        BinaryOp::SMin => (sa.min(sb) as u64) & m,
        BinaryOp::SMax => (sa.max(sb) as u64) & m,
        BinaryOp::FMin | BinaryOp::FMax => {
            let (x, y) = (to_f64(a, bits), to_f64(b, bits));
            if x.is_nan() || y.is_nan() {
                return Err(undefined("FMin/FMax of a NaN"));
            }
            // GLSL.std.450: y if x < y (FMin: y < x), otherwise x, with
            // -0 ordered below +0 (`zero_ordered_lt`).
            let pick_b = if op == BinaryOp::FMin {
                zero_ordered_lt(y, x)
            } else {
                zero_ordered_lt(x, y)
            };
            if pick_b { b } else { a }
        }
    })
}

/// `x < y` with -0 below +0, the order FMin, FMax and FClamp use.
/// GLSL.std.450 returns x for operands that compare equal, so
/// FMax(-0, +0) would be -0; the sign of a zero is not significant unless
/// a shader declares SignedZeroInfNanPreserve, and FMNMX orders -0 below
/// +0, so the interpreter takes that order: both conform, and this one is
/// what the compiled code computes (docs/ISA.md, "Float functions").
pub fn zero_ordered_lt(x: f64, y: f64) -> bool {
    x < y || (x == 0.0 && y == 0.0 && x.is_sign_negative() && y.is_sign_positive())
}

pub fn cmp(op: CmpOp, s: Scalar, a: u64, b: u64) -> bool {
    let bits = int_bits(s);
    let (sa, sb) = (sext(a, bits), sext(b, bits));
    let (fa, fb) = (to_f64(a, bits), to_f64(b, bits));
    let unord = fa.is_nan() || fb.is_nan();
    match op {
        CmpOp::IEq | CmpOp::LogicalEq => a == b,
        CmpOp::INe | CmpOp::LogicalNe => a != b,
        CmpOp::ULt => a < b,
        CmpOp::ULe => a <= b,
        CmpOp::UGt => a > b,
        CmpOp::UGe => a >= b,
        CmpOp::SLt => sa < sb,
        CmpOp::SLe => sa <= sb,
        CmpOp::SGt => sa > sb,
        CmpOp::SGe => sa >= sb,
        CmpOp::FOrdEq => fa == fb,
        CmpOp::FOrdNe => !unord && fa != fb,
        CmpOp::FOrdLt => fa < fb,
        CmpOp::FOrdLe => fa <= fb,
        CmpOp::FOrdGt => fa > fb,
        CmpOp::FOrdGe => fa >= fb,
        CmpOp::FUnordEq => unord || fa == fb,
        CmpOp::FUnordNe => fa != fb,
        CmpOp::FUnordLt => unord || fa < fb,
        CmpOp::FUnordLe => unord || fa <= fb,
        CmpOp::FUnordGt => unord || fa > fb,
        CmpOp::FUnordGe => unord || fa >= fb,
    }
}

/// A conversion from scalar `from` to scalar `to` (pointer conversions are
/// the executor's).
pub fn convert(op: ConvOp, from: Scalar, to: Scalar, a: u64) -> R {
    let fb = int_bits(from);
    let tb = int_bits(to);
    let tm = mask(tb);
    Ok(match op {
        ConvOp::UToF => from_f64_u(a & mask(fb), tb),
        ConvOp::SToF => from_f64_i(sext(a, fb), tb),
        ConvOp::FToU | ConvOp::FToS => {
            let x = to_f64(a, fb).trunc();
            let signed = op == ConvOp::FToS;
            let (lo, hi) = if signed {
                (
                    -(2f64.powi(i32::from(tb) - 1)),
                    2f64.powi(i32::from(tb) - 1),
                )
            } else {
                (0.0, 2f64.powi(i32::from(tb)))
            };
            if x.is_nan() || x < lo || x >= hi {
                return Err(undefined(format!(
                    "float {} out of range of a {tb}-bit integer",
                    to_f64(a, fb)
                )));
            }
            (if signed { (x as i64) as u64 } else { x as u64 }) & tm
        }
        ConvOp::FToF => from_f64(to_f64(a, fb), tb),
        ConvOp::UConvert => a & mask(fb) & tm,
        ConvOp::SConvert => (sext(a, fb) as u64) & tm,
        ConvOp::Bitcast => a & tm,
        ConvOp::UToPtr | ConvOp::PtrToU => {
            return Err(EvalErr::Unsupported(
                "pointer conversion of a scalar".into(),
            ));
        }
    })
}

/// An unsigned integer rounded once to a float of `bits` bits.
fn from_f64_u(v: u64, bits: u8) -> u64 {
    match bits {
        16 => u64::from(f16::from_f32(v as f32).to_bits()),
        32 => u64::from((v as f32).to_bits()),
        _ => (v as f64).to_bits(),
    }
}

fn from_f64_i(v: i64, bits: u8) -> u64 {
    match bits {
        16 => u64::from(f16::from_f32(v as f32).to_bits()),
        32 => u64::from((v as f32).to_bits()),
        _ => (v as f64).to_bits(),
    }
}
