//! Texture ops in their bindless (`.B`) form: TEX (filtered sample at an
//! explicit LOD), TLD (texel fetch), TLD4 (gather), TXD (sample with
//! gradients) and TXQ (header queries). The handle is a register operand
//! (docs/ABI.md, "Descriptor sets"). Opcodes and fields from NAK's SM70
//! encoder, checked against nvdisasm's bound forms (docs/ISA.md,
//! "Texture and surface ops"; isa/tests/real_tex.rs).
//!
//! Operands are two register vectors, packed as the hardware expects
//! (the rule is [`OpTex::src_counts`], which instruction selection and the
//! simulator share): `src0` = (array layer), coordinates; `src1` =
//! handle, (sample), (LOD), (packed offsets), (depth reference). TXD puts
//! the handle first in `src0` and the gradients, x/y interleaved, in
//! `src1`. A vector of 3 takes an aligned group of 4 registers. Results
//! come back in `dst0` (components 0..1) and `dst1` (components 2..3).

use super::mem::{get_src_n, set_src_n};
use super::operand::{set_dst, visit_dst, visit_src_n};
use super::reg::{Dst, Reg, RegFile, Src};
use super::word::{InstWord, field};
use super::{DecodeError, EncodeError, RegVisitor};
use std::fmt;
use std::ops::Range;

/// The texture dimension field (bits 61..64).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexDim {
    D1,
    D2,
    D3,
    Cube,
    Array1D,
    Array2D,
    ArrayCube,
}

impl TexDim {
    pub const ALL: [TexDim; 7] = [
        TexDim::D1,
        TexDim::D2,
        TexDim::D3,
        TexDim::Cube,
        TexDim::Array1D,
        TexDim::Array2D,
        TexDim::ArrayCube,
    ];
    fn bits(self) -> u64 {
        match self {
            TexDim::D1 => 0,
            TexDim::D2 => 1,
            TexDim::D3 => 2,
            TexDim::Cube => 3,
            TexDim::Array1D => 4,
            TexDim::Array2D => 5,
            TexDim::ArrayCube => 7,
        }
    }
    fn decode(bits: u64) -> Result<TexDim, DecodeError> {
        TexDim::ALL
            .into_iter()
            .find(|d| d.bits() == bits)
            .ok_or(DecodeError::BadField {
                field: "texture dimension",
                value: bits,
            })
    }
    pub fn name(self) -> &'static str {
        match self {
            TexDim::D1 => "1D",
            TexDim::D2 => "2D",
            TexDim::D3 => "3D",
            TexDim::Cube => "CUBE",
            TexDim::Array1D => "ARRAY_1D",
            TexDim::Array2D => "ARRAY_2D",
            TexDim::ArrayCube => "ARRAY_CUBE",
        }
    }
    /// Coordinate registers, without the layer.
    pub fn coords(self) -> u8 {
        match self {
            TexDim::D1 | TexDim::Array1D => 1,
            TexDim::D2 | TexDim::Array2D => 2,
            TexDim::D3 | TexDim::Cube | TexDim::ArrayCube => 3,
        }
    }
    pub fn is_array(self) -> bool {
        matches!(self, TexDim::Array1D | TexDim::Array2D | TexDim::ArrayCube)
    }
}

/// How the level of detail is chosen (bits 87..90).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LodMode {
    /// From derivatives (fragment shaders only).
    Auto,
    /// Level 0 (`.LZ`).
    Zero,
    /// Auto plus a bias register (`.LB`).
    Bias,
    /// The LOD register (`.LL`).
    Lod,
}

impl LodMode {
    pub const ALL: [LodMode; 4] = [LodMode::Auto, LodMode::Zero, LodMode::Bias, LodMode::Lod];
    fn suffix(self) -> &'static str {
        match self {
            LodMode::Auto => "",
            LodMode::Zero => ".LZ",
            LodMode::Bias => ".LB",
            LodMode::Lod => ".LL",
        }
    }
    /// Whether a LOD or bias register is among the sources.
    pub fn has_reg(self) -> bool {
        matches!(self, LodMode::Bias | LodMode::Lod)
    }
}

/// Which texture op.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexKind {
    Tex,
    Tld,
    /// Gather of one component (0..3: R, G, B, A).
    Tld4 {
        comp: u8,
    },
    Txd,
}

impl TexKind {
    fn mnemonic(self) -> &'static str {
        match self {
            TexKind::Tex => "TEX",
            TexKind::Tld => "TLD",
            TexKind::Tld4 { .. } => "TLD4",
            TexKind::Txd => "TXD",
        }
    }
}

const DST1: Range<usize> = 64..72;
const DIM: Range<usize> = 61..64;
/// Set in every bindless (`.B`) texture op.
const BINDLESS: usize = 59;
const MASK: Range<usize> = 72..76;
const AOFFI: usize = 76;
/// TLD4's offset mode: 0 none, 1 one offset for all four texels.
const TLD4_OFFSET: Range<usize> = 76..78;
const DC: usize = 78;
/// TLD: a multisampled fetch (sample index among the sources).
const MS: usize = 78;
const FAULT: Range<usize> = 81..84;
/// Eviction priority; NAK writes 1 (normal) and nvdisasm's words agree.
const EVICT: Range<usize> = 84..87;
const LOD: Range<usize> = 87..90;
const TLD4_COMP: Range<usize> = 87..89;

/// The register group width holding `n` values (3 takes an aligned 4).
pub fn group_width(n: u8) -> u8 {
    match n {
        0 => 0,
        1 => 1,
        2 => 2,
        _ => 4,
    }
}

/// `TEX.B{.LZ|.LL}{.AOFFI}{.DC}.dim Rd0, Rd1, Rs0, Rs1, mask` and its
/// siblings TLD, TLD4 and TXD.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpTex {
    pub kind: TexKind,
    pub dst: [Dst; 2],
    pub src: [Src; 2],
    pub dim: TexDim,
    /// Components written (bit i: component i), packed into dst0 then dst1.
    pub mask: u8,
    pub lod: LodMode,
    /// A packed offset register is among the sources (`.AOFFI`).
    pub offset: bool,
    /// A depth reference is among the sources (`.DC`; TEX and TLD4).
    pub dc: bool,
    /// A sample index is among the sources (`.MS`; TLD).
    pub ms: bool,
}

impl OpTex {
    pub const OPCODE_TEX: u16 = 0x361;
    pub const OPCODE_TLD4: u16 = 0x364;
    pub const OPCODE_TLD: u16 = 0x367;
    pub const OPCODE_TXD: u16 = 0x36d;

    /// How many registers each source vector holds (the hardware's
    /// packing; docs/ISA.md, "Texture and surface ops").
    pub fn src_counts(&self) -> [u8; 2] {
        let coords = self.dim.coords();
        let layer = u8::from(self.dim.is_array());
        match self.kind {
            TexKind::Txd => [
                1 + coords + u8::from(self.dim.is_array() || self.offset),
                2 * coords,
            ],
            _ => [
                layer + coords,
                1 + u8::from(self.ms)
                    + u8::from(self.lod.has_reg())
                    + u8::from(self.offset)
                    + u8::from(self.dc),
            ],
        }
    }

    /// Registers in each destination group.
    pub fn dst_counts(&self) -> [u8; 2] {
        let n = self.mask.count_ones() as u8;
        [n.min(2), n.saturating_sub(2)]
    }

    fn opcode(&self) -> u16 {
        match self.kind {
            TexKind::Tex => Self::OPCODE_TEX,
            TexKind::Tld => Self::OPCODE_TLD,
            TexKind::Tld4 { .. } => Self::OPCODE_TLD4,
            TexKind::Txd => Self::OPCODE_TXD,
        }
    }

    fn check(&self) -> Result<(), EncodeError> {
        let [s0, s1] = self.src_counts();
        if s0 > 4 || s1 > 4 {
            return Err(EncodeError::OperandForm(
                "at most four registers per texture source",
            ));
        }
        if self.mask == 0 || self.mask > 0xf {
            return Err(EncodeError::ImmediateRange {
                what: "texture component mask",
                value: u32::from(self.mask),
            });
        }
        let ok = match self.kind {
            TexKind::Tex => !self.ms,
            TexKind::Tld => !self.dc && matches!(self.lod, LodMode::Zero | LodMode::Lod),
            TexKind::Tld4 { comp } => {
                comp < 4 && !self.ms && self.lod == LodMode::Auto && self.mask == 0xf
            }
            TexKind::Txd => !self.ms && !self.dc && self.lod == LodMode::Auto,
        };
        if !ok {
            return Err(EncodeError::OperandForm(
                "a modifier combination the texture op has",
            ));
        }
        Ok(())
    }

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        self.check()?;
        let [s0, s1] = self.src_counts().map(group_width);
        let [d0, d1] = self.dst_counts().map(group_width);
        w.set(field::OPCODE, u64::from(self.opcode()));
        w.set_bit(BINDLESS, true);
        set_dst_group(w, field::DST, &self.dst[0], d0)?;
        set_dst_group(w, DST1, &self.dst[1], d1)?;
        set_src_n(w, field::SRC0, &self.src[0], s0.max(1))?;
        set_src_n(w, field::SRC1, &self.src[1], s1.max(1))?;
        w.set(DIM, self.dim.bits());
        w.set(MASK, u64::from(self.mask));
        w.set(FAULT, 7);
        w.set(EVICT, 1);
        match self.kind {
            TexKind::Tld4 { comp } => {
                w.set(TLD4_OFFSET, u64::from(self.offset));
                w.set(TLD4_COMP, u64::from(comp));
            }
            _ => {
                w.set_bit(AOFFI, self.offset);
                w.set(LOD, self.lod as u64);
            }
        }
        match self.kind {
            TexKind::Tld => w.set_bit(MS, self.ms),
            _ => w.set_bit(DC, self.dc),
        }
        Ok(())
    }

    pub fn decode(w: &InstWord, kind: TexKind) -> Result<Self, DecodeError> {
        if !w.bit(BINDLESS) {
            return Err(DecodeError::BadField {
                field: "bindless bit",
                value: 0,
            });
        }
        let kind = match kind {
            TexKind::Tld4 { .. } => TexKind::Tld4 {
                comp: w.get(TLD4_COMP) as u8,
            },
            k => k,
        };
        let (offset, lod) = match kind {
            TexKind::Tld4 { .. } => {
                let mode = w.get(TLD4_OFFSET);
                if mode > 1 {
                    return Err(DecodeError::BadField {
                        field: "TLD4 offset mode",
                        value: mode,
                    });
                }
                (mode == 1, LodMode::Auto)
            }
            _ => {
                let bits = w.get(LOD);
                let lod = *LodMode::ALL
                    .get(bits as usize)
                    .ok_or(DecodeError::BadField {
                        field: "LOD mode",
                        value: bits,
                    })?;
                (w.bit(AOFFI), lod)
            }
        };
        let (dc, ms) = match kind {
            TexKind::Tld => (false, w.bit(MS)),
            _ => (w.bit(DC), false),
        };
        let mut op = OpTex {
            kind,
            dst: [Dst::None; 2],
            src: [Src::ZERO; 2],
            dim: TexDim::decode(w.get(DIM))?,
            mask: w.get(MASK) as u8,
            lod,
            offset,
            dc,
            ms,
        };
        // A word no encoder writes (an empty mask, a modifier the op
        // lacks, more than four source registers) does not decode.
        op.check().map_err(|_| DecodeError::BadField {
            field: "texture op modifiers",
            value: w.get(MASK),
        })?;
        let [s0, s1] = op.src_counts().map(group_width);
        let [d0, d1] = op.dst_counts().map(group_width);
        op.dst = [
            get_dst_group(w, field::DST, d0)?,
            get_dst_group(w, DST1, d1)?,
        ];
        op.src = [
            get_src_n(w, field::SRC0, s0.max(1))?,
            get_src_n(w, field::SRC1, s1.max(1))?,
        ];
        Ok(op)
    }

    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        let [s0, s1] = self.src_counts().map(group_width);
        let [d0, d1] = self.dst_counts().map(group_width);
        visit_src_n(&mut self.src[0], s0.max(1), v);
        visit_src_n(&mut self.src[1], s1.max(1), v);
        visit_dst(&mut self.dst[0], RegFile::Gpr, d0.max(1), v);
        visit_dst(&mut self.dst[1], RegFile::Gpr, d1.max(1), v);
    }

    pub fn mnemonic(&self) -> &'static str {
        self.kind.mnemonic()
    }

    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.B", self.kind.mnemonic())?;
        if let TexKind::Tld4 { comp } = self.kind {
            write!(f, ".{}", ["R", "G", "B", "A"][usize::from(comp & 3)])?;
        }
        write!(f, "{}", self.lod.suffix())?;
        if self.offset {
            write!(f, ".AOFFI")?;
        }
        if self.dc {
            write!(f, ".DC")?;
        }
        if self.ms {
            write!(f, ".MS")?;
        }
        write!(f, ".{} ", self.dim.name())?;
        self.dst[0].fmt_in(RegFile::Gpr, f)?;
        write!(f, ", ")?;
        self.dst[1].fmt_in(RegFile::Gpr, f)?;
        write!(f, ", ")?;
        self.src[0].fmt_src(f)?;
        write!(f, ", ")?;
        self.src[1].fmt_src(f)?;
        write!(f, ", {:#x}", self.mask)
    }
}

/// Writes a destination group of `n` registers (0: RZ).
fn set_dst_group(w: &mut InstWord, r: Range<usize>, d: &Dst, n: u8) -> Result<(), EncodeError> {
    if let Dst::Reg(reg) = d
        && let Some(p) = reg.phys()
        && n > 1
        && p % n != 0
    {
        return Err(EncodeError::UnalignedGroup { reg: p, width: n });
    }
    if r == field::DST {
        return set_dst(w, d);
    }
    match d {
        Dst::Reg(reg) => w.set_reg(r, *reg),
        Dst::None => {
            w.set(r, u64::from(RegFile::Gpr.zero_index()));
            Ok(())
        }
    }
}

fn get_dst_group(w: &InstWord, r: Range<usize>, n: u8) -> Result<Dst, DecodeError> {
    match w.get_reg(r, RegFile::Gpr) {
        Some(Reg::Phys(p)) if n > 1 && p % n != 0 => Err(DecodeError::BadField {
            field: "register group alignment",
            value: u64::from(p),
        }),
        Some(reg) => Ok(Dst::Reg(reg)),
        None => Ok(Dst::None),
    }
}

/// What TXQ reads from the texture header (bits 62..64).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TxqQuery {
    /// Width, height, depth (or layers) at the LOD in the second source
    /// register, and the level count.
    Dimension,
    /// Texture type; component 2 is the sample count.
    TextureType,
    SamplerPos,
}

impl TxqQuery {
    pub const ALL: [TxqQuery; 3] = [
        TxqQuery::Dimension,
        TxqQuery::TextureType,
        TxqQuery::SamplerPos,
    ];
    pub fn name(self) -> &'static str {
        match self {
            TxqQuery::Dimension => "DIMENSION",
            TxqQuery::TextureType => "TEXTURE_TYPE",
            TxqQuery::SamplerPos => "SAMPLER_POS",
        }
    }
}

const TXQ_QUERY: Range<usize> = 62..64;

/// `TXQ.B.query Rd0, Rd1, Rs, mask`: `Rs` = handle, (LOD for a dimension
/// query).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpTxq {
    pub dst: [Dst; 2],
    pub src: Src,
    pub query: TxqQuery,
    pub mask: u8,
}

impl OpTxq {
    pub const OPCODE: u16 = 0x370;

    /// Source registers: the handle, and the LOD for a dimension query.
    pub fn src_count(&self) -> u8 {
        match self.query {
            TxqQuery::Dimension => 2,
            TxqQuery::TextureType | TxqQuery::SamplerPos => 1,
        }
    }
    pub fn dst_counts(&self) -> [u8; 2] {
        let n = self.mask.count_ones() as u8;
        [n.min(2), n.saturating_sub(2)]
    }

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        if self.mask == 0 || self.mask > 0xf {
            return Err(EncodeError::ImmediateRange {
                what: "TXQ component mask",
                value: u32::from(self.mask),
            });
        }
        let [d0, d1] = self.dst_counts().map(group_width);
        w.set(field::OPCODE, u64::from(Self::OPCODE));
        w.set_bit(BINDLESS, true);
        set_dst_group(w, field::DST, &self.dst[0], d0)?;
        set_dst_group(w, DST1, &self.dst[1], d1)?;
        set_src_n(w, field::SRC0, &self.src, self.src_count())?;
        w.set(TXQ_QUERY, self.query as u64);
        w.set(MASK, u64::from(self.mask));
        Ok(())
    }

    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let q = w.get(TXQ_QUERY);
        if w.get(MASK) == 0 {
            return Err(DecodeError::BadField {
                field: "TXQ component mask",
                value: 0,
            });
        }
        let mut op = OpTxq {
            dst: [Dst::None; 2],
            src: Src::ZERO,
            query: *TxqQuery::ALL.get(q as usize).ok_or(DecodeError::BadField {
                field: "TXQ query",
                value: q,
            })?,
            mask: w.get(MASK) as u8,
        };
        let [d0, d1] = op.dst_counts().map(group_width);
        op.dst = [
            get_dst_group(w, field::DST, d0)?,
            get_dst_group(w, DST1, d1)?,
        ];
        op.src = get_src_n(w, field::SRC0, op.src_count())?;
        Ok(op)
    }

    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        let [d0, d1] = self.dst_counts().map(group_width);
        let n = self.src_count();
        visit_src_n(&mut self.src, n, v);
        visit_dst(&mut self.dst[0], RegFile::Gpr, d0.max(1), v);
        visit_dst(&mut self.dst[1], RegFile::Gpr, d1.max(1), v);
    }

    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TXQ.B.{} ", self.query.name())?;
        self.dst[0].fmt_in(RegFile::Gpr, f)?;
        write!(f, ", ")?;
        self.dst[1].fmt_in(RegFile::Gpr, f)?;
        write!(f, ", ")?;
        self.src.fmt_src(f)?;
        write!(f, ", {:#x}", self.mask)
    }
}
