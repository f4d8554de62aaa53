//! Barriers between the threads of a workgroup and between memory
//! accesses: BAR.SYNC and MEMBAR. Opcodes from NAK's SM70 encoder
//! (docs/ISA.md, "Ops").

use super::word::{InstWord, field};
use super::{DecodeError, EncodeError, RegVisitor};
use std::fmt;
use std::ops::Range;

/// `BAR.SYNC.DEFER_BLOCKING 0x0`: waits until every thread of the workgroup
/// has arrived (barrier 0, all threads: the only form this ISA uses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpBar;

impl OpBar {
    pub const OPCODE: u16 = 0xb1d;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        w.set(field::OPCODE, u64::from(Self::OPCODE));
        w.set(field::PSRC, 7);
        Ok(())
    }
    /// No register operands.
    pub fn visit(&mut self, _: &mut impl RegVisitor) {}
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BAR.SYNC.DEFER_BLOCKING 0x0")
    }
}

/// How far a memory barrier orders accesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemScope {
    Cta,
    Gpu,
    Sys,
}

impl MemScope {
    pub const ALL: [MemScope; 3] = [MemScope::Cta, MemScope::Gpu, MemScope::Sys];
    /// NAK's scope field (bits 76..79): CTA 0, GPU 2, SYS 3.
    fn bits(self) -> u64 {
        match self {
            MemScope::Cta => 0,
            MemScope::Gpu => 2,
            MemScope::Sys => 3,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            MemScope::Cta => "CTA",
            MemScope::Gpu => "GPU",
            MemScope::Sys => "SYS",
        }
    }
}

/// `MEMBAR.SC.scope`: orders this thread's memory accesses before and after
/// it, as seen by the threads of `scope`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpMembar {
    pub scope: MemScope,
}

impl OpMembar {
    pub const OPCODE: u16 = 0x992;
    const SCOPE: Range<usize> = 76..79;
    /// Sequential consistency (.SC), always set here.
    const SC: usize = 80;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        w.set(field::OPCODE, u64::from(Self::OPCODE));
        w.set(Self::SCOPE, self.scope.bits());
        w.set_bit(Self::SC, true);
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let b = w.get(Self::SCOPE);
        let scope =
            MemScope::ALL
                .into_iter()
                .find(|s| s.bits() == b)
                .ok_or(DecodeError::BadField {
                    field: "MEMBAR scope",
                    value: b,
                })?;
        Ok(OpMembar { scope })
    }
    /// No register operands.
    pub fn visit(&mut self, _: &mut impl RegVisitor) {}
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MEMBAR.SC.{}", self.scope.name())
    }
}
