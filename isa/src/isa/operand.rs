//! Operand helpers every op file shares: writing and reading destinations,
//! visiting register operands (with the width of a register group), and the
//! text of memory addresses.

use super::reg::{Dst, PredSrc, RegFile, Src, SrcRef};
use super::word::{InstWord, field};
use super::{EncodeError, OperandKind, RegVisitor};
use std::fmt;
use std::ops::Range;

pub(crate) fn visit_src(s: &mut Src, v: &mut impl RegVisitor) {
    visit_src_n(s, 1, v);
}

/// Visits a source of `n` consecutive registers (1, 2 or 4).
pub(crate) fn visit_src_n(s: &mut Src, n: u8, v: &mut impl RegVisitor) {
    if let SrcRef::Reg(r) = &mut s.src {
        v(r, RegFile::Gpr, OperandKind::Use, n);
    }
}

pub(crate) fn visit_dst(d: &mut Dst, file: RegFile, n: u8, v: &mut impl RegVisitor) {
    if let Dst::Reg(r) = d {
        v(r, file, OperandKind::Def, n);
    }
}

pub(crate) fn visit_pred(p: &mut PredSrc, v: &mut impl RegVisitor) {
    if let Some(r) = &mut p.reg {
        v(r, RegFile::Pred, OperandKind::Use, 1);
    }
}

pub(crate) fn set_dst(w: &mut InstWord, d: &Dst) -> Result<(), EncodeError> {
    match d {
        Dst::Reg(r) => w.set_reg(field::DST, *r),
        Dst::None => {
            w.set(field::DST, u64::from(RegFile::Gpr.zero_index()));
            Ok(())
        }
    }
}

pub(crate) fn get_dst(w: &InstWord, r: Range<usize>, file: RegFile) -> Dst {
    w.get_reg(r, file).map_or(Dst::None, Dst::Reg)
}

pub(crate) fn set_pdst(w: &mut InstWord, r: Range<usize>, d: &Dst) -> Result<(), EncodeError> {
    match d {
        Dst::Reg(reg) => w.set_reg(r, *reg),
        Dst::None => {
            w.set(r, u64::from(RegFile::Pred.zero_index()));
            Ok(())
        }
    }
}

pub(crate) fn srcs_text(f: &mut fmt::Formatter<'_>, srcs: &[&Src]) -> fmt::Result {
    for s in srcs {
        write!(f, ", ")?;
        s.fmt_src(f)?;
    }
    Ok(())
}

/// `[R2.64+0x10]`, `[R3-0x4]`, `[R1]`, or `[0x10]` when the register is RZ.
pub(crate) fn fmt_mem_addr(
    f: &mut fmt::Formatter<'_>,
    addr: &Src,
    wide: bool,
    offset: i32,
) -> fmt::Result {
    write!(f, "[")?;
    match addr.src {
        SrcRef::Zero => {
            if offset < 0 {
                write!(f, "-{:#x}", offset.unsigned_abs())?;
            } else {
                write!(f, "{offset:#x}")?;
            }
        }
        _ => {
            addr.fmt_src(f)?;
            if wide {
                write!(f, ".64")?;
            }
            if offset > 0 {
                write!(f, "+{offset:#x}")?;
            } else if offset < 0 {
                write!(f, "-{:#x}", offset.unsigned_abs())?;
            }
        }
    }
    write!(f, "]")
}
