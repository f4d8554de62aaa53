//! GLSL.std.450 integer functions on 64-bit integers (SAbs, SSign, SClamp,
//! UClamp) and conversions from a float to a 64-bit integer, built from
//! the 64-bit pieces of wide_int.rs and the double ops of float64.rs.
//!
//! - SAbs: `x < 0 ? 0 - x : x` on the pair; the minimum stays the minimum
//!   (two's complement, as the interpreter's `wrapping_abs`).
//! - SSign: -1, 0 or 1 from the signed compares with zero.
//! - SClamp / UClamp: `min(max(x, lo), hi)` with the 64-bit min and max.
//! - f32 (or f16, through f32) to i64/u64: F2F.F64.F32 widens exactly,
//!   then F2I.S64/U64.F64.TRUNC truncates: the result equals truncating
//!   the narrower float. Out of range SPIR-V leaves the result undefined
//!   (the reference interpreter reports it); F2I saturates and gives 0 for
//!   NaN (docs/ISA.md).
//! - i64/u64 to f16: every magnitude from 65520 up rounds to infinity, so
//!   the value is first clamped to ±2^17 (still infinite), then converted
//!   from its low word to f32 exactly and rounded once to f16.

use super::{Comp, Isel};
use crate::error::BackendError;
use spvsass_frontend::ir::{BinaryOp, CmpOp, ConvOp, InstData, MathOp, Scalar};

impl Isel<'_> {
    /// `p ? a : b` on one word, folded when `p` is a constant.
    fn pick_word(&mut self, p: Comp, a: Comp, b: Comp) -> Comp {
        match p {
            Comp::Bool(true) => a,
            Comp::Bool(false) => b,
            _ => {
                let (x, y) = (self.src_of(a), self.src_of(b));
                self.select(p, x, y)
            }
        }
    }

    /// A GLSL.std.450 function whose operands and result are 64-bit
    /// integers (`args`: each operand's words, pairs low word first).
    pub(super) fn wide_math(
        &mut self,
        op: MathOp,
        args: &[Vec<Comp>],
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let zero = [Comp::Const(0); 2];
        let n = args.first().map_or(0, |a| a.len() / 2);
        let mut out = Vec::with_capacity(2 * n);
        for i in 0..n {
            let pair = |k: usize| [args[k][2 * i], args[k][2 * i + 1]];
            let x = pair(0);
            match op {
                MathOp::SAbs => {
                    let neg = self.wide_binary(BinaryOp::ISub, &zero, &x, inst)?;
                    let p = self.wide_compare(CmpOp::SLt, &x, &zero, inst)?[0];
                    for k in 0..2 {
                        out.push(self.pick_word(p, neg[k], x[k]));
                    }
                }
                MathOp::SSign => {
                    let below = self.wide_compare(CmpOp::SLt, &x, &zero, inst)?[0];
                    let above = self.wide_compare(CmpOp::SGt, &x, &zero, inst)?[0];
                    let minus = Comp::Const(u32::MAX);
                    let hi = self.pick_word(below, minus, Comp::Const(0));
                    let lo = self.pick_word(above, Comp::Const(1), hi);
                    out.extend([lo, hi]);
                }
                MathOp::SClamp | MathOp::UClamp => {
                    let (max, min) = if op == MathOp::SClamp {
                        (BinaryOp::SMax, BinaryOp::SMin)
                    } else {
                        (BinaryOp::UMax, BinaryOp::UMin)
                    };
                    let (lo, hi) = (pair(1), pair(2));
                    let m = self.wide_binary(max, &x, &lo, inst)?;
                    out.extend(self.wide_binary(min, &m, &hi, inst)?);
                }
                _ => return Err(self.unsupported(format!("64-bit {op:?}"), inst)),
            }
        }
        Ok(out)
    }

    /// OpConvertSToF / OpConvertUToF from a 64-bit integer to f16.
    pub(super) fn wide_int_to_f16(
        &mut self,
        x: &[Comp],
        signed: bool,
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        const LIMIT: u32 = 1 << 17;
        let (i32_, f32_) = (Scalar::I32, Scalar::Float { bits: 32 });
        let mut out = Vec::with_capacity(x.len() / 2);
        for p in x.chunks_exact(2) {
            let high = [Comp::Const(LIMIT), Comp::Const(0)];
            let clamped = if signed {
                let low = [Comp::Const(LIMIT.wrapping_neg()), Comp::Const(u32::MAX)];
                let m = self.wide_binary(BinaryOp::SMax, p, &low, inst)?;
                self.wide_binary(BinaryOp::SMin, &m, &high, inst)?
            } else {
                self.wide_binary(BinaryOp::UMin, p, &high, inst)?
            };
            let f = self.convert(ConvOp::SToF, clamped[0], i32_, f32_, inst)?;
            out.push(self.round_f16(f));
        }
        Ok(out)
    }

    /// OpConvertFToS / OpConvertFToU from f32 or f16 to a 64-bit integer.
    pub(super) fn float_to_wide_int(
        &mut self,
        x: &[Comp],
        from: Scalar,
        signed: bool,
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let mut out = Vec::with_capacity(2 * x.len());
        for &c in x {
            let f = match from {
                Scalar::Float { bits: 16 } => self.convert_f16_f32(c),
                Scalar::Float { bits: 32 } => c,
                _ => {
                    return Err(
                        self.unsupported(format!("conversions from {from} to 64 bits"), inst)
                    );
                }
            };
            out.extend(self.f32_to_int64(f, signed));
        }
        Ok(out)
    }
}
