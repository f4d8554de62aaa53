//! 64-bit integer division and remainder (OpUDiv, OpSDiv, OpUMod, OpSRem,
//! OpSMod on 64-bit values). nvcc calls a subroutine of about 70
//! instructions (a float reciprocal refined by 64-bit Newton steps, k_div64
//! in tests/data/real_sass/ops64_sm86.nvdisasm.txt); here the quotient
//! comes from a restoring shift-subtract loop of exactly 64 iterations:
//!
//! ```text
//! head(r, q, i):                      ; r = 0, q = n, i = 64 on entry
//!     r' = r << 1 | q >> 63           ; SHF.L.HI ×2 (and q's high word)
//!     P  = r' >= d (65-bit: or the bit shifted out of r)   ; ISETP ×4
//!     r" = P ? r' - d : r'            ; IADD3, IADD3.X, SEL ×2
//!     q' = q << 1 | P                 ; IADD3.X q + q + P
//!     i' = i - 1;  @!(i' != 0) BRA done  ; else BRA head(r", q', i')
//! ```
//!
//! Why a loop: it is exact by construction for every numerator and
//! divisor, its trip count is the same in every lane (no divergence, so no
//! reconvergence barrier), it is about 20 static instructions, and it
//! cannot hang: a zero divisor (undefined in SPIR-V) gives an all-ones
//! quotient and the numerator as the remainder. A reciprocal sequence is
//! faster on hardware (about 70 instructions executed against 64 × 16 plus
//! register moves: about 1400 in a shader doing one u64 division)
//! but needs a proof of its error bound; the simulator's cost does not
//! matter here. Constant divisors that are powers of two become shifts and
//! masks; constant operands fold. Signed forms divide magnitudes and fix
//! the signs as the 32-bit ones do (idiv.rs).

use super::inner_loop::Exit;
use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{
    Dst, FALSE, Instr, IntCmp, Op, OpIAdd3, OpIAdd3X, OpISetP, OpMov, OpSel, OpShf, PredCombine,
    PredSrc, RegFile, Src,
};
use crate::mir::{PReg, VReg};
use spvsass_frontend::ir::{BinaryOp, InstData};

fn pair(c: [Comp; 2]) -> Option<u64> {
    match c {
        [Comp::Const(lo), Comp::Const(hi)] => Some(u64::from(lo) | u64::from(hi) << 32),
        _ => None,
    }
}

fn consts(v: u64) -> [Comp; 2] {
    [Comp::Const(v as u32), Comp::Const((v >> 32) as u32)]
}

fn vreg(r: VReg) -> Src {
    r.src()
}

impl Isel<'_> {
    /// A fresh register holding `c` (loop-carried values need registers).
    fn fresh_copy(&mut self, c: Comp) -> VReg {
        let src = self.src_of(c);
        let r = self.f.new_vreg(RegFile::Gpr);
        self.emit(Instr::new(Op::Mov(OpMov { dst: r.dst(), src })));
        r
    }

    fn gpr_op(&mut self, op: impl FnOnce(Dst) -> Op) -> VReg {
        let r = self.f.new_vreg(RegFile::Gpr);
        self.emit(Instr::new(op(r.dst())));
        r
    }

    fn pred_op(
        &mut self,
        cmp: IntCmp,
        signed: bool,
        a: Src,
        b: Src,
        comb: PredCombine,
        acc: PredSrc,
    ) -> PReg {
        let p = self.f.new_pred();
        self.emit(Instr::new(Op::ISetP(OpISetP {
            dst: p.dst(),
            cmp,
            signed,
            combine: comb,
            srcs: [a, b],
            accum: acc,
        })));
        p
    }

    /// The funnel shift left by one of `hi:lo`, high word.
    fn shl1_hi(&mut self, lo: Src, hi: Src) -> VReg {
        self.gpr_op(|dst| {
            Op::Shf(OpShf {
                dst,
                srcs: [lo, Src::imm(1), hi],
                right: false,
                wrap: false,
                high: true,
            })
        })
    }

    /// `(n / d, n % d)` for unsigned 64-bit pairs.
    pub(super) fn udiv_rem64(
        &mut self,
        n: [Comp; 2],
        d: [Comp; 2],
        inst: &InstData,
    ) -> Result<([Comp; 2], [Comp; 2]), BackendError> {
        if let (Some(x), Some(y)) = (pair(n), pair(d))
            && y != 0
        {
            return Ok((consts(x / y), consts(x % y)));
        }
        if let Some(y) = pair(d)
            && y.is_power_of_two()
        {
            let q = self.wide_pair(
                BinaryOp::ShrLogical,
                n,
                consts(u64::from(y.trailing_zeros())),
                inst,
            )?;
            let r = self.wide_pair(BinaryOp::And, n, consts(y - 1), inst)?;
            return Ok((q, r));
        }
        let (dl, dh) = (self.reg_or_zero(d[0]), self.reg_or_zero(d[1]));
        let init = [
            self.fresh_copy(Comp::Const(0)),
            self.fresh_copy(Comp::Const(0)),
            self.fresh_copy(n[0]),
            self.fresh_copy(n[1]),
            self.fresh_copy(Comp::Const(64)),
        ];
        let (inner, params) = self.open_inner_loop(init.to_vec(), Exit::Uniform);
        let [rl, rh, ql, qh, i] = [0, 1, 2, 3, 4].map(|k| vreg(params[k]));
        // Shift r:q left by one.
        let rh2 = vreg(self.shl1_hi(rl, rh));
        let rl2 = vreg(self.shl1_hi(qh, rl));
        let qh2 = self.shl1_hi(ql, qh);
        // r' >= d over 65 bits: the bit shifted out of r, or the 64-bit
        // unsigned compare.
        let lo = self.pred_op(IntCmp::Ge, false, rl2, dl, PredCombine::And, PredSrc::TRUE);
        let tie = self.pred_op(IntCmp::Eq, false, rh2, dh, PredCombine::And, lo.pred());
        let ge = self.pred_op(IntCmp::Gt, false, rh2, dh, PredCombine::Or, tie.pred());
        let p = self.pred_op(IntCmp::Lt, true, rh, Src::ZERO, PredCombine::Or, ge.pred());
        let p = p.pred();
        // r' - d (wrapping: the true difference fits in 64 bits when P).
        let carry = self.f.new_vreg(RegFile::Pred);
        let sl = self.gpr_op(|dst| {
            Op::IAdd3X(OpIAdd3X {
                dst,
                carry_out: carry.dst(),
                srcs: [rl2, dl.negated(), Src::ZERO],
                x: false,
                carry_in: FALSE,
            })
        });
        let sh = self.gpr_op(|dst| {
            Op::IAdd3X(OpIAdd3X {
                dst,
                carry_out: Dst::None,
                srcs: [rh2, dh.negated(), Src::ZERO],
                x: true,
                carry_in: carry.pred(),
            })
        });
        let sel = |this: &mut Self, a: VReg, b: Src| {
            this.gpr_op(|dst| {
                Op::Sel(OpSel {
                    dst,
                    srcs: [vreg(a), b],
                    cond: p,
                })
            })
        };
        let rl3 = sel(self, sl, rl2);
        let rh3 = sel(self, sh, rh2);
        // q << 1 | P: q + q + carry-in P.
        let ql2 = self.gpr_op(|dst| {
            Op::IAdd3X(OpIAdd3X {
                dst,
                carry_out: Dst::None,
                srcs: [ql, ql, Src::ZERO],
                x: true,
                carry_in: p,
            })
        });
        let i2 = self.gpr_op(|dst| {
            Op::IAdd3(OpIAdd3 {
                dst,
                srcs: [i, Src::imm(u32::MAX), Src::ZERO],
            })
        });
        let last = self.pred_op(
            IntCmp::Eq,
            false,
            vreg(i2),
            Src::ZERO,
            PredCombine::And,
            PredSrc::TRUE,
        );
        self.close_inner_loop(inner, last, vec![rl3, rh3, ql2, qh2, i2]);
        Ok((
            [Comp::Reg(ql2), Comp::Reg(qh2)],
            [Comp::Reg(rl3), Comp::Reg(rh3)],
        ))
    }

    /// One 64-bit op of `wide_binary` on a single pair.
    fn wide_pair(
        &mut self,
        op: BinaryOp,
        a: [Comp; 2],
        b: [Comp; 2],
        inst: &InstData,
    ) -> Result<[Comp; 2], BackendError> {
        let r = self.wide_binary(op, &a, &b, inst)?;
        Ok([r[0], r[1]])
    }

    /// `x < 0` for a 64-bit pair (its high word's sign).
    fn negative64(&mut self, x: [Comp; 2]) -> Comp {
        let hi = self.src_of(x[1]);
        self.int_cmp(IntCmp::Lt, true, hi, Src::ZERO)
    }

    /// `cond ? -x : x` on a 64-bit pair.
    fn negate64_if(
        &mut self,
        cond: Comp,
        x: [Comp; 2],
        inst: &InstData,
    ) -> Result<[Comp; 2], BackendError> {
        if cond == Comp::Bool(false) {
            return Ok(x);
        }
        let minus = self.wide_pair(BinaryOp::ISub, consts(0), x, inst)?;
        let mut out = [Comp::Const(0); 2];
        for k in 0..2 {
            let (m, v) = (self.src_of(minus[k]), self.src_of(x[k]));
            out[k] = match cond {
                Comp::Bool(true) => minus[k],
                _ => self.select(cond, m, v),
            };
        }
        Ok(out)
    }

    /// Signed 64-bit division: the quotient truncates towards zero
    /// (OpSDiv); the remainder has the sign of the numerator (OpSRem), or
    /// with `floor` that of the divisor (OpSMod).
    pub(super) fn sdiv_rem64(
        &mut self,
        n: [Comp; 2],
        d: [Comp; 2],
        floor: bool,
        inst: &InstData,
    ) -> Result<([Comp; 2], [Comp; 2]), BackendError> {
        if let (Some(x), Some(y)) = (pair(n), pair(d))
            && y != 0
        {
            let (x, y) = (x as i64, y as i64);
            let r = x.wrapping_rem(y);
            let r = if floor && r != 0 && (r < 0) != (y < 0) {
                r.wrapping_add(y)
            } else {
                r
            };
            return Ok((consts(x.wrapping_div(y) as u64), consts(r as u64)));
        }
        let n_neg = self.negative64(n);
        let d_neg = self.negative64(d);
        let n_abs = self.negate64_if(n_neg, n, inst)?;
        let d_abs = self.negate64_if(d_neg, d, inst)?;
        let (q, r) = self.udiv_rem64(n_abs, d_abs, inst)?;
        let q_neg = self.signs_differ(n[1], d[1], PredSrc::TRUE);
        let q = self.negate64_if(q_neg, q, inst)?;
        let mut r = self.negate64_if(n_neg, r, inst)?;
        if floor {
            // A non-zero remainder whose sign differs from the divisor's
            // moves by one divisor.
            let (rl, rh) = (self.src_of(r[0]), self.src_of(r[1]));
            let lo = self.alu(Op::ISetP(OpISetP {
                dst: Dst::None,
                cmp: IntCmp::Ne,
                signed: false,
                combine: PredCombine::And,
                srcs: [rl, Src::ZERO],
                accum: PredSrc::TRUE,
            }));
            let accum = self.pred(lo).unwrap_or(PredSrc::TRUE);
            let nonzero = self.alu(Op::ISetP(OpISetP {
                dst: Dst::None,
                cmp: IntCmp::Ne,
                signed: false,
                combine: PredCombine::Or,
                srcs: [rh, Src::ZERO],
                accum,
            }));
            let accum = self.pred(nonzero).unwrap_or(PredSrc::TRUE);
            let moves = self.signs_differ(r[1], d[1], accum);
            let moved = self.wide_pair(BinaryOp::IAdd, r, d, inst)?;
            for k in 0..2 {
                let (m, v) = (self.src_of(moved[k]), self.src_of(r[k]));
                r[k] = self.select(moves, m, v);
            }
        }
        Ok((q, r))
    }
}
