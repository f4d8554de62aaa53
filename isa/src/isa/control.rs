//! Special-register reads and control flow: S2R, BRA, BSSY, BSYNC, EXIT,
//! NOP. Opcodes and fields from NAK's SM70 encoder (docs/ISA.md, "Ops").

use super::mem::{get_dst_n, set_dst_n};
use super::reg::{Dst, RegFile, SpecialReg};
use super::word::{InstWord, field};
use super::{DecodeError, EncodeError, OperandKind, RegVisitor};
use std::fmt;

/// Where a branch goes: a machine block (before layout) or a byte address
/// in the program (after layout, and in decoded programs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Block(u32),
    Addr(u32),
}

impl Target {
    fn encode_rel(
        &self,
        w: &mut InstWord,
        pc: u32,
        r: std::ops::Range<usize>,
    ) -> Result<(), EncodeError> {
        let Target::Addr(a) = *self else {
            return Err(EncodeError::UnresolvedTarget);
        };
        // Relative to the next instruction, in 4-byte words: nvdisasm reads
        // the field as a byte offset whose two low bits sit below it
        // (docs/ISA.md, "Branch offsets").
        let rel = i64::from(a) - (i64::from(pc) + 16);
        if rel % 4 != 0 {
            return Err(EncodeError::ImmediateRange {
                what: "branch offset (not a whole word)",
                value: rel as u32,
            });
        }
        let width = r.len();
        w.set(r, ((rel >> 2) as u64) & ((1u64 << width) - 1));
        Ok(())
    }

    fn decode_rel(w: &InstWord, pc: u32, r: std::ops::Range<usize>) -> Result<Target, DecodeError> {
        let width = r.len();
        let raw = w.get(r);
        let rel = (((raw << (64 - width)) as i64) >> (64 - width)) * 4;
        let addr = i64::from(pc) + 16 + rel;
        u32::try_from(addr)
            .map(Target::Addr)
            .map_err(|_| DecodeError::BadField {
                field: "branch offset",
                value: raw,
            })
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Block(b) => write!(f, "`(.L_{b})"),
            Target::Addr(a) => write!(f, "{a:#x}"),
        }
    }
}

/// S2R: reads a special register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpS2R {
    pub dst: Dst,
    pub sr: SpecialReg,
}

impl OpS2R {
    pub const OPCODE: u16 = 0x919;
    const SR: std::ops::Range<usize> = 72..80;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        w.set(field::OPCODE, u64::from(Self::OPCODE));
        match self.dst {
            Dst::Reg(r) => w.set_reg(field::DST, r)?,
            Dst::None => w.set(field::DST, u64::from(RegFile::Gpr.zero_index())),
        }
        w.set(Self::SR, u64::from(self.sr.index()));
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let i = w.get(Self::SR);
        let sr = SpecialReg::from_index(i as u8).ok_or(DecodeError::BadField {
            field: "special register",
            value: i,
        })?;
        Ok(OpS2R {
            dst: w
                .get_reg(field::DST, RegFile::Gpr)
                .map_or(Dst::None, Dst::Reg),
            sr,
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        if let Dst::Reg(r) = &mut self.dst {
            v(r, RegFile::Gpr, OperandKind::Def, 1);
        }
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "S2R ")?;
        self.dst.fmt_in(RegFile::Gpr, f)?;
        write!(f, ", {}", self.sr.name())
    }
}

/// `CS2R{.32} Rd, SR_x`: reads a special register into a register pair
/// (the 64-bit clock, or zeros from SRZ, ptxas's idiom for zeroing a pair),
/// or into one register with `.32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpCs2r {
    pub dst: Dst,
    pub sr: SpecialReg,
    pub wide: bool,
}

impl OpCs2r {
    pub const OPCODE: u16 = 0x805;
    const SR: std::ops::Range<usize> = 72..80;
    /// Set for `.32` (NAK: the destination is one register).
    const B32: usize = 80;

    fn regs(&self) -> u8 {
        if self.wide { 2 } else { 1 }
    }

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        if !matches!(self.sr, SpecialReg::ClockLo | SpecialReg::Zero) {
            return Err(EncodeError::OperandForm("CS2R of SR_CLOCKLO or SRZ"));
        }
        w.set(field::OPCODE, u64::from(Self::OPCODE));
        set_dst_n(w, &self.dst, self.regs())?;
        w.set(Self::SR, u64::from(self.sr.index()));
        w.set_bit(Self::B32, !self.wide);
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let i = w.get(Self::SR);
        let sr = SpecialReg::from_index(i as u8)
            .filter(|s| matches!(s, SpecialReg::ClockLo | SpecialReg::Zero))
            .ok_or(DecodeError::BadField {
                field: "CS2R special register",
                value: i,
            })?;
        let wide = !w.bit(Self::B32);
        Ok(OpCs2r {
            dst: get_dst_n(w, if wide { 2 } else { 1 })?,
            sr,
            wide,
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        let n = self.regs();
        if let Dst::Reg(r) = &mut self.dst {
            v(r, RegFile::Gpr, OperandKind::Def, n);
        }
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CS2R{} ", if self.wide { "" } else { ".32" })?;
        self.dst.fmt_in(RegFile::Gpr, f)?;
        write!(f, ", {}", self.sr.name())
    }
}

/// BRA: jumps (lanes whose guard holds) to `target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpBra {
    pub target: Target,
}

const BRA_OFFSET: std::ops::Range<usize> = 34..82;

impl OpBra {
    pub const OPCODE: u16 = 0x947;

    pub fn encode(&self, w: &mut InstWord, pc: u32) -> Result<(), EncodeError> {
        w.set(field::OPCODE, u64::from(Self::OPCODE));
        // The branch condition slot is PT: conditions use the guard.
        w.set(field::PSRC, 7);
        self.target.encode_rel(w, pc, BRA_OFFSET)
    }
    pub fn decode(w: &InstWord, pc: u32) -> Result<Self, DecodeError> {
        Ok(OpBra {
            target: Target::decode_rel(w, pc, BRA_OFFSET)?,
        })
    }
    /// No register operands.
    pub fn visit(&mut self, _: &mut impl RegVisitor) {}
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BRA {}", self.target)
    }
}

/// BSSY: records the lanes active now in convergence barrier `bar`, whose
/// reconvergence point is `target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpBssy {
    pub bar: u8,
    pub target: Target,
}

const BAR: std::ops::Range<usize> = 16..20;
const BSSY_OFFSET: std::ops::Range<usize> = 34..64;

impl OpBssy {
    pub const OPCODE: u16 = 0x945;
    /// Convergence barrier registers B0..B15.
    pub const BARRIERS: u8 = 16;

    pub fn encode(&self, w: &mut InstWord, pc: u32) -> Result<(), EncodeError> {
        w.set(field::OPCODE, u64::from(Self::OPCODE));
        w.set(BAR, u64::from(self.bar));
        // The predicate slot is PT, as nvcc writes it (`BSSY P0, B0` in
        // nvdisasm otherwise).
        w.set(field::PSRC, 7);
        self.target.encode_rel(w, pc, BSSY_OFFSET)
    }
    pub fn decode(w: &InstWord, pc: u32) -> Result<Self, DecodeError> {
        Ok(OpBssy {
            bar: w.get(BAR) as u8,
            target: Target::decode_rel(w, pc, BSSY_OFFSET)?,
        })
    }
    /// No register operands.
    pub fn visit(&mut self, _: &mut impl RegVisitor) {}
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BSSY B{}, {}", self.bar, self.target)
    }
}

/// BSYNC: waits until every lane recorded in barrier `bar` has arrived or
/// exited, then continues with all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpBsync {
    pub bar: u8,
}

impl OpBsync {
    pub const OPCODE: u16 = 0x941;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        w.set(field::OPCODE, u64::from(Self::OPCODE));
        w.set(BAR, u64::from(self.bar));
        w.set(field::PSRC, 7);
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        Ok(OpBsync {
            bar: w.get(BAR) as u8,
        })
    }
    /// No register operands.
    pub fn visit(&mut self, _: &mut impl RegVisitor) {}
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BSYNC B{}", self.bar)
    }
}
