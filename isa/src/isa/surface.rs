//! Surface (storage image and storage texel buffer) ops in their bindless
//! form: SULD (load), SUST (store) and SUATOM (atomic; SURED without a
//! result). The handle is a register (bits 64..72). Opcodes and fields
//! from NAK's SM70 encoder; the fields shared with nvdisasm's bound forms
//! are checked against them (docs/ISA.md, "Texture and surface ops";
//! isa/tests/real_tex.rs).
//!
//! Coordinates are integers in one register vector: x, (y), (z or layer)
//! for the surface dimension; a vector of 3 takes an aligned group of 4.
//! The formatted (`.P`) forms convert by the image header's format and
//! take a component mask; the binary (`.D`) forms move raw bytes.

use super::mem::{AtomOp, AtomType, MemSize, get_src_n, set_src_n};
use super::operand::{get_dst, set_dst, visit_dst, visit_src, visit_src_n};
use super::reg::{Dst, RegFile, Src};
use super::tex::group_width;
use super::word::{InstWord, field};
use super::{DecodeError, EncodeError, RegVisitor};
use std::fmt;
use std::ops::Range;

/// The surface dimension field (bits 61..64).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SuDim {
    D1,
    Buffer,
    Array1D,
    D2,
    Array2D,
    D3,
}

impl SuDim {
    pub const ALL: [SuDim; 6] = [
        SuDim::D1,
        SuDim::Buffer,
        SuDim::Array1D,
        SuDim::D2,
        SuDim::Array2D,
        SuDim::D3,
    ];
    fn decode(bits: u64) -> Result<SuDim, DecodeError> {
        SuDim::ALL
            .get(bits as usize)
            .copied()
            .ok_or(DecodeError::BadField {
                field: "surface dimension",
                value: bits,
            })
    }
    pub fn name(self) -> &'static str {
        match self {
            SuDim::D1 => "1D",
            SuDim::Buffer => "1D_BUFFER",
            SuDim::Array1D => "1D_ARRAY",
            SuDim::D2 => "2D",
            SuDim::Array2D => "2D_ARRAY",
            SuDim::D3 => "3D",
        }
    }
    /// Coordinate registers (layer included).
    pub fn coords(self) -> u8 {
        match self {
            SuDim::D1 | SuDim::Buffer => 1,
            SuDim::Array1D | SuDim::D2 => 2,
            SuDim::Array2D | SuDim::D3 => 3,
        }
    }
}

/// Formatted (converted by the header's format, a component mask 1, 3
/// or 0xf) or binary (raw bytes of a size).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SuAccess {
    Formatted(u8),
    Binary(MemSize),
}

impl SuAccess {
    /// Registers of the data.
    pub fn regs(self) -> u8 {
        match self {
            SuAccess::Formatted(mask) => group_width(mask.count_ones() as u8),
            SuAccess::Binary(size) => size.regs(),
        }
    }
    fn check(self) -> Result<(), EncodeError> {
        match self {
            SuAccess::Formatted(m) if !matches!(m, 1 | 3 | 0xf) => {
                Err(EncodeError::ImmediateRange {
                    what: "surface component mask",
                    value: u32::from(m),
                })
            }
            _ => Ok(()),
        }
    }
}

/// The memory order field (bits 77..81) as nvdisasm names it. Its
/// encoding differs between Turing and Ampere on (NAK's SM70 encoder,
/// and nvdisasm's words for sm_75 and sm_86), so instruction selection
/// picks by target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SuOrder {
    /// `.STRONG.SM` (Ampere on).
    StrongSm,
    /// `.STRONG.CTA` (Turing).
    StrongCta,
    /// `.STRONG.SYS` (Ampere on).
    StrongSys,
}

impl SuOrder {
    pub const ALL: [SuOrder; 3] = [SuOrder::StrongSm, SuOrder::StrongCta, SuOrder::StrongSys];
    fn bits(self) -> u64 {
        match self {
            SuOrder::StrongSm => 0b0101,
            SuOrder::StrongCta => 0b1000,
            SuOrder::StrongSys => 0b1010,
        }
    }
    fn decode(bits: u64) -> Result<SuOrder, DecodeError> {
        SuOrder::ALL
            .into_iter()
            .find(|o| o.bits() == bits)
            .ok_or(DecodeError::BadField {
                field: "surface memory order",
                value: bits,
            })
    }
    pub fn suffix(self) -> &'static str {
        match self {
            SuOrder::StrongSm => ".STRONG.SM",
            SuOrder::StrongCta => ".STRONG.CTA",
            SuOrder::StrongSys => ".STRONG.SYS",
        }
    }
}

const DIM: Range<usize> = 61..64;
/// Out-of-range coordinates fault (`.TRAP`) instead of being ignored
/// (`.IGN`: loads give zero, stores do nothing).
const TRAP: usize = 60;
const HANDLE: Range<usize> = 64..72;
/// Binary forms: coordinate x counts bytes (`.BA`).
const BYTE_ADDR: usize = 72;
const TYPE: Range<usize> = 73..76;
const MASK: Range<usize> = 72..76;
const ORDER: Range<usize> = 77..81;
const FAULT: Range<usize> = 81..84;
/// Eviction priority; 1 (normal) in NAK's words and nvdisasm's.
const EVICT: Range<usize> = 84..87;
const DATA: Range<usize> = 32..40;
const ATOM_OP: Range<usize> = 87..91;
const RED_OP: Range<usize> = 87..90;

fn set_common(
    w: &mut InstWord,
    dim: SuDim,
    coord: &Src,
    handle: &Src,
    trap: bool,
    order: SuOrder,
) -> Result<(), EncodeError> {
    set_src_n(w, field::SRC0, coord, group_width(dim.coords()))?;
    w.set_gpr_src(HANDLE, handle)?;
    w.set(DIM, dim as u64);
    w.set_bit(TRAP, trap);
    w.set(ORDER, order.bits());
    w.set(EVICT, 1);
    Ok(())
}

fn set_access(w: &mut InstWord, access: SuAccess, byte_addr: bool) {
    match access {
        SuAccess::Formatted(mask) => w.set(MASK, u64::from(mask)),
        SuAccess::Binary(size) => {
            w.set_bit(BYTE_ADDR, byte_addr);
            w.set(TYPE, size as u64);
        }
    }
}

fn get_access(w: &InstWord, formatted: bool) -> Result<(SuAccess, bool), DecodeError> {
    if formatted {
        let mask = w.get(MASK);
        if !matches!(mask, 1 | 3 | 0xf) {
            return Err(DecodeError::BadField {
                field: "surface component mask",
                value: mask,
            });
        }
        return Ok((SuAccess::Formatted(mask as u8), false));
    }
    let t = w.get(TYPE);
    let size = *MemSize::ALL.get(t as usize).ok_or(DecodeError::BadField {
        field: "surface type",
        value: t,
    })?;
    Ok((SuAccess::Binary(size), w.bit(BYTE_ADDR)))
}

fn access_text(access: SuAccess, byte_addr: bool) -> String {
    match access {
        SuAccess::Formatted(_) => ".P".to_string(),
        SuAccess::Binary(size) => {
            let ba = if byte_addr { ".BA" } else { "" };
            format!(".D{ba}{}", size.suffix())
        }
    }
}

fn trap_text(trap: bool) -> &'static str {
    if trap { ".TRAP" } else { ".IGN" }
}

/// `SULD.B{.P|.D{.BA}{size}}.dim{order}{.TRAP|.IGN} Rd, [Rc], Rh{, mask}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpSuLd {
    pub dst: Dst,
    pub coord: Src,
    pub handle: Src,
    pub dim: SuDim,
    pub access: SuAccess,
    pub byte_addr: bool,
    pub trap: bool,
    pub order: SuOrder,
}

impl OpSuLd {
    pub const OPCODE_P: u16 = 0x998;
    pub const OPCODE_D: u16 = 0x99a;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        self.access.check()?;
        let opcode = match self.access {
            SuAccess::Formatted(_) => Self::OPCODE_P,
            SuAccess::Binary(_) => Self::OPCODE_D,
        };
        w.set(field::OPCODE, u64::from(opcode));
        super::mem::set_dst_n(w, &self.dst, self.access.regs())?;
        set_common(
            w,
            self.dim,
            &self.coord,
            &self.handle,
            self.trap,
            self.order,
        )?;
        set_access(w, self.access, self.byte_addr);
        w.set(FAULT, 7);
        Ok(())
    }
    pub fn decode(w: &InstWord, formatted: bool) -> Result<Self, DecodeError> {
        let dim = SuDim::decode(w.get(DIM))?;
        let (access, byte_addr) = get_access(w, formatted)?;
        Ok(OpSuLd {
            dst: super::mem::get_dst_n(w, access.regs())?,
            coord: get_src_n(w, field::SRC0, group_width(dim.coords()))?,
            handle: w.get_gpr_src(HANDLE),
            dim,
            access,
            byte_addr,
            trap: w.bit(TRAP),
            order: SuOrder::decode(w.get(ORDER))?,
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        visit_src_n(&mut self.coord, group_width(self.dim.coords()), v);
        visit_src(&mut self.handle, v);
        visit_dst(&mut self.dst, RegFile::Gpr, self.access.regs(), v);
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SULD.B{}.{}{}{} ",
            access_text(self.access, self.byte_addr),
            self.dim.name(),
            self.order.suffix(),
            trap_text(self.trap)
        )?;
        self.dst.fmt_in(RegFile::Gpr, f)?;
        write!(f, ", [")?;
        self.coord.fmt_src(f)?;
        write!(f, "], ")?;
        self.handle.fmt_src(f)?;
        fmt_mask(f, self.access)
    }
}

/// `SUST.B{.P|.D{.BA}{size}}.dim{order}{.TRAP|.IGN} [Rc], Rd, Rh{, mask}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpSuSt {
    pub coord: Src,
    pub data: Src,
    pub handle: Src,
    pub dim: SuDim,
    pub access: SuAccess,
    pub byte_addr: bool,
    pub trap: bool,
    pub order: SuOrder,
}

impl OpSuSt {
    pub const OPCODE_P: u16 = 0x99c;
    pub const OPCODE_D: u16 = 0x99e;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        self.access.check()?;
        let opcode = match self.access {
            SuAccess::Formatted(_) => Self::OPCODE_P,
            SuAccess::Binary(_) => Self::OPCODE_D,
        };
        w.set(field::OPCODE, u64::from(opcode));
        set_common(
            w,
            self.dim,
            &self.coord,
            &self.handle,
            self.trap,
            self.order,
        )?;
        set_src_n(w, DATA, &self.data, self.access.regs())?;
        set_access(w, self.access, self.byte_addr);
        Ok(())
    }
    pub fn decode(w: &InstWord, formatted: bool) -> Result<Self, DecodeError> {
        let dim = SuDim::decode(w.get(DIM))?;
        let (access, byte_addr) = get_access(w, formatted)?;
        Ok(OpSuSt {
            coord: get_src_n(w, field::SRC0, group_width(dim.coords()))?,
            data: get_src_n(w, DATA, access.regs())?,
            handle: w.get_gpr_src(HANDLE),
            dim,
            access,
            byte_addr,
            trap: w.bit(TRAP),
            order: SuOrder::decode(w.get(ORDER))?,
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        visit_src_n(&mut self.coord, group_width(self.dim.coords()), v);
        visit_src_n(&mut self.data, self.access.regs(), v);
        visit_src(&mut self.handle, v);
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SUST.B{}.{}{}{} [",
            access_text(self.access, self.byte_addr),
            self.dim.name(),
            self.order.suffix(),
            trap_text(self.trap)
        )?;
        self.coord.fmt_src(f)?;
        write!(f, "], ")?;
        self.data.fmt_src(f)?;
        write!(f, ", ")?;
        self.handle.fmt_src(f)?;
        fmt_mask(f, self.access)
    }
}

/// The component mask of a formatted access, as a last operand.
fn fmt_mask(f: &mut fmt::Formatter<'_>, access: SuAccess) -> fmt::Result {
    match access {
        SuAccess::Formatted(mask) => write!(f, ", {mask:#x}"),
        SuAccess::Binary(_) => Ok(()),
    }
}

/// `SUATOM.B.D.dim.op{type}{order}{.TRAP|.IGN} Rd, [Rc], Rv, Rh` (the old
/// value in Rd), or `SURED.B...` without a result. Compare-and-swap
/// takes (compare, new) in an aligned pair Rv.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpSuAtom {
    pub dst: Dst,
    pub coord: Src,
    pub data: Src,
    pub handle: Src,
    pub dim: SuDim,
    pub op: AtomOp,
    pub ty: AtomType,
    /// Coordinate x counts bytes (`.BA`; nvcc's form). NAK and this
    /// compiler count elements.
    pub byte_addr: bool,
    pub trap: bool,
    pub order: SuOrder,
    /// SURED: no result.
    pub red: bool,
}

impl OpSuAtom {
    pub const OPCODE: u16 = 0x394;
    pub const OPCODE_CAS: u16 = 0x396;
    pub const OPCODE_RED: u16 = 0x3a0;

    fn data_regs(&self) -> u8 {
        let n = self.ty.regs();
        if self.op == AtomOp::CmpExch { 2 * n } else { n }
    }

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        let opcode = match (self.red, self.op) {
            (true, AtomOp::CmpExch) => {
                return Err(EncodeError::OperandForm("SUATOM for compare-and-swap"));
            }
            (true, _) => Self::OPCODE_RED,
            (false, AtomOp::CmpExch) => Self::OPCODE_CAS,
            (false, _) => Self::OPCODE,
        };
        w.set(field::OPCODE, u64::from(opcode));
        if self.red {
            w.set(RED_OP, self.op.bits());
            set_dst(w, &Dst::None)?;
        } else {
            if self.op != AtomOp::CmpExch {
                w.set(ATOM_OP, self.op.bits());
            }
            set_dst(w, &self.dst)?;
            w.set(FAULT, 7);
        }
        set_common(
            w,
            self.dim,
            &self.coord,
            &self.handle,
            self.trap,
            self.order,
        )?;
        set_src_n(w, DATA, &self.data, self.data_regs())?;
        w.set_bit(BYTE_ADDR, self.byte_addr);
        w.set(TYPE, self.ty.bits());
        Ok(())
    }
    pub fn decode(w: &InstWord, cas: bool, red: bool) -> Result<Self, DecodeError> {
        let op = if cas {
            AtomOp::CmpExch
        } else if red {
            AtomOp::decode(w.get(RED_OP))?
        } else {
            AtomOp::decode(w.get(ATOM_OP))?
        };
        let dim = SuDim::decode(w.get(DIM))?;
        let mut o = OpSuAtom {
            dst: if red {
                Dst::None
            } else {
                get_dst(w, field::DST, RegFile::Gpr)
            },
            coord: get_src_n(w, field::SRC0, group_width(dim.coords()))?,
            data: Src::ZERO,
            handle: w.get_gpr_src(HANDLE),
            dim,
            op,
            ty: match AtomType::decode(w)? {
                t @ (AtomType::U32 | AtomType::S32 | AtomType::F32) => t,
                AtomType::U64 | AtomType::S64 => {
                    return Err(DecodeError::BadField {
                        field: "surface atomic type (32-bit only)",
                        value: w.get(TYPE),
                    });
                }
            },
            byte_addr: w.bit(BYTE_ADDR),
            trap: w.bit(TRAP),
            order: SuOrder::decode(w.get(ORDER))?,
            red,
        };
        o.data = get_src_n(w, DATA, o.data_regs())?;
        Ok(o)
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        visit_src_n(&mut self.coord, group_width(self.dim.coords()), v);
        let n = self.data_regs();
        visit_src_n(&mut self.data, n, v);
        visit_src(&mut self.handle, v);
        visit_dst(&mut self.dst, RegFile::Gpr, self.ty.regs(), v);
    }
    pub fn mnemonic(&self) -> &'static str {
        if self.red { "SURED" } else { "SUATOM" }
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ba = if self.byte_addr { ".BA" } else { "" };
        write!(
            f,
            "{}.B.D{ba}.{}.{}{}{}{} ",
            self.mnemonic(),
            self.dim.name(),
            self.op.name(),
            self.ty.suffix(),
            self.order.suffix(),
            trap_text(self.trap)
        )?;
        if !self.red {
            self.dst.fmt_in(RegFile::Gpr, f)?;
            write!(f, ", ")?;
        }
        write!(f, "[")?;
        self.coord.fmt_src(f)?;
        write!(f, "], ")?;
        self.data.fmt_src(f)?;
        write!(f, ", ")?;
        self.handle.fmt_src(f)
    }
}
