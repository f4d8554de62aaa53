//! Operands of the SASS-like ISA: registers (virtual before register
//! allocation, physical after), sources with modifiers, destinations,
//! predicates and special registers.

use std::fmt;

/// The register files an operand slot can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegFile {
    /// R0..R254; RZ (255) reads as zero and discards writes.
    Gpr,
    /// P0..P6; PT (7) reads as true and discards writes.
    Pred,
}

impl RegFile {
    /// The encoding of the zero register (RZ) or the true predicate (PT).
    pub const fn zero_index(self) -> u8 {
        match self {
            RegFile::Gpr => 255,
            RegFile::Pred => 7,
        }
    }
}

/// A register: a virtual one (an SSA value of the machine IR, before
/// allocation) or a physical one. Which file it lives in follows from the
/// operand slot it fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reg {
    Virt(u32),
    Phys(u8),
}

impl Reg {
    /// The physical index; virtual registers have none.
    pub fn phys(self) -> Option<u8> {
        match self {
            Reg::Phys(n) => Some(n),
            Reg::Virt(_) => None,
        }
    }

    pub(crate) fn fmt_in(self, file: RegFile, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self, file) {
            (Reg::Phys(n), RegFile::Gpr) => write!(f, "R{n}"),
            (Reg::Phys(n), RegFile::Pred) => write!(f, "P{n}"),
            (Reg::Virt(n), RegFile::Gpr) => write!(f, "%r{n}"),
            (Reg::Virt(n), RegFile::Pred) => write!(f, "%p{n}"),
        }
    }
}

/// What a source operand reads, before modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SrcRef {
    Reg(Reg),
    /// RZ: reads as zero.
    Zero,
    Imm(u32),
    /// `c[bank][offset]`, a constant-bank word.
    CBuf {
        bank: u8,
        offset: u16,
    },
}

/// A GPR source with the float/integer modifiers ALU ops accept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Src {
    pub src: SrcRef,
    pub neg: bool,
    pub abs: bool,
}

impl Src {
    pub const ZERO: Src = Src {
        src: SrcRef::Zero,
        neg: false,
        abs: false,
    };

    pub fn reg(r: Reg) -> Src {
        Src {
            src: SrcRef::Reg(r),
            neg: false,
            abs: false,
        }
    }

    pub fn imm(v: u32) -> Src {
        Src {
            src: SrcRef::Imm(v),
            neg: false,
            abs: false,
        }
    }

    pub fn negated(self) -> Src {
        Src {
            neg: !self.neg,
            ..self
        }
    }

    /// The register, when the source is one.
    pub fn as_reg(&self) -> Option<Reg> {
        match self.src {
            SrcRef::Reg(r) => Some(r),
            _ => None,
        }
    }

    pub fn is_reg_or_zero(&self) -> bool {
        matches!(self.src, SrcRef::Reg(_) | SrcRef::Zero)
    }

    /// Formats the source; `float` prints immediates as floats where
    /// nvdisasm does (it prints `200` for 0x43480000 in FADD, but the hex in
    /// MOV: this ISA prints hex everywhere for exactness, see docs/ISA.md).
    pub(crate) fn fmt_src(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.neg {
            write!(f, "-")?;
        }
        if self.abs {
            write!(f, "|")?;
        }
        match self.src {
            SrcRef::Reg(r) => r.fmt_in(RegFile::Gpr, f)?,
            SrcRef::Zero => write!(f, "RZ")?,
            SrcRef::Imm(v) => write!(f, "{v:#x}")?,
            SrcRef::CBuf { bank, offset } => write!(f, "c[{bank:#x}][{offset:#x}]")?,
        }
        if self.abs {
            write!(f, "|")?;
        }
        Ok(())
    }
}

/// A GPR destination; `None` is RZ (the result is discarded).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dst {
    Reg(Reg),
    None,
}

impl Dst {
    pub(crate) fn fmt_in(&self, file: RegFile, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dst::Reg(r) => r.fmt_in(file, f),
            Dst::None if file == RegFile::Gpr => write!(f, "RZ"),
            Dst::None => write!(f, "PT"),
        }
    }
}

/// A predicate source: a predicate register or PT, possibly negated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PredSrc {
    /// `None` is PT.
    pub reg: Option<Reg>,
    pub neg: bool,
}

impl PredSrc {
    pub const TRUE: PredSrc = PredSrc {
        reg: None,
        neg: false,
    };

    pub fn reg(r: Reg) -> PredSrc {
        PredSrc {
            reg: Some(r),
            neg: false,
        }
    }

    pub fn is_true(&self) -> bool {
        self.reg.is_none() && !self.neg
    }
}

impl fmt::Display for PredSrc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.neg {
            write!(f, "!")?;
        }
        match self.reg {
            Some(r) => r.fmt_in(RegFile::Pred, f),
            None => write!(f, "PT"),
        }
    }
}

/// Special registers read by S2R (indices as docs/ISA.md lists them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpecialReg {
    LaneId,
    VirtCfg,
    VirtId,
    InvocationId,
    InvocationInfo,
    Tid,
    TidX,
    TidY,
    TidZ,
    CtaIdX,
    CtaIdY,
    CtaIdZ,
    EqMask,
    LtMask,
    LeMask,
    GtMask,
    GeMask,
    ClockLo,
    ClockHi,
    /// SRZ: reads as zero.
    Zero,
}

impl SpecialReg {
    pub const ALL: [SpecialReg; 20] = [
        SpecialReg::LaneId,
        SpecialReg::VirtCfg,
        SpecialReg::VirtId,
        SpecialReg::InvocationId,
        SpecialReg::InvocationInfo,
        SpecialReg::Tid,
        SpecialReg::TidX,
        SpecialReg::TidY,
        SpecialReg::TidZ,
        SpecialReg::CtaIdX,
        SpecialReg::CtaIdY,
        SpecialReg::CtaIdZ,
        SpecialReg::EqMask,
        SpecialReg::LtMask,
        SpecialReg::LeMask,
        SpecialReg::GtMask,
        SpecialReg::GeMask,
        SpecialReg::ClockLo,
        SpecialReg::ClockHi,
        SpecialReg::Zero,
    ];

    /// The S2R index (from NAK's SM70 encoder; docs/ISA.md lists them).
    pub fn index(self) -> u8 {
        match self {
            SpecialReg::LaneId => 0x00,
            SpecialReg::VirtCfg => 0x02,
            SpecialReg::VirtId => 0x03,
            SpecialReg::InvocationId => 0x11,
            SpecialReg::InvocationInfo => 0x1d,
            SpecialReg::Tid => 0x20,
            SpecialReg::TidX => 0x21,
            SpecialReg::TidY => 0x22,
            SpecialReg::TidZ => 0x23,
            SpecialReg::CtaIdX => 0x25,
            SpecialReg::CtaIdY => 0x26,
            SpecialReg::CtaIdZ => 0x27,
            SpecialReg::EqMask => 0x38,
            SpecialReg::LtMask => 0x39,
            SpecialReg::LeMask => 0x3a,
            SpecialReg::GtMask => 0x3b,
            SpecialReg::GeMask => 0x3c,
            SpecialReg::ClockLo => 0x50,
            SpecialReg::ClockHi => 0x51,
            SpecialReg::Zero => 0xff,
        }
    }

    pub fn from_index(i: u8) -> Option<SpecialReg> {
        SpecialReg::ALL.into_iter().find(|s| s.index() == i)
    }

    pub fn name(self) -> &'static str {
        match self {
            SpecialReg::LaneId => "SR_LANEID",
            SpecialReg::VirtCfg => "SR_VIRTCFG",
            SpecialReg::VirtId => "SR_VIRTID",
            SpecialReg::InvocationId => "SR_INVOCATION_ID",
            SpecialReg::InvocationInfo => "SR_INVOCATION_INFO",
            SpecialReg::Tid => "SR_TID",
            SpecialReg::TidX => "SR_TID.X",
            SpecialReg::TidY => "SR_TID.Y",
            SpecialReg::TidZ => "SR_TID.Z",
            SpecialReg::CtaIdX => "SR_CTAID.X",
            SpecialReg::CtaIdY => "SR_CTAID.Y",
            SpecialReg::CtaIdZ => "SR_CTAID.Z",
            SpecialReg::EqMask => "SR_EQMASK",
            SpecialReg::LtMask => "SR_LTMASK",
            SpecialReg::LeMask => "SR_LEMASK",
            SpecialReg::GtMask => "SR_GTMASK",
            SpecialReg::GeMask => "SR_GEMASK",
            SpecialReg::ClockLo => "SR_CLOCKLO",
            SpecialReg::ClockHi => "SR_CLOCKHI",
            SpecialReg::Zero => "SRZ",
        }
    }
}
