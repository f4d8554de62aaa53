//! 16-bit floats: an f16 lives in the low half of a word (LDG.U16 and
//! F2F.F16.F32 leave the high half zero). Arithmetic widens to f32
//! (F2F.F32.F16, exact), computes there and rounds back with F2F.F16.F32:
//! for add, subtract, multiply and square root the f32 result rounded to
//! f16 is the correctly rounded f16 result, since f32 carries at least
//! 2·11 + 2 significand bits; division inherits f32 division's accuracy
//! (docs/ISA.md); fma rounds twice (FFMA then F2F), which Vulkan allows
//! (its fma precision is that of OpFMul followed by OpFAdd). Comparisons
//! and conversions to integers are exact through f32. Sign operations act
//! on bit 15. Transcendental and geometric functions are their f32 forms
//! rounded to f16. Other functions of f16 values (ldexp, frexp, modf) are
//! refused with their SPIR-V opcode and result id. See docs/ISA.md for why HADD2/HMUL2/HFMA2 are not
//! used.

use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{Dst, FloatFmt, Op, OpLop3, Src};
use spvsass_frontend::ir::{BinaryOp, CmpOp, ConvOp, InstData, MathOp, Scalar, UnaryOp};

pub(super) const F16: Scalar = Scalar::Float { bits: 16 };
const F32: Scalar = Scalar::Float { bits: 32 };

impl Isel<'_> {
    /// An f16 widened to f32 (exact).
    pub(super) fn convert_f16_f32(&mut self, h: Comp) -> Comp {
        self.f2f(h, FloatFmt::F32, FloatFmt::F16)
    }

    /// An f32 rounded to f16 (to nearest even).
    pub(super) fn round_f16(&mut self, x: Comp) -> Comp {
        self.f2f(x, FloatFmt::F16, FloatFmt::F32)
    }

    fn sign_op(&mut self, op: UnaryOp, h: Comp) -> Comp {
        let (m, lut) = if op == UnaryOp::FNeg {
            (0x8000, OpLop3::A ^ OpLop3::B)
        } else {
            (0x7fff, OpLop3::A & OpLop3::B)
        };
        let s = self.src_of(h);
        self.alu(Op::Lop3(OpLop3 {
            dst: Dst::None,
            srcs: [s, Src::imm(m), Src::ZERO],
            lut,
        }))
    }

    pub(super) fn f16_binary(
        &mut self,
        op: BinaryOp,
        x: &[Comp],
        y: &[Comp],
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        if !matches!(
            op,
            BinaryOp::FAdd
                | BinaryOp::FSub
                | BinaryOp::FMul
                | BinaryOp::FDiv
                | BinaryOp::FRem
                | BinaryOp::FMod
                | BinaryOp::FMin
                | BinaryOp::FMax
        ) {
            return Err(self.unsupported(format!("16-bit float {op:?}"), inst));
        }
        let mut out = Vec::with_capacity(x.len());
        for (&a, &b) in x.iter().zip(y) {
            let (a, b) = (self.convert_f16_f32(a), self.convert_f16_f32(b));
            let r = self.binary(op, a, b, inst)?;
            out.push(self.round_f16(r));
        }
        Ok(out)
    }

    pub(super) fn f16_compare(&mut self, op: CmpOp, x: &[Comp], y: &[Comp]) -> Vec<Comp> {
        let mut out = Vec::with_capacity(x.len());
        for (&a, &b) in x.iter().zip(y) {
            let (a, b) = (self.convert_f16_f32(a), self.convert_f16_f32(b));
            out.push(self.compare(op, a, b));
        }
        out
    }

    pub(super) fn f16_unary(
        &mut self,
        op: UnaryOp,
        x: &[Comp],
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let mut out = Vec::with_capacity(x.len());
        for &a in x {
            out.push(match op {
                UnaryOp::FNeg | UnaryOp::FAbs => self.sign_op(op, a),
                UnaryOp::FFloor
                | UnaryOp::FCeil
                | UnaryOp::FTrunc
                | UnaryOp::FRound
                | UnaryOp::FFract
                | UnaryOp::FSqrt
                | UnaryOp::FRsqrt
                | UnaryOp::FExp2
                | UnaryOp::FLog2
                | UnaryOp::FSin
                | UnaryOp::FCos => {
                    let f = self.convert_f16_f32(a);
                    let r = self.unary(op, f, inst)?;
                    self.round_f16(r)
                }
                _ => return Err(self.unsupported(format!("16-bit float {op:?}"), inst)),
            });
        }
        Ok(out)
    }

    /// Conversions with an f16 side and no f64 side: through f32.
    pub(super) fn f16_convert(
        &mut self,
        op: ConvOp,
        x: &[Comp],
        from: Scalar,
        to: Scalar,
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let mut out = Vec::with_capacity(x.len());
        for &c in x {
            let wide = if from == F16 {
                self.convert_f16_f32(c)
            } else {
                c
            };
            let (op32, from32, to32) = match op {
                ConvOp::FToF => (ConvOp::Bitcast, F32, F32),
                other => (
                    other,
                    if from == F16 { F32 } else { from },
                    if to == F16 { F32 } else { to },
                ),
            };
            let r = self.convert(op32, wide, from32, to32, inst)?;
            out.push(if to == F16 { self.round_f16(r) } else { r });
        }
        Ok(out)
    }

    /// Functions of f16 values computed in f32, each result component
    /// rounded to f16: fma, min, max and clamp (exact but for fma's second
    /// rounding), the geometric functions and the transcendental ones (as
    /// accurate as their f32 forms, docs/ISA.md, then rounded: within
    /// Vulkan's f16 bounds, which are those of f32 or looser). Functions
    /// with integer or struct operands (ldexp, frexp, modf) are refused.
    pub(super) fn f16_math(
        &mut self,
        op: MathOp,
        args: &[Vec<Comp>],
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        use MathOp as M;
        let geometric = matches!(
            op,
            M::Dot
                | M::Length
                | M::Distance
                | M::Normalize
                | M::Cross
                | M::Reflect
                | M::Refract
                | M::FaceForward
        );
        if geometric {
            let wide: Vec<Vec<Comp>> = args
                .iter()
                .map(|a| a.iter().map(|&c| self.convert_f16_f32(c)).collect())
                .collect();
            let r = self.geometric(op, &wide, inst)?;
            return Ok(r.into_iter().map(|c| self.round_f16(c)).collect());
        }
        if !matches!(
            op,
            M::Fma
                | M::NMin
                | M::NMax
                | M::FClamp
                | M::NClamp
                | M::FSign
                | M::Radians
                | M::Degrees
                | M::Tan
                | M::Asin
                | M::Acos
                | M::Atan
                | M::Sinh
                | M::Cosh
                | M::Tanh
                | M::Asinh
                | M::Acosh
                | M::Atanh
                | M::Atan2
                | M::Pow
                | M::Exp
                | M::Log
                | M::FMix
                | M::Step
                | M::SmoothStep
        ) {
            return Err(self.unsupported(format!("16-bit float {op:?}"), inst));
        }
        // A scalar operand applies to every component.
        let n = args.iter().map(Vec::len).max().unwrap_or(0);
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let mut x = Vec::with_capacity(args.len());
            for a in args {
                let c = a[if a.len() == 1 { 0 } else { i }];
                x.push(self.convert_f16_f32(c));
            }
            let r = self.math_scalar(op, &x, inst)?;
            out.push(self.round_f16(r));
        }
        Ok(out)
    }
}
