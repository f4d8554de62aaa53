//! Integer functions of the Math family and the bit ops: bit-field insert
//! and extract (BMSK, SHF, SGXT), bit counts and reversal (POPC, BREV,
//! FLO), absolute value, sign and clamps (IMNMX), the arithmetic right
//! shift, and the extended results (carries, high products).

use super::{Comp, Isel};
use crate::isa::{
    BitOp, Dst, IntCmp, Op, OpBit, OpBmsk, OpIAdd3, OpIMad, OpIMadWide, OpIMnMx, OpLop3, OpSgxt,
    OpShf, PredSrc, Src,
};
use spvsass_frontend::ir::{MathOp, UnaryOp};

impl Isel<'_> {
    pub(super) fn iadd(&mut self, a: Comp, b: Comp) -> Comp {
        let (a, b) = (self.src_of(a), self.src_of(b));
        self.iadd_src(a, b)
    }

    pub(super) fn iadd_src(&mut self, a: Src, b: Src) -> Comp {
        let (a, b) = if matches!(a.src, crate::isa::SrcRef::Imm(_)) {
            (b, a)
        } else {
            (a, b)
        };
        self.alu(Op::IAdd3(OpIAdd3 {
            dst: Dst::None,
            srcs: [a, b, Src::ZERO],
        }))
    }

    /// IMNMX: the minimum (`min`) or maximum, signed or not.
    fn iminmax(&mut self, a: Comp, b: Comp, signed: bool, min: bool) -> Comp {
        let (a, b) = (self.src_of(a), self.src_of(b));
        self.alu(Op::IMnMx(OpIMnMx {
            dst: Dst::None,
            srcs: [a, b],
            signed,
            min: PredSrc {
                reg: None,
                neg: !min,
            },
        }))
    }

    /// A signed clamp to constant bounds.
    pub(super) fn iclamp(&mut self, x: Comp, lo: i32, hi: i32) -> Comp {
        let m = self.iminmax(x, Comp::Const(lo as u32), true, false);
        self.iminmax(m, Comp::Const(hi as u32), true, true)
    }

    pub(super) fn bit_comp(&mut self, op: BitOp, a: Comp) -> Comp {
        let src = self.src_of(a);
        self.alu(Op::Bit(OpBit {
            dst: Dst::None,
            src,
            op,
        }))
    }

    /// OpBitCount and OpBitReverse.
    pub(super) fn bit_unary(&mut self, op: UnaryOp, a: Comp) -> Comp {
        match op {
            UnaryOp::BitCount => self.bit_comp(BitOp::Popc, a),
            _ => self.bit_comp(BitOp::Brev, a),
        }
    }

    /// `a` shifted left or right by `s` (logical; 32 or more gives 0).
    pub(super) fn shift(&mut self, a: Comp, s: Comp, right: bool) -> Comp {
        self.shf(a, s, right)
    }

    /// The high (`high`) or low word of the pair `hi:lo` shifted left by
    /// `s` (at most 32).
    pub(super) fn funnel(&mut self, lo: Comp, s: Comp, hi: Comp, high: bool) -> Comp {
        let (lo, s, hi) = (self.src_of(lo), self.src_of(s), self.src_of(hi));
        self.alu(Op::Shf(OpShf {
            dst: Dst::None,
            srcs: [lo, s, hi],
            right: false,
            wrap: false,
            high,
        }))
    }

    fn shf(&mut self, a: Comp, s: Comp, right: bool) -> Comp {
        let (a, s) = (self.src_of(a), self.src_of(s));
        self.alu(Op::Shf(OpShf {
            dst: Dst::None,
            srcs: [a, s, Src::ZERO],
            right,
            wrap: false,
            high: false,
        }))
    }

    /// Sign- or zero-extends the low `n` bits (SGXT; n = 0 gives 0).
    pub(super) fn sgxt(&mut self, a: Comp, n: Comp, signed: bool) -> Comp {
        let (a, n) = (self.src_of(a), self.src_of(n));
        self.alu(Op::Sgxt(OpSgxt {
            dst: Dst::None,
            srcs: [a, n],
            signed,
        }))
    }

    /// `a >> s` filling with the sign: the logical shift, then the sign
    /// extension of its low 32 - s bits (s ≥ 32 is undefined in SPIR-V;
    /// here it gives 0).
    pub(super) fn shr_arithmetic(&mut self, a: Comp, s: Comp) -> Comp {
        let shifted = self.shf(a, s, true);
        let ss = self.src_of(s);
        let width = self.iadd_src(ss.negated(), Src::imm(32));
        self.sgxt(shifted, width, true)
    }

    /// The component-wise integer Math ops.
    pub(super) fn int_math(&mut self, op: MathOp, x: &[Comp]) -> Comp {
        use MathOp as M;
        match op {
            // max(x, -x): INT_MIN stays INT_MIN, as two's complement says.
            M::SAbs => {
                let xs = self.src_of(x[0]);
                let neg = self.iadd_src(Src::ZERO, xs.negated());
                self.iminmax(x[0], neg, true, false)
            }
            // clamp(x, -1, 1).
            M::SSign => self.iclamp(x[0], -1, 1),
            M::UClamp | M::SClamp => {
                let signed = op == M::SClamp;
                let m = self.iminmax(x[0], x[1], signed, false);
                self.iminmax(m, x[2], signed, true)
            }
            // The lowest set bit is the highest of the reversed word,
            // counted from the top (FLO.SH); 0 gives -1.
            M::FindILsb => {
                let r = self.bit_comp(BitOp::Brev, x[0]);
                self.bit_comp(
                    BitOp::Flo {
                        signed: false,
                        shift: true,
                    },
                    r,
                )
            }
            M::FindUMsb | M::FindSMsb => self.bit_comp(
                BitOp::Flo {
                    signed: op == M::FindSMsb,
                    shift: false,
                },
                x[0],
            ),
            M::BitFieldInsert => {
                // mask = count ones from offset; (insert << offset) under
                // the mask, base elsewhere.
                let (offset, count) = (self.src_of(x[2]), self.src_of(x[3]));
                let mask = self.alu(Op::Bmsk(OpBmsk {
                    dst: Dst::None,
                    srcs: [offset, count],
                    wrap: false,
                }));
                let ins = self.shf(x[1], x[2], false);
                let (ins, mask, base) = (self.src_of(ins), self.src_of(mask), self.src_of(x[0]));
                self.lop3(
                    ins,
                    mask,
                    base,
                    (OpLop3::A & OpLop3::B) | (OpLop3::C & !OpLop3::B),
                )
            }
            M::BitFieldUExtract | M::BitFieldSExtract => {
                let shifted = self.shf(x[0], x[1], true);
                self.sgxt(shifted, x[2], op == M::BitFieldSExtract)
            }
            _ => Comp::Const(0),
        }
    }

    /// The two words of IAddCarry, ISubBorrow, UMulExtended and
    /// SMulExtended: (result, carry / borrow / high word).
    pub(super) fn extended(&mut self, op: MathOp, a: Comp, b: Comp) -> (Comp, Comp) {
        let (sa, sb) = (self.src_of(a), self.src_of(b));
        match op {
            MathOp::IAddCarry => {
                let sum = self.iadd_src(sa, sb);
                let ss = self.src_of(sum);
                // A carry out of a + b leaves a sum below a.
                let p = self.int_cmp(IntCmp::Lt, false, ss, sa);
                (sum, self.csel(p, Comp::Const(1), Comp::Const(0)))
            }
            MathOp::ISubBorrow => {
                let diff = self.iadd_src(sa, sb.negated());
                let p = self.int_cmp(IntCmp::Lt, false, sa, sb);
                (diff, self.csel(p, Comp::Const(1), Comp::Const(0)))
            }
            _ => {
                let signed = op == MathOp::SMulExtended;
                let (sa, sb) = if matches!(sa.src, crate::isa::SrcRef::Imm(_)) {
                    (sb, sa)
                } else {
                    (sa, sb)
                };
                let lo = self.alu(Op::IMad(OpIMad {
                    dst: Dst::None,
                    srcs: [sa, sb, Src::ZERO],
                    signed,
                }));
                let hi = self.alu(Op::IMadWide(OpIMadWide {
                    dst: Dst::None,
                    srcs: [sa, sb, Src::ZERO],
                    signed,
                    hi: true,
                }));
                (lo, hi)
            }
        }
    }
}
