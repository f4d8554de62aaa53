//! Integer division and remainder. The ISA, like the hardware, has no
//! integer divide: the quotient comes from a float reciprocal turned into a
//! 32-bit fixed-point one, refined by one integer Newton step, then fixed up
//! by at most two comparisons. The sequence is the one GPU compilers
//! document for 32-bit division (e.g. LLVM's AMDGPU `expandDivRem32`); it is
//! exact for every numerator and every divisor but zero, for which SPIR-V
//! leaves the result undefined (here: a saturated quotient, no fault).

use super::{Comp, Isel};
use crate::isa::{
    ConvKind, Dst, FloatArith, IntCmp, MufuOp, Op, OpConv, OpFArith, OpIAdd3, OpIMad, OpIMadWide,
    OpISetP, OpLop3, OpMufu, OpShf, PredCombine, PredSrc, Round, Src,
};

/// 2^32 - 512 as an f32: scales the reciprocal into 32-bit fixed point
/// while keeping it an under-estimate (so the Newton step cannot overflow).
const RCP_SCALE: u32 = 0x4f7f_fffe;

impl Isel<'_> {
    /// `(n / d, n % d)` for unsigned 32-bit `n` and `d`. (Unused halves
    /// are removed by dead-code elimination.)
    pub(super) fn udiv_rem(&mut self, n: Comp, d: Comp) -> (Comp, Comp) {
        let ns = self.src_of(n);
        // A constant power of two: a shift and a mask, as every compiler
        // emits them.
        if let Comp::Const(d) = d
            && d.is_power_of_two()
        {
            let q = self.alu(Op::Shf(OpShf {
                dst: Dst::None,
                srcs: [ns, Src::imm(d.trailing_zeros()), Src::ZERO],
                right: true,
                wrap: false,
                high: false,
            }));
            let r = self.alu(Op::Lop3(OpLop3 {
                dst: Dst::None,
                srcs: [ns, Src::imm(d - 1), Src::ZERO],
                lut: OpLop3::A & OpLop3::B,
            }));
            return (q, r);
        }
        let ds = self.src_of(d);
        let fd = self.alu(Op::Conv(OpConv {
            kind: ConvKind::IntToFloat,
            dst: Dst::None,
            src: ds,
            signed: false,
        }));
        let fd = self.src_of(fd);
        let rcp = self.alu(Op::Mufu(OpMufu {
            dst: Dst::None,
            src: fd,
            op: MufuOp::Rcp,
        }));
        let rcp = self.src_of(rcp);
        let scaled = self.alu(Op::FArith(OpFArith {
            kind: FloatArith::Mul,
            dst: Dst::None,
            srcs: [rcp, Src::imm(RCP_SCALE), Src::ZERO],
            ftz: false,
            rnd: Round::Rn,
        }));
        let scaled = self.src_of(scaled);
        let z = self.alu(Op::Conv(OpConv {
            kind: ConvKind::FloatToInt,
            dst: Dst::None,
            src: scaled,
            signed: false,
        }));
        // One Newton step in fixed point: z += hi(z * (-d * z)).
        let zs = self.src_of(z);
        // IMAD takes no negated register: -d comes from an IADD3.
        let neg_d = self.alu(iadd(Src::ZERO, ds.negated()));
        let neg_d = self.src_of(neg_d);
        let err = self.alu(Op::IMad(OpIMad {
            dst: Dst::None,
            srcs: [zs, neg_d, Src::ZERO],
            signed: false,
        }));
        let errs = self.src_of(err);
        // IMAD.HI's addend is a register pair added to the whole product
        // (docs/ISA.md): the high word plus z is a separate add.
        let hi = self.alu(self.imad_hi(zs, errs, Src::ZERO));
        let his = self.src_of(hi);
        let z = self.alu(iadd(his, zs));
        let zs = self.src_of(z);
        let mut q = self.alu(self.imad_hi(ns, zs, Src::ZERO));
        let qs = self.src_of(q);
        let qd = self.alu(Op::IMad(OpIMad {
            dst: Dst::None,
            srcs: [qs, ds, Src::ZERO],
            signed: false,
        }));
        let qd = self.src_of(qd);
        let mut r = self.alu(iadd(ns, qd.negated()));
        // The estimate is at most two below the quotient.
        for _ in 0..2 {
            let rs = self.src_of(r);
            let over = self.alu(Op::ISetP(OpISetP {
                dst: Dst::None,
                cmp: IntCmp::Ge,
                signed: false,
                combine: PredCombine::And,
                srcs: [rs, ds],
                accum: PredSrc::TRUE,
            }));
            let qs = self.src_of(q);
            let q1 = self.alu(iadd(qs, Src::imm(1)));
            let q1 = self.src_of(q1);
            q = self.select(over, q1, qs);
            let r1 = self.alu(iadd(rs, ds.negated()));
            let r1 = self.src_of(r1);
            r = self.select(over, r1, rs);
        }
        (q, r)
    }

    /// Signed division: the quotient truncates towards zero (OpSDiv); the
    /// remainder takes the sign of the numerator (OpSRem), or with
    /// `floor` that of the divisor (OpSMod).
    pub(super) fn sdiv_rem(&mut self, n: Comp, d: Comp, floor: bool) -> (Comp, Comp) {
        let (n_neg, n_abs) = self.abs_int(n);
        let (_, d_abs) = self.abs_int(d);
        let (q, r) = self.udiv_rem(n_abs, d_abs);
        let q_neg = self.signs_differ(n, d, PredSrc::TRUE);
        let q = self.negate_if(q_neg, q);
        let mut r = self.negate_if(n_neg, r);
        if floor {
            // A non-zero remainder whose sign differs from the divisor's
            // moves by one divisor (OpSMod).
            let (rs, ds) = (self.src_of(r), self.src_of(d));
            let nonzero = self.alu(Op::ISetP(OpISetP {
                dst: Dst::None,
                cmp: IntCmp::Ne,
                signed: false,
                combine: PredCombine::And,
                srcs: [rs, Src::ZERO],
                accum: PredSrc::TRUE,
            }));
            let accum = self.pred(nonzero).unwrap_or(PredSrc::TRUE);
            let moves = self.signs_differ(r, d, accum);
            let moved = self.alu(iadd(rs, ds));
            let moved = self.src_of(moved);
            r = self.select(moves, moved, rs);
        }
        (q, r)
    }

    /// `(a ^ b) < 0`, and-ed with `accum`: the signs of `a` and `b` differ.
    pub(super) fn signs_differ(&mut self, a: Comp, b: Comp, accum: PredSrc) -> Comp {
        let (a, b) = (self.src_of(a), self.src_of(b));
        let x = self.alu(Op::Lop3(OpLop3 {
            dst: Dst::None,
            srcs: [a, b, Src::ZERO],
            lut: OpLop3::A ^ OpLop3::B,
        }));
        let x = self.src_of(x);
        self.alu(Op::ISetP(OpISetP {
            dst: Dst::None,
            cmp: IntCmp::Lt,
            signed: true,
            combine: PredCombine::And,
            srcs: [x, Src::ZERO],
            accum,
        }))
    }

    /// `(x < 0, |x|)` for a signed 32-bit `x` (|INT_MIN| is 2^31 as an
    /// unsigned value, which is what the unsigned division wants).
    fn abs_int(&mut self, x: Comp) -> (Comp, Comp) {
        let xs = self.src_of(x);
        let neg = self.alu(Op::ISetP(OpISetP {
            dst: Dst::None,
            cmp: IntCmp::Lt,
            signed: true,
            combine: PredCombine::And,
            srcs: [xs, Src::ZERO],
            accum: PredSrc::TRUE,
        }));
        (neg, self.negate_if(neg, x))
    }

    fn negate_if(&mut self, cond: Comp, x: Comp) -> Comp {
        let xs = self.src_of(x);
        let minus = self.alu(iadd(Src::ZERO, xs.negated()));
        let minus = self.src_of(minus);
        self.select(cond, minus, xs)
    }

    fn imad_hi(&self, a: Src, b: Src, c: Src) -> Op {
        Op::IMadWide(OpIMadWide {
            dst: Dst::None,
            srcs: [a, b, c],
            signed: false,
            hi: true,
        })
    }
}

fn iadd(a: Src, b: Src) -> Op {
    Op::IAdd3(OpIAdd3 {
        dst: Dst::None,
        srcs: [a, b, Src::ZERO],
    })
}
