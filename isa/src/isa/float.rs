//! Float ops beyond FADD/FMUL/FFMA/FSETP (in `float_arith`): FMNMX, FSEL,
//! MUFU, F2F, FRND, and the rounding modes they and the arithmetic ops
//! share.
//! IEEE-754 binary32 throughout; every NaN a float op produces is the
//! canonical 0x7fffffff, as on NVIDIA hardware.

use super::alu::{fin, float_src, fout};
use super::operand::{get_dst, set_dst, srcs_text, visit_dst, visit_pred, visit_src};
use super::reg::{Dst, PredSrc, RegFile, Src};
use super::word::{InstWord, field};
use super::{DecodeError, EncodeError, RegVisitor};
use half::f16;
use std::fmt;
use std::ops::Range;

/// Rounding modes (NAK's field at 78..80: RN 0, RM 1, RP 2, RZ 3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Round {
    /// To nearest, ties to even (the default; no suffix).
    #[default]
    Rn,
    /// Toward minus infinity.
    Rm,
    /// Toward plus infinity.
    Rp,
    /// Toward zero.
    Rz,
}

pub(crate) const RND: Range<usize> = 78..80;

impl Round {
    pub const ALL: [Round; 4] = [Round::Rn, Round::Rm, Round::Rp, Round::Rz];
    pub(crate) fn bits(self) -> u64 {
        self as u64
    }
    pub(crate) fn decode(w: &InstWord) -> Round {
        Round::ALL[w.get(RND) as usize]
    }
    /// The suffix of arithmetic ops: `.RM`, `.RP`, `.RZ`, none for RN.
    pub fn suffix(self) -> &'static str {
        match self {
            Round::Rn => "",
            Round::Rm => ".RM",
            Round::Rp => ".RP",
            Round::Rz => ".RZ",
        }
    }
    /// The suffix of FRND: `.FLOOR`, `.CEIL`, `.TRUNC`, none for RN.
    pub fn frnd_suffix(self) -> &'static str {
        match self {
            Round::Rn => "",
            Round::Rm => ".FLOOR",
            Round::Rp => ".CEIL",
            Round::Rz => ".TRUNC",
        }
    }
}

/// `x + y` as an unevaluated sum `hi + lo`, exactly (Knuth's TwoSum).
pub(crate) fn two_sum(x: f64, y: f64) -> (f64, f64) {
    let s = x + y;
    let bp = s - x;
    (s, (x - (s - bp)) + (y - bp))
}

/// Rounds the exact value `hi + lo` (|lo| at most half an f64 ulp of hi)
/// to f32 in a directed mode. `hi` rounded to nearest is within one f32 ulp
/// of the answer; the sign of the remainder says which way to step.
pub(crate) fn round_directed(hi: f64, lo: f64, rnd: Round) -> f32 {
    let r = hi as f32;
    if !hi.is_finite() || rnd == Round::Rn {
        return r;
    }
    if r.is_infinite() {
        // Overflow: directed modes stop at the largest finite value on
        // the side they round away from.
        let pos = r > 0.0;
        return match (rnd, pos) {
            (Round::Rz, _) | (Round::Rm, true) | (Round::Rp, false) => f32::MAX.copysign(r),
            _ => r,
        };
    }
    let d = (hi - f64::from(r)) + lo;
    match rnd {
        Round::Rm if d < 0.0 => r.next_down(),
        Round::Rp if d > 0.0 => r.next_up(),
        Round::Rz if r > 0.0 && d < 0.0 => r.next_down(),
        Round::Rz if r < 0.0 && d > 0.0 => r.next_up(),
        _ => r,
    }
}

/// The sum `x + y` rounded in `rnd`, with IEEE's sign of an exact zero:
/// +0 unless both addends are -0, or -0 in RM unless both are +0.
pub(crate) fn add_rounded(x: f64, y: f64, rnd: Round) -> f32 {
    let (hi, lo) = two_sum(x, y);
    if hi == 0.0 && lo == 0.0 {
        let both_neg = x.is_sign_negative() && y.is_sign_negative();
        let both_pos = x.is_sign_positive() && y.is_sign_positive();
        let neg = both_neg || (rnd == Round::Rm && !both_pos);
        return if neg { -0.0 } else { 0.0 };
    }
    round_directed(hi, lo, rnd)
}

/// `FMNMX{.FTZ} Rd, a, b, P`: the minimum of a and b when P holds, the
/// maximum otherwise (IEEE minNum/maxNum: a NaN operand is ignored, two
/// give NaN; -0 is below +0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpFMnMx {
    pub dst: Dst,
    pub srcs: [Src; 2],
    pub ftz: bool,
    pub min: PredSrc,
}

impl OpFMnMx {
    pub const OPCODE: u16 = 0x009;
    const FTZ: usize = 80;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        set_dst(w, &self.dst)?;
        let [a, b] = &self.srcs;
        w.set_alu_srcs(Self::OPCODE, Some(a), b, None, true)?;
        w.set_pred_src(field::PSRC, field::PSRC_NEG, &self.min)?;
        w.set_bit(Self::FTZ, self.ftz);
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let (a, b, _) = w.get_alu_srcs(true)?;
        Ok(OpFMnMx {
            dst: get_dst(w, field::DST, RegFile::Gpr),
            srcs: [a, b],
            ftz: w.bit(Self::FTZ),
            min: w.get_pred_src(field::PSRC, field::PSRC_NEG),
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        self.srcs.iter_mut().for_each(|s| visit_src(s, v));
        visit_pred(&mut self.min, v);
        visit_dst(&mut self.dst, RegFile::Gpr, 1, v);
    }
    pub fn eval(&self, a: u32, b: u32, min: bool) -> u32 {
        let a = fin(self.ftz, float_src(&self.srcs[0], a));
        let b = fin(self.ftz, float_src(&self.srcs[1], b));
        let r = match (a.is_nan(), b.is_nan()) {
            (true, true) => f32::NAN,
            (true, false) => b,
            (false, true) => a,
            // total_cmp orders -0 below +0, which IEEE's < does not.
            _ if (a.total_cmp(&b).is_lt()) == min => a,
            _ => b,
        };
        fout(self.ftz, r)
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FMNMX{} ", if self.ftz { ".FTZ" } else { "" })?;
        self.dst.fmt_in(RegFile::Gpr, f)?;
        srcs_text(f, &[&self.srcs[0], &self.srcs[1]])?;
        write!(f, ", {}", self.min)
    }
}

/// `FSEL Rd, a, b, P`: `P ? a : b`, with the float modifiers applied to
/// the bits (no rounding, no NaN canonicalisation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpFSel {
    pub dst: Dst,
    pub srcs: [Src; 2],
    pub cond: PredSrc,
}

impl OpFSel {
    pub const OPCODE: u16 = 0x008;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        set_dst(w, &self.dst)?;
        let [a, b] = &self.srcs;
        w.set_alu_srcs(Self::OPCODE, Some(a), b, None, true)?;
        w.set_pred_src(field::PSRC, field::PSRC_NEG, &self.cond)
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let (a, b, _) = w.get_alu_srcs(true)?;
        Ok(OpFSel {
            dst: get_dst(w, field::DST, RegFile::Gpr),
            srcs: [a, b],
            cond: w.get_pred_src(field::PSRC, field::PSRC_NEG),
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        self.srcs.iter_mut().for_each(|s| visit_src(s, v));
        visit_pred(&mut self.cond, v);
        visit_dst(&mut self.dst, RegFile::Gpr, 1, v);
    }
    pub fn eval(&self, a: u32, b: u32, cond: bool) -> u32 {
        if cond {
            float_src(&self.srcs[0], a)
        } else {
            float_src(&self.srcs[1], b)
        }
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FSEL ")?;
        self.dst.fmt_in(RegFile::Gpr, f)?;
        srcs_text(f, &[&self.srcs[0], &self.srcs[1]])?;
        write!(f, ", {}", self.cond)
    }
}

/// The multi-function unit's functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MufuOp {
    /// cos(2π·x): the input is in turns (the compiler multiplies radians
    /// by 1/2π first, as NVIDIA's compilers do from Volta on).
    Cos,
    /// sin(2π·x), likewise.
    Sin,
    Ex2,
    Lg2,
    Rcp,
    Rsq,
    Sqrt,
    /// The high word of 1/x for the double whose high word is the source
    /// (its low word taken as zero): the seed of double division.
    Rcp64h,
    /// Likewise for 1/sqrt(x): the seed of double square roots.
    Rsq64h,
}

impl MufuOp {
    pub const ALL: [MufuOp; 9] = [
        MufuOp::Cos,
        MufuOp::Sin,
        MufuOp::Ex2,
        MufuOp::Lg2,
        MufuOp::Rcp,
        MufuOp::Rsq,
        MufuOp::Sqrt,
        MufuOp::Rcp64h,
        MufuOp::Rsq64h,
    ];
    /// NAK's function field (bits 74..80).
    fn bits(self) -> u64 {
        match self {
            MufuOp::Cos => 0,
            MufuOp::Sin => 1,
            MufuOp::Ex2 => 2,
            MufuOp::Lg2 => 3,
            MufuOp::Rcp => 4,
            MufuOp::Rsq => 5,
            MufuOp::Sqrt => 8,
            // nvdisasm: MUFU.RCP64H 0x...00001800_..., MUFU.RSQ64H 0x...00001c00_...
            MufuOp::Rcp64h => 6,
            MufuOp::Rsq64h => 7,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            MufuOp::Cos => "COS",
            MufuOp::Sin => "SIN",
            MufuOp::Ex2 => "EX2",
            MufuOp::Lg2 => "LG2",
            MufuOp::Rcp => "RCP",
            MufuOp::Rsq => "RSQ",
            MufuOp::Sqrt => "SQRT",
            MufuOp::Rcp64h => "RCP64H",
            MufuOp::Rsq64h => "RSQ64H",
        }
    }
}

/// `MUFU.fn Rd, a`. The results follow the H100's (module `mufu`,
/// docs/ISA.md "MUFU"): the constant folder and the simulator share them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpMufu {
    pub dst: Dst,
    pub src: Src,
    pub op: MufuOp,
}

impl OpMufu {
    pub const OPCODE: u16 = 0x108;
    const FUNC: Range<usize> = 74..80;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        set_dst(w, &self.dst)?;
        w.set_alu_srcs(Self::OPCODE, None, &self.src, None, true)?;
        w.set(Self::FUNC, self.op.bits());
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        // Bits 74/75 are src2's modifiers in the generic layout: the
        // function field here (src2 is unused).
        let (_, src, _) = w.get_alu_srcs(true)?;
        let bits = w.get(Self::FUNC);
        let op =
            MufuOp::ALL
                .into_iter()
                .find(|o| o.bits() == bits)
                .ok_or(DecodeError::BadField {
                    field: "MUFU function",
                    value: bits,
                })?;
        Ok(OpMufu {
            dst: get_dst(w, field::DST, RegFile::Gpr),
            src,
            op,
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        visit_src(&mut self.src, v);
        visit_dst(&mut self.dst, RegFile::Gpr, 1, v);
    }
    pub fn eval(&self, a: u32) -> u32 {
        super::mufu::eval(self.op, float_src(&self.src, a))
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MUFU.{} ", self.op.name())?;
        self.dst.fmt_in(RegFile::Gpr, f)?;
        srcs_text(f, &[&self.src])
    }
}

/// Float formats F2F converts between.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatFmt {
    F16,
    F32,
}

impl FloatFmt {
    /// log2 of the size in bytes (NAK's size fields).
    fn bits(self) -> u64 {
        match self {
            FloatFmt::F16 => 1,
            FloatFmt::F32 => 2,
        }
    }
    fn decode(b: u64, what: &'static str) -> Result<FloatFmt, DecodeError> {
        match b {
            1 => Ok(FloatFmt::F16),
            2 => Ok(FloatFmt::F32),
            _ => Err(DecodeError::BadField {
                field: what,
                value: b,
            }),
        }
    }
    fn name(self) -> &'static str {
        match self {
            FloatFmt::F16 => "F16",
            FloatFmt::F32 => "F32",
        }
    }
}

/// `F2F{.FTZ}{.rnd}.dst.src Rd, a`: converts between f32 and f16 (the
/// low 16 bits of a register; results zero the high half).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpF2F {
    pub dst: Dst,
    pub src: Src,
    pub dst_fmt: FloatFmt,
    pub src_fmt: FloatFmt,
    pub rnd: Round,
    pub ftz: bool,
}

impl OpF2F {
    pub const OPCODE: u16 = 0x104;
    const DST_FMT: Range<usize> = 75..77;
    const SRC_FMT: Range<usize> = 84..86;
    const FTZ: usize = 80;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        // A conversion to the same format is FRND's (the H100 refuses
        // `F2F.F32.F32` as an illegal instruction, docs/CUBIN.md).
        if self.dst_fmt == self.src_fmt {
            return Err(EncodeError::OperandForm(
                "F2F between two different formats",
            ));
        }
        set_dst(w, &self.dst)?;
        w.set_alu_srcs(Self::OPCODE, None, &self.src, None, false)?;
        w.set(Self::DST_FMT, self.dst_fmt.bits());
        w.set(Self::SRC_FMT, self.src_fmt.bits());
        w.set(RND, self.rnd.bits());
        w.set_bit(Self::FTZ, self.ftz);
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let (_, src, _) = w.get_alu_srcs(false)?;
        let dst_fmt = FloatFmt::decode(w.get(Self::DST_FMT), "F2F destination format")?;
        let src_fmt = FloatFmt::decode(w.get(Self::SRC_FMT), "F2F source format")?;
        if dst_fmt == src_fmt {
            return Err(DecodeError::BadField {
                field: "F2F formats (equal)",
                value: w.get(Self::SRC_FMT),
            });
        }
        Ok(OpF2F {
            dst: get_dst(w, field::DST, RegFile::Gpr),
            src,
            dst_fmt,
            src_fmt,
            rnd: Round::decode(w),
            ftz: w.bit(Self::FTZ),
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        visit_src(&mut self.src, v);
        visit_dst(&mut self.dst, RegFile::Gpr, 1, v);
    }
    pub fn eval(&self, a: u32) -> u32 {
        // .FTZ flushes f16 subnormals too, in and out, keeping the sign
        // (the H100, tests/op_truth.rs).
        let flush16 = |h: u16| {
            if self.ftz && h & 0x7c00 == 0 {
                h & 0x8000
            } else {
                h
            }
        };
        let x = match self.src_fmt {
            FloatFmt::F32 => fin(self.ftz, a),
            FloatFmt::F16 => f16::from_bits(flush16(a as u16)).to_f32(),
        };
        match self.dst_fmt {
            FloatFmt::F32 => fout(self.ftz, x),
            FloatFmt::F16 => u32::from(flush16(f16_rounded(x, self.rnd))),
        }
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ftz = if self.ftz { ".FTZ" } else { "" };
        write!(
            f,
            "F2F{ftz}{}.{}.{} ",
            self.rnd.suffix(),
            self.dst_fmt.name(),
            self.src_fmt.name()
        )?;
        self.dst.fmt_in(RegFile::Gpr, f)?;
        srcs_text(f, &[&self.src])
    }
}

/// `x` as f16 bits in `rnd`: round to nearest by `half`, then one step
/// toward the directed mode's side when that overshot. NaN is 0x7fff.
fn f16_rounded(x: f32, rnd: Round) -> u16 {
    if x.is_nan() {
        return 0x7fff;
    }
    let r = f16::from_f32(x);
    let back = r.to_f32();
    let step = |bits: u16, up: bool| -> u16 {
        // Stepping in magnitude: away from zero is +1 on the bits.
        let neg = bits & 0x8000 != 0;
        let mag = bits & 0x7fff;
        match (up != neg, mag) {
            (true, _) => bits + 1,
            (false, 0) => (bits ^ 0x8000) + 1,
            (false, _) => bits - 1,
        }
    };
    let bits = r.to_bits();
    let overflow_to_max = |bits: u16| bits & 0x8000 | 0x7bff;
    if back.is_infinite() && x.is_finite() {
        let pos = x > 0.0;
        return match (rnd, pos) {
            (Round::Rz, _) | (Round::Rm, true) | (Round::Rp, false) => overflow_to_max(bits),
            _ => bits,
        };
    }
    match rnd {
        Round::Rm if back > x => step(bits, false),
        Round::Rp if back < x => step(bits, true),
        Round::Rz if back.abs() > x.abs() => step(bits, back < 0.0),
        _ => bits,
    }
}

/// `FRND{.FTZ}{.FLOOR|.CEIL|.TRUNC} Rd, a`: rounds to an integral value
/// (to nearest even without a suffix).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpFrnd {
    pub dst: Dst,
    pub src: Src,
    pub rnd: Round,
    pub ftz: bool,
}

impl OpFrnd {
    pub const OPCODE: u16 = 0x107;
    const FTZ: usize = 80;
    /// F32 in both size fields (as F2F's).
    const DST_FMT: Range<usize> = 75..77;
    const SRC_FMT: Range<usize> = 84..86;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        set_dst(w, &self.dst)?;
        w.set_alu_srcs(Self::OPCODE, None, &self.src, None, false)?;
        w.set(Self::DST_FMT, 2);
        w.set(Self::SRC_FMT, 2);
        w.set(RND, self.rnd.bits());
        w.set_bit(Self::FTZ, self.ftz);
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let (_, src, _) = w.get_alu_srcs(false)?;
        Ok(OpFrnd {
            dst: get_dst(w, field::DST, RegFile::Gpr),
            src,
            rnd: Round::decode(w),
            ftz: w.bit(Self::FTZ),
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        visit_src(&mut self.src, v);
        visit_dst(&mut self.dst, RegFile::Gpr, 1, v);
    }
    pub fn eval(&self, a: u32) -> u32 {
        let x = fin(self.ftz, a);
        let r = match self.rnd {
            Round::Rn => x.round_ties_even(),
            Round::Rm => x.floor(),
            Round::Rp => x.ceil(),
            Round::Rz => x.trunc(),
        };
        fout(self.ftz, r)
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ftz = if self.ftz { ".FTZ" } else { "" };
        write!(f, "FRND{ftz}{} ", self.rnd.frnd_suffix())?;
        self.dst.fmt_in(RegFile::Gpr, f)?;
        srcs_text(f, &[&self.src])
    }
}

impl_alu!(OpFMnMx, 2, srcs, Gpr, pred: min, float: |_o| true, commuting: &[(0, 1)],
    live: |_o| 2, lane: |o, [a, b], p| o.eval(a, b, p));
impl_alu!(OpFSel, 2, srcs, Gpr, pred: cond, float: |_o| true, commuting: &[],
    live: |_o| 2, lane: |o, [a, b], p| o.eval(a, b, p));
impl_alu!(OpMufu, 1, src, Gpr, pred: none, float: |_o| true, commuting: &[],
    live: |_o| 1, lane: |o, [a], _p| o.eval(a));
impl_alu!(OpF2F, 1, src, Gpr, pred: none, float: |_o| true, commuting: &[],
    live: |_o| 1, lane: |o, [a], _p| o.eval(a));
impl_alu!(OpFrnd, 1, src, Gpr, pred: none, float: |_o| true, commuting: &[],
    live: |_o| 1, lane: |o, [a], _p| o.eval(a));
