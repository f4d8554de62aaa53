//! Float arithmetic and comparison: FADD / FMUL / FFMA with rounding
//! modes, .FTZ and neg/abs source modifiers, and FSETP.

use super::alu::{fin, float_src, fout};
use super::float::{RND, Round, add_rounded, round_directed};
use super::operand::{get_dst, set_dst, set_pdst, srcs_text, visit_dst, visit_pred, visit_src};
use super::reg::{Dst, PredSrc, RegFile, Src, SrcRef};
use super::word::{InstWord, field};
use super::{DecodeError, EncodeError, PredCombine, RegVisitor};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatCmp {
    OrdLt,
    OrdEq,
    OrdLe,
    OrdGt,
    OrdNe,
    OrdGe,
    UnordLt,
    UnordEq,
    UnordLe,
    UnordGt,
    UnordNe,
    UnordGe,
}

impl FloatCmp {
    pub const ALL: [FloatCmp; 12] = [
        FloatCmp::OrdLt,
        FloatCmp::OrdEq,
        FloatCmp::OrdLe,
        FloatCmp::OrdGt,
        FloatCmp::OrdNe,
        FloatCmp::OrdGe,
        FloatCmp::UnordLt,
        FloatCmp::UnordEq,
        FloatCmp::UnordLe,
        FloatCmp::UnordGt,
        FloatCmp::UnordNe,
        FloatCmp::UnordGe,
    ];
    /// Encoding from NAK's SM70 encoder: 1..6 ordered, 9..14 unordered.
    pub(crate) fn bits(self) -> u64 {
        let i = FloatCmp::ALL.iter().position(|c| *c == self).unwrap_or(0) as u64;
        if i < 6 { i + 1 } else { i + 3 }
    }
    /// The comparison encoded as `bits`; `op` names the instruction in the
    /// error (FSETP and DSETP share the field).
    pub(crate) fn decode(bits: u64, op: &'static str) -> Result<FloatCmp, DecodeError> {
        FloatCmp::ALL
            .into_iter()
            .find(|c| c.bits() == bits)
            .ok_or(DecodeError::BadField {
                field: op,
                value: bits,
            })
    }
    pub fn name(self) -> &'static str {
        match self {
            FloatCmp::OrdLt => "LT",
            FloatCmp::OrdEq => "EQ",
            FloatCmp::OrdLe => "LE",
            FloatCmp::OrdGt => "GT",
            FloatCmp::OrdNe => "NE",
            FloatCmp::OrdGe => "GE",
            FloatCmp::UnordLt => "LTU",
            FloatCmp::UnordEq => "EQU",
            FloatCmp::UnordLe => "LEU",
            FloatCmp::UnordGt => "GTU",
            FloatCmp::UnordNe => "NEU",
            FloatCmp::UnordGe => "GEU",
        }
    }
    #[inline]
    pub fn eval(self, a: f32, b: f32) -> bool {
        self.eval_ord(a, b)
    }
    /// The comparison at any float width (f32 for FSETP, f64 for DSETP).
    #[inline]
    pub fn eval_ord<T: PartialOrd>(self, a: T, b: T) -> bool {
        let unordered = a.partial_cmp(&b).is_none();
        let i = FloatCmp::ALL.iter().position(|c| *c == self).unwrap_or(0);
        if unordered {
            return i >= 6;
        }
        match i % 6 {
            0 => a < b,
            1 => a == b,
            2 => a <= b,
            3 => a > b,
            4 => a != b,
            _ => a >= b,
        }
    }
}

/// FSETP: compares two floats and combines the result with a predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpFSetP {
    pub dst: Dst,
    pub cmp: FloatCmp,
    pub combine: PredCombine,
    pub ftz: bool,
    pub srcs: [Src; 2],
    pub accum: PredSrc,
}

impl OpFSetP {
    pub const OPCODE: u16 = 0x00b;
    const COMBINE: std::ops::Range<usize> = 74..76;
    const CMP: std::ops::Range<usize> = 76..80;
    const FTZ: usize = 80;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        w.set_alu_srcs(Self::OPCODE, Some(&self.srcs[0]), &self.srcs[1], None, true)?;
        w.set(Self::COMBINE, self.combine.bits());
        w.set(Self::CMP, self.cmp.bits());
        w.set_bit(Self::FTZ, self.ftz);
        set_pdst(w, field::PDST0, &self.dst)?;
        w.set(field::PDST1, 7);
        w.set_pred_src(field::PSRC, field::PSRC_NEG, &self.accum)
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let (a, b, _) = w.get_alu_srcs(true)?;
        let cmp = FloatCmp::decode(w.get(Self::CMP), "FSETP comparison")?;
        let combine = PredCombine::decode(w.get(Self::COMBINE))?;
        Ok(OpFSetP {
            dst: get_dst(w, field::PDST0, RegFile::Pred),
            cmp,
            combine,
            ftz: w.bit(Self::FTZ),
            srcs: [a, b],
            accum: w.get_pred_src(field::PSRC, field::PSRC_NEG),
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        self.srcs.iter_mut().for_each(|s| visit_src(s, v));
        visit_pred(&mut self.accum, v);
        visit_dst(&mut self.dst, RegFile::Pred, 1, v);
    }
    #[inline]
    pub fn eval(&self, a: u32, b: u32, accum: bool) -> bool {
        let operand = |i: usize, v: u32| fin(self.ftz, float_src(&self.srcs[i], v));
        let (a, b) = (operand(0, a), operand(1, b));
        let c = self.cmp.eval(a, b);
        self.combine.apply(c, accum)
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ftz = if self.ftz { ".FTZ" } else { "" };
        write!(f, "FSETP.{}{ftz}.{} ", self.cmp.name(), self.combine.name())?;
        self.dst.fmt_in(RegFile::Pred, f)?;
        write!(f, ", PT")?;
        srcs_text(f, &[&self.srcs[0], &self.srcs[1]])?;
        write!(f, ", {}", self.accum)
    }
}

/// The three float arithmetic ops share one shape: FADD a + b, FMUL a * b,
/// FFMA a * b + c (fused, one rounding).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatArith {
    Add,
    Mul,
    Fma,
}

/// FADD / FMUL / FFMA{.FTZ}{.RM|.RP|.RZ}: IEEE-754 binary32, rounded once
/// in `rnd`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpFArith {
    pub kind: FloatArith,
    pub dst: Dst,
    pub srcs: [Src; 3],
    pub ftz: bool,
    pub rnd: Round,
}

impl OpFArith {
    pub const OPCODE_FADD: u16 = 0x021;
    pub const OPCODE_FMUL: u16 = 0x020;
    pub const OPCODE_FFMA: u16 = 0x023;
    const FTZ: usize = 80;

    pub fn opcode(kind: FloatArith) -> u16 {
        match kind {
            FloatArith::Add => Self::OPCODE_FADD,
            FloatArith::Mul => Self::OPCODE_FMUL,
            FloatArith::Fma => Self::OPCODE_FFMA,
        }
    }

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        set_dst(w, &self.dst)?;
        let [a, b, c] = &self.srcs;
        let c = if self.kind == FloatArith::Fma {
            Some(c)
        } else {
            None
        };
        if self.kind == FloatArith::Add && matches!(b.src, SrcRef::Imm(_) | SrcRef::CBuf { .. }) {
            // FADD takes a constant addend in the third-source form (nvcc:
            // `FADD R9, R2, -1` is 0x...7421, form 2); the form with the
            // constant second is an illegal instruction for FADD.
            w.set_alu_srcs(Self::opcode(self.kind), Some(a), &Src::ZERO, Some(b), true)?;
            w.set(field::SRC2, 0);
        } else {
            w.set_alu_srcs(Self::opcode(self.kind), Some(a), b, c, true)?;
        }
        w.set_bit(Self::FTZ, self.ftz);
        w.set(RND, self.rnd.bits());
        if self.kind == FloatArith::Mul {
            // FMUL's result scale, bits 84..87: 4 is none (0 reads as
            // `FMUL.INVALID0` in nvdisasm; nvcc writes 4).
            w.set(84..87, 4);
        }
        Ok(())
    }
    pub fn decode(w: &InstWord, kind: FloatArith) -> Result<Self, DecodeError> {
        let (a, mut b, c) = w.get_alu_srcs(true)?;
        let form = w.get(field::ALU_FORM);
        if kind == FloatArith::Add
            && matches!(
                form,
                super::word::form::SRC2_IMM | super::word::form::SRC2_CBUF
            )
        {
            b = c;
        }
        let c = if kind == FloatArith::Fma {
            c
        } else {
            Src::ZERO
        };
        Ok(OpFArith {
            kind,
            dst: get_dst(w, field::DST, RegFile::Gpr),
            srcs: [a, b, c],
            ftz: w.bit(Self::FTZ),
            rnd: Round::decode(w),
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        let n = if self.kind == FloatArith::Fma { 3 } else { 2 };
        self.srcs[..n].iter_mut().for_each(|s| visit_src(s, v));
        visit_dst(&mut self.dst, RegFile::Gpr, 1, v);
    }
    // Always inlined: with the kind and rounding mode known at the call
    // (the simulator's row loops), only one arm is left and FFMA is one
    // fused multiply-add instruction where the CPU has one.
    #[inline(always)]
    pub fn eval(&self, x: [u32; 3]) -> u32 {
        let operand = |i: usize| fin(self.ftz, float_src(&self.srcs[i], x[i]));
        let (a, b, c) = (operand(0), operand(1), operand(2));
        let r = match (self.kind, self.rnd) {
            (FloatArith::Add, Round::Rn) => a + b,
            (FloatArith::Mul, Round::Rn) => a * b,
            (FloatArith::Fma, Round::Rn) => a.mul_add(b, c),
            // Directed modes: the exact result as f64 (+ remainder), then
            // one rounding. f32 products are exact in f64.
            (FloatArith::Add, rnd) => add_rounded(f64::from(a), f64::from(b), rnd),
            (FloatArith::Mul, rnd) => round_directed(f64::from(a) * f64::from(b), 0.0, rnd),
            (FloatArith::Fma, rnd) => add_rounded(f64::from(a) * f64::from(b), f64::from(c), rnd),
        };
        fout(self.ftz, r)
    }
    pub fn mnemonic(&self) -> &'static str {
        match self.kind {
            FloatArith::Add => "FADD",
            FloatArith::Mul => "FMUL",
            FloatArith::Fma => "FFMA",
        }
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.mnemonic();
        let ftz = if self.ftz { ".FTZ" } else { "" };
        write!(f, "{name}{ftz}{} ", self.rnd.suffix())?;
        self.dst.fmt_in(RegFile::Gpr, f)?;
        match self.kind {
            FloatArith::Fma => srcs_text(f, &[&self.srcs[0], &self.srcs[1], &self.srcs[2]]),
            _ => srcs_text(f, &[&self.srcs[0], &self.srcs[1]]),
        }
    }
}

impl_alu!(OpFSetP, 2, srcs, Pred, pred: accum, float: |_o| true, commuting: &[],
    live: |_o| 2, lane: |o, [a, b], p| u32::from(o.eval(a, b, p)));
impl_alu!(OpFArith, 3, srcs, Gpr, pred: none, float: |_o| true, commuting: &[(0, 1)],
    live: |o| if o.kind == FloatArith::Fma { 3 } else { 2 }, lane: |o, x, _p| o.eval(x));
