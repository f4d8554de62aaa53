//! ALU ops: one struct per op, each with its encoding, decoding, text form,
//! register operands and its CPU semantic (`eval`), which the constant folder
//! and the simulator share.

use super::operand::{get_dst, set_dst, set_pdst, srcs_text, visit_dst, visit_pred, visit_src};
use super::reg::{Dst, PredSrc, RegFile, Src, SrcRef};
use super::word::{InstWord, field};
use super::{DecodeError, EncodeError, RegVisitor};
use std::fmt;

/// Reads a 32-bit float source, applying |abs| then -neg to the raw bits.
#[inline]
pub fn float_src(s: &Src, bits: u32) -> u32 {
    let mut b = bits;
    if s.abs {
        b &= 0x7fff_ffff;
    }
    if s.neg {
        b ^= 0x8000_0000;
    }
    b
}

/// Each bit from `t` where `s` has a one, else from `f`.
#[inline]
fn mux(s: u32, t: u32, f: u32) -> u32 {
    f ^ ((t ^ f) & s)
}

/// Reads an integer source: `neg` is two's complement negation.
#[inline]
pub fn int_src(s: &Src, bits: u32) -> u32 {
    if s.neg { bits.wrapping_neg() } else { bits }
}

/// Flushes a denormal to a zero of the same sign (.FTZ).
#[inline]
fn ftz(bits: u32) -> u32 {
    if bits & 0x7f80_0000 == 0 {
        bits & 0x8000_0000
    } else {
        bits
    }
}

#[inline]
pub(crate) fn fin(ftz_on: bool, bits: u32) -> f32 {
    f32::from_bits(if ftz_on { ftz(bits) } else { bits })
}

#[inline]
pub(crate) fn fout(ftz_on: bool, v: f32) -> u32 {
    // Every NaN a float op produces is the canonical 0x7fffffff (as on NVIDIA).
    if v.is_nan() {
        0x7fff_ffff
    } else if ftz_on {
        ftz(v.to_bits())
    } else {
        v.to_bits()
    }
}

/// MOV: copies a register, immediate or constant-bank word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpMov {
    pub dst: Dst,
    pub src: Src,
}

impl OpMov {
    pub const OPCODE: u16 = 0x002;
    /// Bits 72..76: the lane mask within a quad (always all four here).
    const QUAD_MASK: std::ops::Range<usize> = 72..76;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        set_dst(w, &self.dst)?;
        w.set_alu_srcs(Self::OPCODE, None, &self.src, None, false)?;
        w.set(Self::QUAD_MASK, 0xf);
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let (_, src, _) = w.get_alu_srcs(false)?;
        Ok(OpMov {
            dst: get_dst(w, field::DST, RegFile::Gpr),
            src,
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        visit_src(&mut self.src, v);
        visit_dst(&mut self.dst, RegFile::Gpr, 1, v);
    }
    #[inline]
    pub fn eval(&self, a: u32) -> u32 {
        a
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MOV ")?;
        self.dst.fmt_in(RegFile::Gpr, f)?;
        srcs_text(f, &[&self.src])
    }
}

/// IADD3: the sum of three integers (each may be negated).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpIAdd3 {
    pub dst: Dst,
    pub srcs: [Src; 3],
}

impl OpIAdd3 {
    pub const OPCODE: u16 = 0x010;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        set_dst(w, &self.dst)?;
        let [a, b, c] = &self.srcs;
        // The hardware takes a constant only as the second source (nvdisasm
        // refuses IADD3 in the constant-third form, docs/CUBIN.md): a
        // constant third source is exchanged with a register second one,
        // which the sum allows.
        let is_const = |s: &Src| matches!(s.src, SrcRef::Imm(_) | SrcRef::CBuf { .. });
        let (b, c) = if is_const(c) && !is_const(b) {
            (c, b)
        } else {
            (b, c)
        };
        w.set_alu_srcs(Self::OPCODE, Some(a), b, Some(c), true)?;
        // No carry-in (PT in both carry predicate slots), no carry-out.
        w.set(field::PSRC, 7);
        w.set(77..80, 7);
        w.set(field::PDST0, 7);
        w.set(field::PDST1, 7);
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let (a, b, c) = w.get_alu_srcs(true)?;
        // A word with the constant third (which `encode` never writes) reads
        // as the same sum with the constant second.
        let is_const = |s: &Src| matches!(s.src, SrcRef::Imm(_) | SrcRef::CBuf { .. });
        let (b, c) = if is_const(&c) && !is_const(&b) {
            (c, b)
        } else {
            (b, c)
        };
        Ok(OpIAdd3 {
            dst: get_dst(w, field::DST, RegFile::Gpr),
            srcs: [a, b, c],
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        self.srcs.iter_mut().for_each(|s| visit_src(s, v));
        visit_dst(&mut self.dst, RegFile::Gpr, 1, v);
    }
    #[inline]
    pub fn eval(&self, x: [u32; 3]) -> u32 {
        let [a, b, c] = &self.srcs;
        int_src(a, x[0])
            .wrapping_add(int_src(b, x[1]))
            .wrapping_add(int_src(c, x[2]))
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "IADD3 ")?;
        self.dst.fmt_in(RegFile::Gpr, f)?;
        srcs_text(f, &[&self.srcs[0], &self.srcs[1], &self.srcs[2]])
    }
}

/// IMAD: a * b + c on 32-bit integers (low half of the product).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpIMad {
    pub dst: Dst,
    pub srcs: [Src; 3],
    pub signed: bool,
}

impl OpIMad {
    pub const OPCODE: u16 = 0x024;
    const SIGNED: usize = 73;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        set_dst(w, &self.dst)?;
        let [a, b, c] = &self.srcs;
        w.set_alu_srcs(Self::OPCODE, Some(a), b, Some(c), false)?;
        w.set(field::PDST0, 7);
        w.set_bit(Self::SIGNED, self.signed);
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let (a, b, c) = w.get_alu_srcs(false)?;
        Ok(OpIMad {
            dst: get_dst(w, field::DST, RegFile::Gpr),
            srcs: [a, b, c],
            signed: w.bit(Self::SIGNED),
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        self.srcs.iter_mut().for_each(|s| visit_src(s, v));
        visit_dst(&mut self.dst, RegFile::Gpr, 1, v);
    }
    #[inline]
    pub fn eval(&self, x: [u32; 3]) -> u32 {
        // The low 32 bits of the product do not depend on signedness.
        x[0].wrapping_mul(x[1]).wrapping_add(x[2])
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "IMAD{} ", if self.signed { "" } else { ".U32" })?;
        self.dst.fmt_in(RegFile::Gpr, f)?;
        srcs_text(f, &[&self.srcs[0], &self.srcs[1], &self.srcs[2]])
    }
}

/// How a set-predicate op combines its comparison with the accumulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PredCombine {
    And,
    Or,
    Xor,
}

impl PredCombine {
    pub const ALL: [PredCombine; 3] = [PredCombine::And, PredCombine::Or, PredCombine::Xor];
    pub(crate) fn bits(self) -> u64 {
        self as u64
    }
    pub(crate) fn decode(bits: u64) -> Result<PredCombine, DecodeError> {
        PredCombine::ALL
            .get(bits as usize)
            .copied()
            .ok_or(DecodeError::BadField {
                field: "predicate combine",
                value: bits,
            })
    }
    #[inline]
    pub fn apply(self, a: bool, b: bool) -> bool {
        match self {
            PredCombine::And => a && b,
            PredCombine::Or => a || b,
            PredCombine::Xor => a ^ b,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            PredCombine::And => "AND",
            PredCombine::Or => "OR",
            PredCombine::Xor => "XOR",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntCmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl IntCmp {
    pub const ALL: [IntCmp; 6] = [
        IntCmp::Eq,
        IntCmp::Ne,
        IntCmp::Lt,
        IntCmp::Le,
        IntCmp::Gt,
        IntCmp::Ge,
    ];
    /// Encoding from NAK's SM70 encoder.
    fn bits(self) -> u64 {
        match self {
            IntCmp::Lt => 1,
            IntCmp::Eq => 2,
            IntCmp::Le => 3,
            IntCmp::Gt => 4,
            IntCmp::Ne => 5,
            IntCmp::Ge => 6,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            IntCmp::Eq => "EQ",
            IntCmp::Ne => "NE",
            IntCmp::Lt => "LT",
            IntCmp::Le => "LE",
            IntCmp::Gt => "GT",
            IntCmp::Ge => "GE",
        }
    }
    #[inline]
    pub fn eval<T: Ord>(self, a: T, b: T) -> bool {
        match self {
            IntCmp::Eq => a == b,
            IntCmp::Ne => a != b,
            IntCmp::Lt => a < b,
            IntCmp::Le => a <= b,
            IntCmp::Gt => a > b,
            IntCmp::Ge => a >= b,
        }
    }
}

/// ISETP: compares two integers and combines the result with a predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpISetP {
    pub dst: Dst,
    pub cmp: IntCmp,
    pub signed: bool,
    pub combine: PredCombine,
    pub srcs: [Src; 2],
    pub accum: PredSrc,
}

impl OpISetP {
    pub const OPCODE: u16 = 0x00c;
    const SIGNED: usize = 73;
    const COMBINE: std::ops::Range<usize> = 74..76;
    const CMP: std::ops::Range<usize> = 76..79;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        w.set_alu_srcs(
            Self::OPCODE,
            Some(&self.srcs[0]),
            &self.srcs[1],
            None,
            false,
        )?;
        w.set(68..71, 7); // no low-half comparison (PT)
        w.set_pred_src(field::PSRC, field::PSRC_NEG, &self.accum)?;
        w.set_bit(Self::SIGNED, self.signed);
        w.set(Self::COMBINE, self.combine.bits());
        w.set(Self::CMP, self.cmp.bits());
        set_pdst(w, field::PDST0, &self.dst)?;
        w.set(field::PDST1, 7);
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let (a, b, _) = w.get_alu_srcs(false)?;
        let cmp_bits = w.get(Self::CMP);
        let cmp = IntCmp::ALL
            .into_iter()
            .find(|c| c.bits() == cmp_bits)
            .ok_or(DecodeError::BadField {
                field: "ISETP comparison",
                value: cmp_bits,
            })?;
        let combine = PredCombine::decode(w.get(Self::COMBINE))?;
        Ok(OpISetP {
            dst: get_dst(w, field::PDST0, RegFile::Pred),
            cmp,
            signed: w.bit(Self::SIGNED),
            combine,
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
        let c = if self.signed {
            self.cmp.eval(a as i32, b as i32)
        } else {
            self.cmp.eval(a, b)
        };
        self.combine.apply(c, accum)
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ty = if self.signed { "" } else { ".U32" };
        write!(f, "ISETP.{}{ty}.{} ", self.cmp.name(), self.combine.name())?;
        self.dst.fmt_in(RegFile::Pred, f)?;
        write!(f, ", PT")?;
        srcs_text(f, &[&self.srcs[0], &self.srcs[1]])?;
        write!(f, ", {}", self.accum)
    }
}

/// SEL: `cond ? srcs[0] : srcs[1]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpSel {
    pub dst: Dst,
    pub srcs: [Src; 2],
    pub cond: PredSrc,
}

impl OpSel {
    pub const OPCODE: u16 = 0x007;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        set_dst(w, &self.dst)?;
        w.set_alu_srcs(
            Self::OPCODE,
            Some(&self.srcs[0]),
            &self.srcs[1],
            None,
            false,
        )?;
        w.set_pred_src(field::PSRC, field::PSRC_NEG, &self.cond)
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let (a, b, _) = w.get_alu_srcs(false)?;
        Ok(OpSel {
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
    #[inline]
    pub fn eval(&self, a: u32, b: u32, cond: bool) -> u32 {
        if cond { a } else { b }
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SEL ")?;
        self.dst.fmt_in(RegFile::Gpr, f)?;
        srcs_text(f, &[&self.srcs[0], &self.srcs[1]])?;
        write!(f, ", {}", self.cond)
    }
}

/// LOP3.LUT: any bitwise function of three sources, given by its truth table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpLop3 {
    pub dst: Dst,
    pub srcs: [Src; 3],
    pub lut: u8,
}

impl OpLop3 {
    pub const OPCODE: u16 = 0x012;
    const LUT: std::ops::Range<usize> = 72..80;
    /// Truth-table constants for the sources: f(a, b, c) = lut bit (a<<2|b<<1|c)... as
    /// bitwise functions of these masks.
    pub const A: u8 = 0xf0;
    pub const B: u8 = 0xcc;
    pub const C: u8 = 0xaa;

    /// The same function with sources b and c exchanged.
    pub fn swap_bc_lut(lut: u8) -> u8 {
        (0..8u8).fold(0, |acc, i| {
            let (a, b, c) = (i >> 2 & 1, i >> 1 & 1, i & 1);
            let j = a << 2 | c << 1 | b;
            acc | ((lut >> j) & 1) << i
        })
    }

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        set_dst(w, &self.dst)?;
        let [a, b, c] = &self.srcs;
        // The hardware takes a constant only as the second source (nvdisasm
        // reads one in the third as an illegal instruction): a constant
        // third source is exchanged with a register second one, and the
        // truth table with them.
        let c_const = matches!(c.src, SrcRef::Imm(_) | SrcRef::CBuf { .. });
        let b_const = matches!(b.src, SrcRef::Imm(_) | SrcRef::CBuf { .. });
        let (b, c, lut) = match (b_const, c_const) {
            (false, true) => (c, b, Self::swap_bc_lut(self.lut)),
            (true, true) => {
                return Err(EncodeError::OperandForm(
                    "LOP3 with at most one constant source",
                ));
            }
            _ => (b, c, self.lut),
        };
        w.set_alu_srcs(Self::OPCODE, Some(a), b, Some(c), false)?;
        w.set(Self::LUT, u64::from(lut));
        w.set(field::PDST0, 7);
        // The predicate input is !PT, as printed (and as nvcc writes it).
        w.set(field::PSRC, 7);
        w.set_bit(field::PSRC_NEG, true);
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let (a, b, c) = w.get_alu_srcs(false)?;
        let lut = w.get(Self::LUT) as u8;
        // A word with the constant third (which the hardware refuses, see
        // `encode`) reads as the same function with the constant second.
        let (b, c, lut) = if matches!(c.src, SrcRef::Imm(_) | SrcRef::CBuf { .. })
            && !matches!(b.src, SrcRef::Imm(_) | SrcRef::CBuf { .. })
        {
            (c, b, Self::swap_bc_lut(lut))
        } else {
            (b, c, lut)
        };
        Ok(OpLop3 {
            dst: get_dst(w, field::DST, RegFile::Gpr),
            srcs: [a, b, c],
            lut,
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        self.srcs.iter_mut().for_each(|s| visit_src(s, v));
        visit_dst(&mut self.dst, RegFile::Gpr, 1, v);
    }
    /// Bit k of the result is table bit `a_k << 2 | b_k << 1 | c_k`: the
    /// table indexed one source at a time, as a tree of bitwise selects
    /// (no branch per table bit, so a loop over lanes vectorises).
    #[inline]
    pub fn eval(&self, x: [u32; 3]) -> u32 {
        let [a, b, c] = x;
        let entry = |i: u8| 0u32.wrapping_sub(u32::from(self.lut >> i & 1));
        let by_bc = |base: u8| {
            mux(
                b,
                mux(c, entry(base + 3), entry(base + 2)),
                mux(c, entry(base + 1), entry(base)),
            )
        };
        mux(a, by_bc(4), by_bc(0))
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LOP3.LUT ")?;
        self.dst.fmt_in(RegFile::Gpr, f)?;
        srcs_text(f, &[&self.srcs[0], &self.srcs[1], &self.srcs[2]])?;
        write!(f, ", {:#x}, !PT", self.lut)
    }
}

/// SHF: funnel shift of the 64-bit pair (`srcs[2]:srcs[0]`) by `srcs[1]` (taken
/// modulo 32 with .W, clamped to 32 without); the low word of the result, or
/// the high word with .HI.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpShf {
    pub dst: Dst,
    pub srcs: [Src; 3],
    pub right: bool,
    pub wrap: bool,
    pub high: bool,
}

impl OpShf {
    pub const OPCODE: u16 = 0x019;
    const RIGHT: usize = 76;
    const WRAP: usize = 75;
    const HIGH: usize = 80;
    /// Data type field 73..75: this ISA always uses U32 (3; 0 is S64, as
    /// `nvdisasm` reads it and nvcc writes `SHF.L.U32`); docs/ISA.md.
    const TYPE: std::ops::Range<usize> = 73..75;
    const TYPE_U32: u64 = 3;
    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        set_dst(w, &self.dst)?;
        let [a, b, c] = &self.srcs;
        w.set_alu_srcs(Self::OPCODE, Some(a), b, Some(c), false)?;
        w.set(Self::TYPE, Self::TYPE_U32);
        w.set_bit(Self::RIGHT, self.right);
        w.set_bit(Self::WRAP, self.wrap);
        w.set_bit(Self::HIGH, self.high);
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let (a, b, c) = w.get_alu_srcs(false)?;
        Ok(OpShf {
            dst: get_dst(w, field::DST, RegFile::Gpr),
            srcs: [a, b, c],
            right: w.bit(Self::RIGHT),
            wrap: w.bit(Self::WRAP),
            high: w.bit(Self::HIGH),
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        self.srcs.iter_mut().for_each(|s| visit_src(s, v));
        visit_dst(&mut self.dst, RegFile::Gpr, 1, v);
    }
    #[inline]
    pub fn eval(&self, x: [u32; 3]) -> u32 {
        let pair = (u64::from(x[2]) << 32) | u64::from(x[0]);
        let s = if self.wrap { x[1] & 31 } else { x[1].min(32) };
        let r = if self.right { pair >> s } else { pair << s };
        if self.high {
            (r >> 32) as u32
        } else {
            r as u32
        }
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dir = if self.right { ".R" } else { ".L" };
        let w = if self.wrap { ".W" } else { "" };
        let hi = if self.high { ".HI" } else { "" };
        write!(f, "SHF{dir}{w}.U32{hi} ")?;
        self.dst.fmt_in(RegFile::Gpr, f)?;
        srcs_text(f, &[&self.srcs[0], &self.srcs[1], &self.srcs[2]])
    }
}

/// Conversions between 32-bit integers and floats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConvKind {
    /// I2F: integer to float, round to nearest even.
    IntToFloat,
    /// F2I: float to integer, round toward zero, saturating; NaN gives
    /// 0x80000000 (signed or not).
    FloatToInt,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpConv {
    pub kind: ConvKind,
    pub dst: Dst,
    pub src: Src,
    /// The integer side is signed (S32) rather than unsigned (U32).
    pub signed: bool,
}

impl OpConv {
    /// (inferred) from NAK's SM70 encoder: I2F 0x106, F2I 0x105.
    pub const OPCODE_I2F: u16 = 0x106;
    pub const OPCODE_F2I: u16 = 0x105;
    /// Fields found with `nvdisasm -b SM86` probes (docs/ISA.md): the
    /// integer side's signedness (I2F: bit 74, F2I: bit 72); the
    /// destination format 75..77 (I2F: float, F32 = 2; F2I: integer size,
    /// 32 bits = 2); rounding 78..80 (F2I: TRUNC = 3); the source format
    /// 84..86 (I2F: integer size, F2I: float; 32 bits = 2 for both).
    const I2F_SIGNED: usize = 74;
    const F2I_SIGNED: usize = 72;
    const DST_FMT: std::ops::Range<usize> = 75..77;
    const SRC_FMT: std::ops::Range<usize> = 84..86;
    const RND: std::ops::Range<usize> = 78..80;
    const FMT_32: u64 = 2;
    const RND_TRUNC: u64 = 3;

    fn signed_bit(kind: ConvKind) -> usize {
        match kind {
            ConvKind::IntToFloat => Self::I2F_SIGNED,
            ConvKind::FloatToInt => Self::F2I_SIGNED,
        }
    }

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        set_dst(w, &self.dst)?;
        let opcode = match self.kind {
            ConvKind::IntToFloat => Self::OPCODE_I2F,
            ConvKind::FloatToInt => Self::OPCODE_F2I,
        };
        w.set_alu_srcs(opcode, None, &self.src, None, false)?;
        w.set_bit(Self::signed_bit(self.kind), self.signed);
        w.set(Self::DST_FMT, Self::FMT_32);
        w.set(Self::SRC_FMT, Self::FMT_32);
        if self.kind == ConvKind::FloatToInt {
            w.set(Self::RND, Self::RND_TRUNC);
        }
        Ok(())
    }
    pub fn decode(w: &InstWord, kind: ConvKind) -> Result<Self, DecodeError> {
        let (_, src, _) = w.get_alu_srcs(false)?;
        Ok(OpConv {
            kind,
            dst: get_dst(w, field::DST, RegFile::Gpr),
            src,
            signed: w.bit(Self::signed_bit(kind)),
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        visit_src(&mut self.src, v);
        visit_dst(&mut self.dst, RegFile::Gpr, 1, v);
    }
    #[inline]
    pub fn eval(&self, a: u32) -> u32 {
        match (self.kind, self.signed) {
            (ConvKind::IntToFloat, false) => (a as f32).to_bits(),
            (ConvKind::IntToFloat, true) => (a as i32 as f32).to_bits(),
            // NaN gives 0x80000000 for both signednesses, as the H100 does
            // (tests/op_truth.rs); otherwise Rust's casts truncate and
            // saturate as the hardware does.
            (ConvKind::FloatToInt, _) if f32::from_bits(a).is_nan() => 0x8000_0000,
            (ConvKind::FloatToInt, false) => f32::from_bits(a) as u32,
            (ConvKind::FloatToInt, true) => f32::from_bits(a) as i32 as u32,
        }
    }
    pub fn mnemonic(&self) -> &'static str {
        match self.kind {
            ConvKind::IntToFloat => "I2F",
            ConvKind::FloatToInt => "F2I",
        }
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let int = if self.signed { "S32" } else { "U32" };
        match self.kind {
            ConvKind::IntToFloat => write!(f, "I2F.{int} ")?,
            ConvKind::FloatToInt => write!(f, "F2I.{int}.TRUNC ")?,
        }
        self.dst.fmt_in(RegFile::Gpr, f)?;
        srcs_text(f, &[&self.src])
    }
}

impl_alu!(OpMov, 1, src, Gpr, pred: none, float: |_o| false, commuting: &[],
    live: |_o| 1, lane: |o, [a], _p| o.eval(a));
impl_alu!(OpIAdd3, 3, srcs, Gpr, pred: none, float: |_o| false,
    commuting: &[(0, 1), (0, 2), (1, 2)], live: |_o| 3, lane: |o, x, _p| o.eval(x));
impl_alu!(OpIMad, 3, srcs, Gpr, pred: none, float: |_o| false, commuting: &[(0, 1)],
    live: |_o| 3, lane: |o, x, _p| o.eval(x));
impl_alu!(OpISetP, 2, srcs, Pred, pred: accum, float: |_o| false, commuting: &[],
    live: |_o| 2, lane: |o, [a, b], p| u32::from(o.eval(a, b, p)));
impl_alu!(OpSel, 2, srcs, Gpr, pred: cond, float: |_o| false, commuting: &[],
    live: |_o| 2, lane: |o, [a, b], p| o.eval(a, b, p));
impl_alu!(OpLop3, 3, srcs, Gpr, pred: none, float: |_o| false, commuting: &[],
    live: |_o| 3, lane: |o, x, _p| o.eval(x));
impl_alu!(OpShf, 3, srcs, Gpr, pred: none, float: |_o| false, commuting: &[],
    live: |_o| 3, lane: |o, x, _p| o.eval(x));
impl_alu!(OpConv, 1, src, Gpr, pred: none, float: |o| o.kind == ConvKind::FloatToInt,
    commuting: &[], live: |_o| 1, lane: |o, [a], _p| o.eval(a));
