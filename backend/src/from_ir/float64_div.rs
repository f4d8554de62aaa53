//! Double division and square root, correctly rounded, from the MUFU seeds
//! (RCP64H, RSQ64H) and Newton–Raphson steps in DFMA, as nvcc does
//! (tests/data/real_sass/ops64_sm86.nvdisasm.txt, k_double). Where nvcc
//! branches to a slow path for extreme exponents, this code has no branch:
//! operands are scaled to [1, 2) (division) or [1, 4) (square root) by
//! rewriting their exponent field, the core works there, and the result is
//! scaled back by powers of two; zeros, infinities and NaNs take a separate
//! result selected at the end. The core steps (quotient: Markstein's final
//! fma with the exact residual; root: s + r·y/2 with r = x - s²) round once.
//! Known difference from hardware: a quotient below 2^-1022 is scaled into
//! the subnormal range by a second rounding (at most 1 ulp off there).

use super::float64::{D, dconst_comps};
use super::{Comp, Isel};
use crate::isa::{
    Dst, FloatArith, FloatCmp, IntCmp, MufuOp, Op, OpIAdd3, OpIMad, OpIMnMx, OpISetP, OpLop3,
    OpMufu, OpSel, OpShf, PredCombine, PredSrc, Round, Src,
};

const EXP_MASK: u32 = 0x7ff0_0000;
const ONE_HI: u32 = 0x3ff0_0000;

fn d(v: f64) -> D {
    dconst_comps(v.to_bits())
}

impl Isel<'_> {
    fn w_op(&mut self, op: Op) -> Comp {
        self.alu(op)
    }

    fn lop2(&mut self, a: Comp, b: u32, lut: u8) -> Comp {
        let a = self.reg_or_zero(a);
        self.w_op(Op::Lop3(OpLop3 {
            dst: Dst::None,
            srcs: [a, Src::imm(b), Src::ZERO],
            lut,
        }))
    }

    fn and_imm(&mut self, a: Comp, m: u32) -> Comp {
        self.lop2(a, m, OpLop3::A & OpLop3::B)
    }

    fn or_imm(&mut self, a: Comp, m: u32) -> Comp {
        self.lop2(a, m, OpLop3::A | OpLop3::B)
    }

    /// `a + b + c` on words.
    fn add3(&mut self, a: Comp, b: Src, c: Src) -> Comp {
        let a = self.reg_or_zero(a);
        self.w_op(Op::IAdd3(OpIAdd3 {
            dst: Dst::None,
            srcs: [a, b, c],
        }))
    }

    /// The biased exponent (0..2047) of a double's high word.
    fn exponent(&mut self, hi: Comp) -> Comp {
        let h = self.reg_or_zero(hi);
        let s = self.w_op(Op::Shf(OpShf {
            dst: Dst::None,
            srcs: [h, Src::imm(20), Src::ZERO],
            right: true,
            wrap: false,
            high: false,
        }));
        self.and_imm(s, 0x7ff)
    }

    /// `(w == v) || accum` (`accum` false for the compare alone).
    fn word_eq_or(&mut self, w: Comp, v: u32, accum: Comp) -> Comp {
        let w = self.reg_or_zero(w);
        let accum = self.pred(accum).unwrap_or(PredSrc::TRUE);
        self.w_op(Op::ISetP(OpISetP {
            dst: Dst::None,
            cmp: IntCmp::Eq,
            signed: false,
            combine: PredCombine::Or,
            srcs: [w, Src::imm(v)],
            accum,
        }))
    }

    fn wsel(&mut self, cond: Comp, a: Src, b: Src) -> Comp {
        let p = self.pred(cond).unwrap_or(PredSrc::TRUE);
        let a = match a.src {
            crate::isa::SrcRef::Imm(v) => self.reg_or_zero(Comp::Const(v)),
            _ => a,
        };
        self.w_op(Op::Sel(OpSel {
            dst: Dst::None,
            srcs: [a, b],
            cond: p,
        }))
    }

    /// `2^k` for an exponent `k` in [-1022, 1023]: the high word
    /// `(k + 1023) << 20`.
    fn pow2(&mut self, k: Comp) -> D {
        let k = self.reg_or_zero(k);
        let hi = self.w_op(Op::IMad(OpIMad {
            dst: Dst::None,
            srcs: [k, Src::imm(0x10_0000), Src::imm(ONE_HI)],
            signed: true,
        }));
        [Comp::Const(0), hi]
    }

    fn clamp(&mut self, k: Comp, limit: i32) -> Comp {
        let k = self.reg_or_zero(k);
        let mx = |this: &mut Self, a: Src, b: i32, min: bool| {
            let p = PredSrc {
                reg: None,
                neg: !min,
            };
            this.w_op(Op::IMnMx(OpIMnMx {
                dst: Dst::None,
                srcs: [a, Src::imm(b as u32)],
                signed: true,
                min: p,
            }))
        };
        let lo = mx(self, k, -limit, false);
        let lo = self.reg_or_zero(lo);
        mx(self, lo, limit, true)
    }

    /// A finite non-zero double brought to a normal number: subnormals are
    /// multiplied by 2^54. Returns it and the exponent added (0 or 54).
    fn normalized(&mut self, x: D) -> (D, Comp) {
        let e = self.and_imm(x[1], EXP_MASK);
        let sub = self.word_eq_or(e, 0, Comp::Bool(false));
        let zero = [Comp::Const(0); 2];
        let big = self.darith(
            FloatArith::Mul,
            [x, d(2f64.powi(54)), zero],
            false,
            Round::Rn,
        );
        let xn = self.dselect(sub, big, x);
        let adj = self.wsel(sub, Src::imm(54), Src::ZERO);
        (xn, adj)
    }

    /// `x` with its exponent field replaced by `field` (a word to OR in).
    fn with_exponent(&mut self, x: D, field: Comp) -> D {
        let m = self.and_imm(x[1], 0x800f_ffff);
        let hi = match field {
            Comp::Const(v) => self.or_imm(m, v),
            f => {
                let (m, f) = (self.reg_or_zero(m), self.src_of(f));
                self.w_op(Op::Lop3(OpLop3 {
                    dst: Dst::None,
                    srcs: [m, f, Src::ZERO],
                    lut: OpLop3::A | OpLop3::B,
                }))
            }
        };
        [x[0], hi]
    }

    fn mufu64h(&mut self, op: MufuOp, hi: Comp) -> D {
        let src = self.reg_or_zero(hi);
        let r = self.w_op(Op::Mufu(OpMufu {
            dst: Dst::None,
            src,
            op,
        }));
        [Comp::Const(0), r]
    }

    fn fma(&mut self, a: D, b: D, neg_b: bool, c: D) -> D {
        self.darith(FloatArith::Fma, [a, b, c], neg_b, Round::Rn)
    }

    fn mul(&mut self, a: D, b: D) -> D {
        let zero = [Comp::Const(0); 2];
        self.darith(FloatArith::Mul, [a, b, zero], false, Round::Rn)
    }

    /// `a / b`, correctly rounded (but for subnormal quotients, above).
    pub(super) fn ddiv(&mut self, a: D, b: D) -> D {
        let one = d(1.0);
        // Zeros, infinities and NaNs: a · (1/b), where 1/b is exact for a
        // special b (RCP64H of ±0 is ±inf, of ±inf ±0) and ±1 otherwise.
        let yes = Comp::Bool(true);
        let (ea, eb) = (self.and_imm(a[1], EXP_MASK), self.and_imm(b[1], EXP_MASK));
        let b_zero = self.dsetp(
            FloatCmp::OrdEq,
            b,
            [Comp::Const(0); 2],
            PredCombine::And,
            yes,
        );
        let b_special = self.word_eq_or(eb, EXP_MASK, b_zero);
        let a_zero = self.dsetp(
            FloatCmp::OrdEq,
            a,
            [Comp::Const(0); 2],
            PredCombine::Or,
            b_special,
        );
        let special = self.word_eq_or(ea, EXP_MASK, a_zero);
        let rcp_b = self.mufu64h(MufuOp::Rcp64h, b[1]);
        let sign_b = self.and_imm(b[1], 0x8000_0000);
        let unit_b = self.or_imm(sign_b, ONE_HI);
        let y_special = self.dselect(b_special, rcp_b, [Comp::Const(0), unit_b]);
        let special_q = self.mul(a, y_special);

        // Both finite and non-zero: a = a'·2^ka, b = b'·2^kb, a', b' in [1, 2).
        let (an, adj_a) = self.normalized(a);
        let (bn, adj_b) = self.normalized(b);
        let (ka, kb) = (self.exponent(an[1]), self.exponent(bn[1]));
        let a1 = self.with_exponent(an, Comp::Const(ONE_HI));
        let b1 = self.with_exponent(bn, Comp::Const(ONE_HI));
        let adj_a = self.src_of(adj_a);
        let kd = self.add3(ka, adj_a.negated(), Src::ZERO);
        let (kb, adj_b) = (self.src_of(kb), self.src_of(adj_b));
        let k = self.add3(kd, kb.negated(), adj_b);

        // 1/b' from the seed: e = 1 - b'y0, y1 = y0 + y0(e + e²), then one
        // more step; q = a'y2 and Markstein's q + y2(a' - b'q).
        let y0 = self.mufu64h(MufuOp::Rcp64h, b1[1]);
        let e = self.fma(y0, b1, true, one);
        let e = self.fma(e, e, false, e);
        let y1 = self.fma(y0, e, false, y0);
        let e = self.fma(y1, b1, true, one);
        let y2 = self.fma(y1, e, false, y1);
        let q0 = self.mul(a1, y2);
        let r = self.fma(q0, b1, true, a1);
        let q = self.fma(y2, r, false, q0);

        // q·2^k in two exact-or-final steps (k is within ±2100).
        let k1 = self.clamp(k, 1000);
        let k1s = self.src_of(k1);
        let rest = self.add3(k, k1s.negated(), Src::ZERO);
        let k2 = self.clamp(rest, 1000);
        let (p1, p2) = (self.pow2(k1), self.pow2(k2));
        let scaled = self.mul(q, p1);
        let scaled = self.mul(scaled, p2);
        self.dselect(special, special_q, scaled)
    }

    /// `sqrt(x)`, correctly rounded.
    pub(super) fn dsqrt(&mut self, x: D) -> D {
        let yes = Comp::Bool(true);
        // ±0 and +inf are their own roots; -inf, NaN and negatives NaN.
        let ex = self.and_imm(x[1], EXP_MASK);
        let zero = self.dsetp(
            FloatCmp::OrdEq,
            x,
            [Comp::Const(0); 2],
            PredCombine::And,
            yes,
        );
        let special = self.word_eq_or(ex, EXP_MASK, zero);
        let non_neg = self.dsetp(
            FloatCmp::OrdGe,
            x,
            [Comp::Const(0); 2],
            PredCombine::And,
            yes,
        );
        let nan = dconst_comps(crate::isa::NAN64);
        let special_r = self.dselect(non_neg, x, nan);

        // x = x'·2^(2h), x' in [1, 4): the exponent's parity stays in x'.
        let (xn, adj) = self.normalized(x);
        let en = self.exponent(xn[1]);
        let adj = self.src_of(adj);
        let e = self.add3(en, adj.negated(), Src::imm((-1023i32) as u32));
        let parity = self.and_imm(e, 1);
        let even = self.and_imm(e, !1);
        let h = self.shr_arithmetic(even, Comp::Const(1));
        let par = self.reg_or_zero(parity);
        let field = self.w_op(Op::IMad(OpIMad {
            dst: Dst::None,
            srcs: [par, Src::imm(0x10_0000), Src::imm(ONE_HI)],
            signed: false,
        }));
        let x1 = self.with_exponent(xn, field);

        // y ≈ 1/√x' from the seed, refined: e = 1 - x'y², y1 = y + y·e·(1/2
        // + 3e/8); s = x'y1, r = x' - s², root = s + r·y1/2.
        let one = d(1.0);
        let y = self.mufu64h(MufuOp::Rsq64h, x1[1]);
        let yy = self.mul(y, y);
        let e = self.fma(x1, yy, true, one);
        let t = self.fma(e, d(0.375), false, d(0.5));
        let ey = self.mul(y, e);
        let y1 = self.fma(t, ey, false, y);
        let s = self.mul(x1, y1);
        let half_y = self.mul(y1, d(0.5));
        let r = self.fma(s, s, true, x1);
        let root = self.fma(r, half_y, false, s);
        let p = self.pow2(h);
        let scaled = self.mul(root, p);
        self.dselect(special, special_r, scaled)
    }
}
