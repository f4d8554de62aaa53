//! GLSL.std.450 pack and unpack of normalised integers and half floats:
//! clamp, scale and round to nearest even (FMNMX, FMUL, FRND, F2I), fields
//! assembled with LEA; unpacking picks a field with PRMT (sign-extended
//! for the signed forms), converts with I2F and divides with the refined
//! division, so unpacked values are the correctly rounded quotients the
//! GLSL specification defines.

use super::math::fconst;
use super::{Comp, Isel};
use crate::isa::{ConvKind, Dst, FloatFmt, Op, OpConv, OpLea, OpLop3, OpPrmt, OpShf, Round, Src};
use spvsass_frontend::ir::MathOp;

impl Isel<'_> {
    fn conv(&mut self, kind: ConvKind, signed: bool, a: Comp) -> Comp {
        let src = self.src_of(a);
        self.alu(Op::Conv(OpConv {
            kind,
            dst: Dst::None,
            src,
            signed,
        }))
    }

    /// `(a << shift) + b` (LEA); the fields do not overlap, so it is `|`.
    fn lea(&mut self, a: Comp, b: Comp, shift: u8) -> Comp {
        let (a, b) = (self.src_of(a), self.src_of(b));
        self.alu(Op::Lea(OpLea {
            dst: Dst::None,
            srcs: [a, b, Src::ZERO],
            shift,
            hi: false,
        }))
    }

    /// Bytes of `x` chosen by a PRMT selector, the other source zero.
    fn prmt(&mut self, x: Comp, sel: u32) -> Comp {
        let a = self.src_of(x);
        self.alu(Op::Prmt(OpPrmt {
            dst: Dst::None,
            srcs: [a, Src::imm(sel), Src::ZERO],
        }))
    }

    /// One packed field: round(clamp(c, lo, 1) · scale) as an integer of
    /// `bits` bits.
    fn pack_field(&mut self, c: Comp, signed: bool, bits: u8) -> Comp {
        let lo = if signed { -1.0 } else { 0.0 };
        let scale = ((1u32 << (bits - u8::from(signed))) - 1) as f32;
        let t = self.fminmax(c, fconst(lo), false);
        let t = self.fminmax(t, fconst(1.0), true);
        let s = self.fmul(t, fconst(scale));
        let r = self.frnd(Round::Rn, s);
        let i = self.conv(ConvKind::FloatToInt, signed, r);
        if signed {
            let is = self.src_of(i);
            let mask = Src::imm((1u32 << bits) - 1);
            self.lop3(is, mask, Src::ZERO, OpLop3::A & OpLop3::B)
        } else {
            i
        }
    }

    /// PRMT selector of field k of `bytes` bytes, zero- or sign-extended.
    fn field_selector(k: u32, bytes: u32, signed: bool) -> u32 {
        let top = bytes * k + bytes - 1;
        (0..4).fold(0, |sel, n| {
            let nib = if n < bytes {
                bytes * k + n
            } else if signed {
                8 | top
            } else {
                4
            };
            sel | nib << (4 * n)
        })
    }

    pub(super) fn pack(&mut self, op: MathOp, v: &[Vec<Comp>]) -> Vec<Comp> {
        use MathOp as M;
        let x = &v[0];
        match op {
            M::PackUnorm4x8 | M::PackSnorm4x8 | M::PackUnorm2x16 | M::PackSnorm2x16 => {
                let signed = matches!(op, M::PackSnorm4x8 | M::PackSnorm2x16);
                let bits = if x.len() == 4 { 8 } else { 16 };
                let mut acc = self.pack_field(x[0], signed, bits);
                for (k, &c) in x.iter().enumerate().skip(1) {
                    let f = self.pack_field(c, signed, bits);
                    acc = self.lea(f, acc, bits * k as u8);
                }
                vec![acc]
            }
            M::PackHalf2x16 => {
                let lo = self.f2f(x[0], FloatFmt::F16, FloatFmt::F32);
                let hi = self.f2f(x[1], FloatFmt::F16, FloatFmt::F32);
                vec![self.lea(hi, lo, 16)]
            }
            M::UnpackHalf2x16 => {
                let xs = self.src_of(x[0]);
                let hi = self.alu(Op::Shf(OpShf {
                    dst: Dst::None,
                    srcs: [xs, Src::imm(16), Src::ZERO],
                    right: true,
                    wrap: false,
                    high: false,
                }));
                vec![
                    self.f2f(x[0], FloatFmt::F32, FloatFmt::F16),
                    self.f2f(hi, FloatFmt::F32, FloatFmt::F16),
                ]
            }
            _ => {
                let signed = matches!(op, M::UnpackSnorm4x8 | M::UnpackSnorm2x16);
                let (n, bytes) = if matches!(op, M::UnpackSnorm4x8 | M::UnpackUnorm4x8) {
                    (4, 1)
                } else {
                    (2, 2)
                };
                let scale = ((1u32 << (8 * bytes - u32::from(signed))) - 1) as f32;
                (0..n)
                    .map(|k| {
                        let field = self.prmt(x[0], Self::field_selector(k, bytes, signed));
                        let f = self.conv(ConvKind::IntToFloat, signed, field);
                        let q = self.fdiv(f, fconst(scale));
                        if signed {
                            // -128 / 127 and -32768 / 32767 clamp to -1.
                            self.fminmax(q, fconst(-1.0), false)
                        } else {
                            q
                        }
                    })
                    .collect()
            }
        }
    }
}
