//! ISBE access: ISBEWR writes the output ISBE of a task or mesh shader,
//! ISBERD reads the input (or, with .O, the output) ISBE. Fields from
//! NAK's SM70 encoder (docs/ISA.md, "Ops").

use super::reg::{Dst, RegFile, Src, SrcRef};
use super::word::{InstWord, field};
use super::{DecodeError, EncodeError, OperandKind, RegVisitor};
use std::fmt;

/// The ISBE region an access goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IsbeAccess {
    Map,
    Patch,
    Prim,
    Attr,
}

impl IsbeAccess {
    pub const ALL: [IsbeAccess; 4] = [
        IsbeAccess::Map,
        IsbeAccess::Patch,
        IsbeAccess::Prim,
        IsbeAccess::Attr,
    ];
    pub fn suffix(self) -> &'static str {
        match self {
            IsbeAccess::Map => "",
            IsbeAccess::Patch => ".PATCH",
            IsbeAccess::Prim => ".PRIM",
            IsbeAccess::Attr => ".ATTR",
        }
    }
}

/// Access size: 8, 16 or 32 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IsbeSize {
    U8,
    U16,
    B32,
}

impl IsbeSize {
    pub const ALL: [IsbeSize; 3] = [IsbeSize::U8, IsbeSize::U16, IsbeSize::B32];
    pub fn bytes(self) -> u32 {
        match self {
            IsbeSize::U8 => 1,
            IsbeSize::U16 => 2,
            IsbeSize::B32 => 4,
        }
    }
    pub fn suffix(self) -> &'static str {
        match self {
            IsbeSize::U8 => "",
            IsbeSize::U16 => ".U16",
            IsbeSize::B32 => ".32",
        }
    }
}

const OFFSET_REG: std::ops::Range<usize> = 24..32;
const DATA_REG: std::ops::Range<usize> = 32..40;
const IMM_OFFSET: std::ops::Range<usize> = 40..56;
const SIZE: std::ops::Range<usize> = 74..76;
const ACCESS: std::ops::Range<usize> = 76..78;
const SKEW: usize = 78;
const OUTPUT: usize = 79;

/// The largest immediate ISBE offset (a 16-bit field).
pub const MAX_IMM_OFFSET: u32 = 0xffff;

fn visit_addr(addr: &mut Src, v: &mut impl RegVisitor) {
    if let SrcRef::Reg(r) = &mut addr.src {
        v(r, RegFile::Gpr, OperandKind::Use, 1);
    }
}

fn fmt_addr(f: &mut fmt::Formatter<'_>, addr: &Src, imm: u32) -> fmt::Result {
    write!(f, "[")?;
    match addr.src {
        SrcRef::Zero => write!(f, "{imm:#x}")?,
        _ => {
            addr.fmt_src(f)?;
            if imm != 0 {
                write!(f, "+{imm:#x}")?;
            }
        }
    }
    write!(f, "]")
}

fn decode_common(w: &InstWord) -> Result<(IsbeAccess, IsbeSize), DecodeError> {
    let size_bits = w.get(SIZE);
    let size = *IsbeSize::ALL
        .get(size_bits as usize)
        .ok_or(DecodeError::BadField {
            field: "ISBE size",
            value: size_bits,
        })?;
    let access = IsbeAccess::ALL[w.get(ACCESS) as usize];
    Ok((access, size))
}

/// `ISBEWR.O{.ATTR}{.SKEW}{.U16|.32} [Ra+imm], Rb`: writes the output ISBE.
/// `.SKEW` adds `lane * 4` to the address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpIsbeWr {
    pub addr: Src,
    /// Immediate offset; from SM86 on only (the target decides).
    pub imm: u32,
    pub data: Src,
    pub access: IsbeAccess,
    pub size: IsbeSize,
    pub skew: bool,
}

impl OpIsbeWr {
    pub const OPCODE: u16 = 0x927;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        if !matches!(self.access, IsbeAccess::Map | IsbeAccess::Attr) {
            return Err(EncodeError::OperandForm("ISBEWR with MAP or ATTR access"));
        }
        if self.imm > MAX_IMM_OFFSET {
            return Err(EncodeError::ImmediateRange {
                what: "ISBE offset",
                value: self.imm,
            });
        }
        w.set(field::OPCODE, u64::from(Self::OPCODE));
        w.set_gpr_src(OFFSET_REG, &self.addr)?;
        w.set_gpr_src(DATA_REG, &self.data)?;
        w.set(IMM_OFFSET, u64::from(self.imm));
        w.set(SIZE, self.size as u64);
        w.set(ACCESS, self.access as u64);
        w.set_bit(SKEW, self.skew);
        w.set_bit(OUTPUT, true);
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let (access, size) = decode_common(w)?;
        if !w.bit(OUTPUT) {
            return Err(DecodeError::BadField {
                field: "ISBEWR output bit",
                value: 0,
            });
        }
        Ok(OpIsbeWr {
            addr: w.get_gpr_src(OFFSET_REG),
            imm: w.get(IMM_OFFSET) as u32,
            data: w.get_gpr_src(DATA_REG),
            access,
            size,
            skew: w.bit(SKEW),
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        visit_addr(&mut self.addr, v);
        if let SrcRef::Reg(r) = &mut self.data.src {
            v(r, RegFile::Gpr, OperandKind::Use, 1);
        }
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let skew = if self.skew { ".SKEW" } else { "" };
        write!(
            f,
            "ISBEWR.O{}{skew}{} ",
            self.access.suffix(),
            self.size.suffix()
        )?;
        fmt_addr(f, &self.addr, self.imm)?;
        write!(f, ", ")?;
        self.data.fmt_src(f)
    }
}

/// `ISBERD{.O}{.PATCH|.PRIM|.ATTR}{.SKEW}{.U16|.32} Rd, [Ra+imm]`: reads the
/// input ISBE, or the output ISBE with `.O` (mesh shared memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpIsbeRd {
    pub dst: Dst,
    pub addr: Src,
    pub imm: u32,
    pub output: bool,
    pub access: IsbeAccess,
    pub size: IsbeSize,
    pub skew: bool,
}

impl OpIsbeRd {
    pub const OPCODE: u16 = 0x923;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        if self.imm > MAX_IMM_OFFSET {
            return Err(EncodeError::ImmediateRange {
                what: "ISBE offset",
                value: self.imm,
            });
        }
        w.set(field::OPCODE, u64::from(Self::OPCODE));
        match self.dst {
            Dst::Reg(r) => w.set_reg(field::DST, r)?,
            Dst::None => w.set(field::DST, u64::from(RegFile::Gpr.zero_index())),
        }
        w.set_gpr_src(OFFSET_REG, &self.addr)?;
        w.set(IMM_OFFSET, u64::from(self.imm));
        w.set(SIZE, self.size as u64);
        w.set(ACCESS, self.access as u64);
        w.set_bit(SKEW, self.skew);
        w.set_bit(OUTPUT, self.output);
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let (access, size) = decode_common(w)?;
        Ok(OpIsbeRd {
            dst: w
                .get_reg(field::DST, RegFile::Gpr)
                .map_or(Dst::None, Dst::Reg),
            addr: w.get_gpr_src(OFFSET_REG),
            imm: w.get(IMM_OFFSET) as u32,
            output: w.bit(OUTPUT),
            access,
            size,
            skew: w.bit(SKEW),
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        visit_addr(&mut self.addr, v);
        if let Dst::Reg(r) = &mut self.dst {
            v(r, RegFile::Gpr, OperandKind::Def, 1);
        }
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = if self.output { ".O" } else { "" };
        let skew = if self.skew { ".SKEW" } else { "" };
        write!(
            f,
            "ISBERD{o}{}{skew}{} ",
            self.access.suffix(),
            self.size.suffix()
        )?;
        self.dst.fmt_in(RegFile::Gpr, f)?;
        write!(f, ", ")?;
        fmt_addr(f, &self.addr, self.imm)
    }
}
