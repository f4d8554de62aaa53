//! 64-bit integers: a value is two 32-bit components, low word first
//! (`places::comp_count`). Adds and subtracts chain IADD3's carry
//! predicate into IADD3.X; multiplies add the cross products to the high
//! word of the low words' product; shifts select between a funnel shift
//! (amounts up to 32) and a one-word shift (32 and up); division and
//! remainder are a loop (wide_div.rs); comparisons combine a compare of the low words
//! with the high words in ISETP's predicate accumulator; conversions
//! split or extend the pair. Ops without a lowering here are refused with
//! their SPIR-V opcode and result id.

use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{
    Dst, FALSE, Instr, IntCmp, Op, OpIAdd3, OpIAdd3X, OpIMad, OpIMadWide, OpISetP, OpShf,
    PredCombine, PredSrc, RegFile, Src, SrcRef,
};
use spvsass_frontend::ir::{BinaryOp, CmpOp, ConvOp, InstData, Scalar, UnaryOp};

/// A 64-bit integer (or 64-bit pointer) scalar.
pub(super) fn is_wide(s: Scalar) -> bool {
    s.size() == 8
}

fn word(c: Comp) -> Option<u32> {
    match c {
        Comp::Const(v) => Some(v),
        _ => None,
    }
}

fn pair(lo: Comp, hi: Comp) -> Option<u64> {
    Some(u64::from(word(lo)?) | u64::from(word(hi)?) << 32)
}

impl Isel<'_> {
    /// `a + b` (or `a - b`) on one 64-bit pair.
    pub(super) fn add64(&mut self, a: [Comp; 2], b: [Comp; 2], sub: bool) -> [Comp; 2] {
        if let (Some(x), Some(y)) = (pair(a[0], a[1]), pair(b[0], b[1])) {
            let v = if sub {
                x.wrapping_sub(y)
            } else {
                x.wrapping_add(y)
            };
            return [Comp::Const(v as u32), Comp::Const((v >> 32) as u32)];
        }
        let carry = self.f.new_vreg(RegFile::Pred);
        let (lo, hi) = (self.f.new_vreg(RegFile::Gpr), self.f.new_vreg(RegFile::Gpr));
        // An immediate takes no negation: its two's complement (low word,
        // the same sum and carry for a non-zero word) or its complement
        // (high word, .X) is the immediate instead.
        let neg = |s: Src, x: bool| match (sub, s.src) {
            (false, _) => s,
            (true, SrcRef::Imm(v)) => Src::imm(if x { !v } else { v.wrapping_neg() }),
            (true, _) => s.negated(),
        };
        // Source 0 must be a register; the other may be an immediate.
        let (a0, b0) = (self.reg_or_zero(a[0]), self.src_of(b[0]));
        self.emit(Instr::new(Op::IAdd3X(OpIAdd3X {
            dst: lo.dst(),
            carry_out: carry.dst(),
            srcs: [a0, neg(b0, false), Src::ZERO],
            x: false,
            carry_in: FALSE,
        })));
        // With .X a negated source is ~v; with the carry (no borrow) that
        // makes a.hi - b.hi - borrow.
        let (a1, b1) = (self.reg_or_zero(a[1]), self.src_of(b[1]));
        self.emit(Instr::new(Op::IAdd3X(OpIAdd3X {
            dst: hi.dst(),
            carry_out: Dst::None,
            srcs: [a1, neg(b1, true), Src::ZERO],
            x: true,
            carry_in: carry.pred(),
        })));
        [Comp::Reg(lo), Comp::Reg(hi)]
    }

    /// The low 64 bits of `a * b`: the low words' full product (IMAD and
    /// IMAD.HI.U32) plus the two cross products into the high word.
    pub(super) fn mul64(&mut self, a: [Comp; 2], b: [Comp; 2]) -> [Comp; 2] {
        let imad = |x: Src, y: Src, c: Src, hi: bool| {
            if hi {
                Op::IMadWide(OpIMadWide {
                    dst: Dst::None,
                    srcs: [x, y, c],
                    signed: false,
                    hi: true,
                })
            } else {
                Op::IMad(OpIMad {
                    dst: Dst::None,
                    srcs: [x, y, c],
                    signed: false,
                })
            }
        };
        let [a0, a1, b0, b1] = [a[0], a[1], b[0], b[1]].map(|c| self.src_of(c));
        let lo = self.alu(imad(a0, b0, Src::ZERO, false));
        let cross = self.alu(imad(a0, b1, Src::ZERO, false));
        let cross = self.src_of(cross);
        let cross = self.alu(imad(a1, b0, cross, false));
        let cross = self.src_of(cross);
        // IMAD.HI adds a register pair to the whole product (docs/ISA.md):
        // the cross products go on with an add.
        let hi = self.alu(imad(a0, b0, Src::ZERO, true));
        let his = self.src_of(hi);
        let hi = self.alu(Op::IAdd3(OpIAdd3 {
            dst: Dst::None,
            srcs: [his, cross, Src::ZERO],
        }));
        [lo, hi]
    }

    /// SHF moves at most 32 bits (the amount is clamped), so a 64-bit
    /// shift by `s` (below 64) computes the result for `s <= 32` with
    /// funnel shifts across the pair and the result for `s >= 32` from one
    /// word, then selects on `s >= 32`.
    fn shift64(&mut self, op: BinaryOp, a: [Comp; 2], s: Comp) -> [Comp; 2] {
        let shf = |this: &mut Self, lo: Comp, s: Comp, hi: Comp, right, high| {
            let (lo, s, hi) = (this.src_of(lo), this.src_of(s), this.src_of(hi));
            this.alu(Op::Shf(OpShf {
                dst: Dst::None,
                srcs: [lo, s, hi],
                right,
                wrap: false,
                high,
            }))
        };
        let ss = self.src_of(s);
        let big = self.int_cmp(IntCmp::Ge, false, ss, Src::imm(32));
        let s32 = self.alu(Op::IAdd3(OpIAdd3 {
            dst: Dst::None,
            srcs: [ss, Src::imm(32u32.wrapping_neg()), Src::ZERO],
        }));
        let zero = Comp::Const(0);
        let pick = |this: &mut Self, if_big: Comp, small: Comp| {
            let (b, sm) = (this.src_of(if_big), this.src_of(small));
            match big {
                Comp::Bool(true) => if_big,
                Comp::Bool(false) => small,
                _ => this.select(big, b, sm),
            }
        };
        match op {
            BinaryOp::Shl => {
                // (0:lo) << min(s, 32) is the low word for every s < 64.
                let lo = shf(self, a[0], s, zero, false, false);
                let hi_small = shf(self, a[0], s, a[1], false, true);
                let hi_big = shf(self, a[0], s32, zero, false, false);
                [lo, pick(self, hi_big, hi_small)]
            }
            BinaryOp::ShrLogical => {
                let hi = shf(self, zero, s, a[1], true, true);
                let lo_small = shf(self, a[0], s, a[1], true, false);
                let lo_big = shf(self, a[1], s32, zero, true, false);
                [pick(self, lo_big, lo_small), hi]
            }
            _ => {
                let sign = self.shr_arithmetic(a[1], Comp::Const(31));
                let lo_small = shf(self, a[0], s, a[1], true, false);
                let lo_big = self.shr_arithmetic(a[1], s32);
                let hi_small = self.shr_arithmetic(a[1], s);
                [pick(self, lo_big, lo_small), pick(self, sign, hi_small)]
            }
        }
    }

    /// A binary op on 64-bit integer vectors (pairs of components).
    pub(super) fn wide_binary(
        &mut self,
        op: BinaryOp,
        x: &[Comp],
        y: &[Comp],
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let shift = matches!(
            op,
            BinaryOp::Shl | BinaryOp::ShrLogical | BinaryOp::ShrArithmetic
        );
        // A shift amount may be 32 or 64 bits wide (its low word counts).
        let y_width = if shift && !x.is_empty() {
            (2 * y.len() / x.len()).max(1)
        } else {
            2
        };
        let supported = shift
            || matches!(
                op,
                BinaryOp::IAdd
                    | BinaryOp::ISub
                    | BinaryOp::IMul
                    | BinaryOp::And
                    | BinaryOp::Or
                    | BinaryOp::Xor
                    | BinaryOp::UMin
                    | BinaryOp::UMax
                    | BinaryOp::SMin
                    | BinaryOp::SMax
                    | BinaryOp::UDiv
                    | BinaryOp::UMod
                    | BinaryOp::SDiv
                    | BinaryOp::SRem
                    | BinaryOp::SMod
            );
        if !supported || x.len() / 2 != y.len() / y_width || !x.len().is_multiple_of(2) {
            return Err(self.unsupported(format!("64-bit integer {op:?}"), inst));
        }
        let mut out = Vec::with_capacity(x.len());
        for (a, b) in x.chunks_exact(2).zip(y.chunks_exact(y_width)) {
            let a = [a[0], a[1]];
            if shift {
                out.extend(self.shift64(op, a, b[0]));
                continue;
            }
            let b = [b[0], b[1]];
            match op {
                BinaryOp::IMul => out.extend(self.mul64(a, b)),
                // wide_div.rs; dead-code elimination drops the unused half.
                BinaryOp::UDiv | BinaryOp::UMod => {
                    let (q, r) = self.udiv_rem64(a, b, inst)?;
                    out.extend(if op == BinaryOp::UDiv { q } else { r });
                }
                BinaryOp::SDiv | BinaryOp::SRem | BinaryOp::SMod => {
                    let (q, r) = self.sdiv_rem64(a, b, op == BinaryOp::SMod, inst)?;
                    out.extend(if op == BinaryOp::SDiv { q } else { r });
                }
                // The compare of the whole pair picks both words.
                BinaryOp::UMin | BinaryOp::UMax | BinaryOp::SMin | BinaryOp::SMax => {
                    let cmp = match op {
                        BinaryOp::UMin => CmpOp::ULt,
                        BinaryOp::UMax => CmpOp::UGt,
                        BinaryOp::SMin => CmpOp::SLt,
                        _ => CmpOp::SGt,
                    };
                    let p = self.wide_compare(cmp, &a, &b, inst)?[0];
                    for k in 0..2 {
                        let (x, y) = (self.src_of(a[k]), self.src_of(b[k]));
                        out.push(match p {
                            Comp::Bool(true) => a[k],
                            Comp::Bool(false) => b[k],
                            _ => self.select(p, x, y),
                        });
                    }
                }
                BinaryOp::IAdd | BinaryOp::ISub => {
                    out.extend(self.add64(a, b, op == BinaryOp::ISub))
                }
                // Bitwise ops act on each word alone.
                BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => {
                    for k in 0..2 {
                        let c = self.binary(op, a[k], b[k], inst)?;
                        out.push(c);
                    }
                }
                _ => unreachable!("checked above"),
            }
        }
        Ok(out)
    }

    /// A unary op on 64-bit integer vectors.
    pub(super) fn wide_unary(
        &mut self,
        op: UnaryOp,
        x: &[Comp],
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let mut out = Vec::with_capacity(x.len());
        for a in x.chunks_exact(2) {
            match op {
                UnaryOp::INeg => {
                    let zero = [Comp::Const(0); 2];
                    out.extend(self.add64(zero, [a[0], a[1]], true));
                }
                UnaryOp::Not => {
                    for &c in a {
                        out.push(self.unary(op, c, inst)?);
                    }
                }
                _ => return Err(self.unsupported(format!("64-bit {op:?}"), inst)),
            }
        }
        Ok(out)
    }

    fn isetp(
        &mut self,
        cmp: IntCmp,
        signed: bool,
        a: Comp,
        b: Comp,
        combine: PredCombine,
        accum: Comp,
    ) -> Comp {
        let accum = self.pred(accum).unwrap_or(PredSrc::TRUE);
        let (a, b) = (self.reg_or_zero(a), self.src_of(b));
        self.alu(Op::ISetP(OpISetP {
            dst: Dst::None,
            cmp,
            signed,
            combine,
            srcs: [a, b],
            accum,
        }))
    }

    /// A comparison of 64-bit integer vectors: one predicate per pair.
    /// Equality compares both words; an order compares the high words
    /// (signed or not), and on equal high words the low ones unsigned.
    pub(super) fn wide_compare(
        &mut self,
        op: CmpOp,
        x: &[Comp],
        y: &[Comp],
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        use CmpOp as C;
        let (cmp, signed) = match op {
            C::IEq => (IntCmp::Eq, false),
            C::INe => (IntCmp::Ne, false),
            C::ULt => (IntCmp::Lt, false),
            C::ULe => (IntCmp::Le, false),
            C::UGt => (IntCmp::Gt, false),
            C::UGe => (IntCmp::Ge, false),
            C::SLt => (IntCmp::Lt, true),
            C::SLe => (IntCmp::Le, true),
            C::SGt => (IntCmp::Gt, true),
            C::SGe => (IntCmp::Ge, true),
            _ => return Err(self.unsupported(format!("64-bit {op:?}"), inst)),
        };
        let mut out = Vec::new();
        for (a, b) in x.chunks_exact(2).zip(y.chunks_exact(2)) {
            let yes = Comp::Bool(true);
            let p = match cmp {
                IntCmp::Eq => {
                    let lo = self.isetp(IntCmp::Eq, false, a[0], b[0], PredCombine::And, yes);
                    self.isetp(IntCmp::Eq, false, a[1], b[1], PredCombine::And, lo)
                }
                IntCmp::Ne => {
                    let lo = self.isetp(IntCmp::Ne, false, a[0], b[0], PredCombine::And, yes);
                    self.isetp(IntCmp::Ne, false, a[1], b[1], PredCombine::Or, lo)
                }
                _ => {
                    let strict = match cmp {
                        IntCmp::Le => IntCmp::Lt,
                        IntCmp::Ge => IntCmp::Gt,
                        other => other,
                    };
                    let lo = self.isetp(cmp, false, a[0], b[0], PredCombine::And, yes);
                    let tie = self.isetp(IntCmp::Eq, false, a[1], b[1], PredCombine::And, lo);
                    self.isetp(strict, signed, a[1], b[1], PredCombine::Or, tie)
                }
            };
            out.push(p);
        }
        Ok(out)
    }

    /// An 8- or 16-bit integer lives in the low bits of a word whose high
    /// bits are left as arithmetic made them (stores write only the low
    /// bits): widening it zero- or sign-fills them (SGXT). Wider integers
    /// pass as they are.
    pub(super) fn narrow_int(&mut self, c: Comp, from: Scalar, signed: bool) -> Comp {
        let bits = from.size() * 8;
        if bits >= 32 {
            return c;
        }
        self.sgxt(c, Comp::Const(bits), signed)
    }

    /// Integer conversions where either side is 64 bits wide, and bitcasts
    /// of 64-bit values (the words stay as they are).
    pub(super) fn wide_convert(
        &mut self,
        op: ConvOp,
        x: &[Comp],
        from: Scalar,
        to: Scalar,
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let int = |s: Scalar| matches!(s, Scalar::Int { .. });
        match op {
            ConvOp::Bitcast => return Ok(x.to_vec()),
            ConvOp::UConvert | ConvOp::SConvert if int(from) && int(to) => {}
            ConvOp::FToS | ConvOp::FToU if is_wide(to) && !is_wide(from) => {
                return self.float_to_wide_int(x, from, op == ConvOp::FToS, inst);
            }
            ConvOp::UToF | ConvOp::SToF if to == Scalar::Float { bits: 32 } => {
                let mut out = Vec::with_capacity(x.len() / 2);
                for p in x.chunks_exact(2) {
                    out.push(self.wide_int_to_f32([p[0], p[1]], op == ConvOp::SToF, inst)?);
                }
                return Ok(out);
            }
            _ => {
                return Err(self.unsupported(format!("conversions from {from} to {to}"), inst));
            }
        }
        Ok(match (is_wide(from), is_wide(to)) {
            (true, true) | (false, false) => x.to_vec(),
            // Truncation keeps the low word.
            (true, false) => x.chunks_exact(2).map(|p| p[0]).collect(),
            (false, true) => {
                let mut out = Vec::with_capacity(2 * x.len());
                for &c in x {
                    let c = self.narrow_int(c, from, op == ConvOp::SConvert);
                    let hi = if op == ConvOp::SConvert {
                        self.shr_arithmetic(c, Comp::Const(31))
                    } else {
                        Comp::Const(0)
                    };
                    out.extend([c, hi]);
                }
                out
            }
        })
    }
}
