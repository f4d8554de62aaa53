//! PLOP3: any function of three predicates, given by its truth table.
//! Fields from NAK's SM70 encoder.

use super::operand::{get_dst, set_pdst, visit_dst, visit_pred};
use super::reg::{Dst, PredSrc, RegFile};
use super::word::{InstWord, field};
use super::{DecodeError, EncodeError, RegVisitor};
use std::fmt;
use std::ops::Range;

/// `PLOP3.LUT Pd, PT, a, b, c, lut, 0x0`: `Pd = lut[a<<2 | b<<1 | c]`
/// (the LUT constants of LOP3: a = 0xf0, b = 0xcc, c = 0xaa). The second
/// destination, with its own table, is always PT here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpPLop3 {
    pub dst: Dst,
    pub srcs: [PredSrc; 3],
    pub lut: u8,
}

impl OpPLop3 {
    pub const OPCODE: u16 = 0x81c;
    const LUT_LO: Range<usize> = 64..67;
    const LUT_HI: Range<usize> = 72..77;
    const LUT2: Range<usize> = 16..24;
    const SRC1: Range<usize> = 77..80;
    const SRC1_NEG: usize = 80;
    const SRC2: Range<usize> = 68..71;
    const SRC2_NEG: usize = 71;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        w.set(field::OPCODE, u64::from(Self::OPCODE));
        w.set(Self::LUT_LO, u64::from(self.lut & 7));
        w.set(Self::LUT_HI, u64::from(self.lut >> 3));
        w.set(Self::LUT2, 0);
        w.set_pred_src(field::PSRC, field::PSRC_NEG, &self.srcs[0])?;
        w.set_pred_src(Self::SRC1, Self::SRC1_NEG, &self.srcs[1])?;
        w.set_pred_src(Self::SRC2, Self::SRC2_NEG, &self.srcs[2])?;
        set_pdst(w, field::PDST0, &self.dst)?;
        w.set(field::PDST1, 7);
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        Ok(OpPLop3 {
            dst: get_dst(w, field::PDST0, RegFile::Pred),
            srcs: [
                w.get_pred_src(field::PSRC, field::PSRC_NEG),
                w.get_pred_src(Self::SRC1, Self::SRC1_NEG),
                w.get_pred_src(Self::SRC2, Self::SRC2_NEG),
            ],
            lut: (w.get(Self::LUT_LO) | w.get(Self::LUT_HI) << 3) as u8,
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        self.srcs.iter_mut().for_each(|p| visit_pred(p, v));
        visit_dst(&mut self.dst, RegFile::Pred, 1, v);
    }
    pub fn eval(&self, a: bool, b: bool, c: bool) -> bool {
        let i = usize::from(a) << 2 | usize::from(b) << 1 | usize::from(c);
        self.lut >> i & 1 != 0
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PLOP3.LUT ")?;
        self.dst.fmt_in(RegFile::Pred, f)?;
        let [a, b, c] = &self.srcs;
        write!(f, ", PT, {a}, {b}, {c}, {:#x}, 0x0", self.lut)
    }
}
