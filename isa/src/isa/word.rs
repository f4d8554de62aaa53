//! The 128-bit instruction word and the field helpers that every op's
//! encoder and decoder share. Field positions follow NAK's SM70 encoder
//! where known (docs/ISA.md, "Instruction word"); docs/ISA.md marks the ones this project
//! chose itself.

use super::reg::{PredSrc, Reg, RegFile, Src, SrcRef};
use super::{DecodeError, EncodeError};
use bitvec::prelude::*;
use std::ops::Range;

/// One instruction: 128 bits, stored as four little-endian u32 words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct InstWord(pub BitArray<[u32; 4], Lsb0>);

/// The low `n` bits set, for `n` of 1..=32.
fn mask(n: usize) -> u32 {
    u32::MAX >> (32 - n)
}

/// Bit ranges shared by many ops.
pub mod field {
    use std::ops::Range;
    pub const OPCODE: Range<usize> = 0..12;
    pub const ALU_OPCODE: Range<usize> = 0..9;
    pub const ALU_FORM: Range<usize> = 9..12;
    pub const GUARD: Range<usize> = 12..15;
    pub const GUARD_NEG: usize = 15;
    pub const DST: Range<usize> = 16..24;
    pub const SRC0: Range<usize> = 24..32;
    pub const SRC1: Range<usize> = 32..40;
    pub const IMM32: Range<usize> = 32..64;
    pub const CBUF_OFFSET: Range<usize> = 40..54;
    pub const CBUF_BANK: Range<usize> = 54..59;
    pub const SRC1_ABS: usize = 62;
    pub const SRC1_NEG: usize = 63;
    pub const SRC2: Range<usize> = 64..72;
    pub const SRC0_NEG: usize = 72;
    pub const SRC0_ABS: usize = 73;
    pub const SRC2_ABS: usize = 74;
    pub const SRC2_NEG: usize = 75;
    pub const PDST0: Range<usize> = 81..84;
    pub const PDST1: Range<usize> = 84..87;
    pub const PSRC: Range<usize> = 87..90;
    pub const PSRC_NEG: usize = 90;
    pub const STALL: Range<usize> = 105..109;
    pub const YIELD: usize = 109;
    pub const WR_SB: Range<usize> = 110..113;
    pub const RD_SB: Range<usize> = 113..116;
    pub const WAIT: Range<usize> = 116..122;
    pub const REUSE: Range<usize> = 122..126;
}

/// ALU operand forms (bits 9..12), as NAK's SM70 encoder names them.
pub mod form {
    /// src1 and src2 in registers.
    pub const REG: u64 = 1;
    /// src2 is a 32-bit immediate, src1 moves to the src2 register field.
    pub const SRC2_IMM: u64 = 2;
    /// src2 is a constant-bank word, src1 moves to the src2 register field.
    pub const SRC2_CBUF: u64 = 3;
    /// src1 is a 32-bit immediate.
    pub const IMM: u64 = 4;
    /// src1 is a constant-bank word.
    pub const CBUF: u64 = 5;
}

impl InstWord {
    pub fn from_words(w: [u32; 4]) -> InstWord {
        InstWord(BitArray::new(w))
    }

    pub fn words(&self) -> [u32; 4] {
        self.0.into_inner()
    }

    pub fn get(&self, r: Range<usize>) -> u64 {
        self.0[r].load_le::<u64>()
    }

    pub fn set(&mut self, r: Range<usize>, v: u64) {
        debug_assert!(
            r.len() == 64 || v < (1u64 << r.len()),
            "value {v:#x} overflows field {r:?}"
        );
        match Self::in_one_word(&r) {
            Some((w, bits)) => {
                let word = &mut self.0.as_raw_mut_slice()[w];
                let m = mask(bits.len()) << bits.start;
                *word = (*word & !m) | ((v as u32) << bits.start & m);
            }
            None => self.0[r].store_le(v),
        }
    }

    /// The storage word a field lies in and its bits there, when it does
    /// not cross a 32-bit boundary (every field but a few immediates).
    /// `set` writes such a field with a mask on that word: bitvec's store
    /// into a sub-slice of the array (its general path, kept for the
    /// fields that cross words and for every read) splits the range into
    /// partial elements first, and that was most of the encoder's time,
    /// 4% of a median compile. The encode round-trip tests and the
    /// property test check both paths against the decoder.
    fn in_one_word(r: &Range<usize>) -> Option<(usize, Range<usize>)> {
        let (w, lo) = (r.start / 32, r.start % 32);
        (!r.is_empty() && lo + r.len() <= 32).then(|| (w, lo..lo + r.len()))
    }

    pub fn bit(&self, b: usize) -> bool {
        self.0[b]
    }

    pub fn set_bit(&mut self, b: usize, v: bool) {
        self.0.set(b, v);
    }

    /// Writes a physical register, or fails on a virtual one.
    pub fn set_reg(&mut self, r: Range<usize>, reg: Reg) -> Result<(), EncodeError> {
        match reg {
            Reg::Phys(n) => {
                self.set(r, u64::from(n));
                Ok(())
            }
            Reg::Virt(v) => Err(EncodeError::VirtualRegister(v)),
        }
    }

    /// Reads a register field; the file's zero index gives `None` (RZ / PT).
    pub fn get_reg(&self, r: Range<usize>, file: RegFile) -> Option<Reg> {
        let n = self.get(r) as u8;
        (n != file.zero_index()).then_some(Reg::Phys(n))
    }

    pub fn set_gpr_src(&mut self, r: Range<usize>, s: &Src) -> Result<(), EncodeError> {
        match s.src {
            SrcRef::Reg(reg) => self.set_reg(r, reg),
            SrcRef::Zero => {
                self.set(r, u64::from(RegFile::Gpr.zero_index()));
                Ok(())
            }
            _ => Err(EncodeError::OperandForm("a register source")),
        }
    }

    pub fn get_gpr_src(&self, r: Range<usize>) -> Src {
        match self.get_reg(r, RegFile::Gpr) {
            Some(reg) => Src::reg(reg),
            None => Src::ZERO,
        }
    }

    pub fn set_pred_src(
        &mut self,
        r: Range<usize>,
        neg_bit: usize,
        p: &PredSrc,
    ) -> Result<(), EncodeError> {
        match p.reg {
            Some(reg) => self.set_reg(r, reg)?,
            None => self.set(r, u64::from(RegFile::Pred.zero_index())),
        }
        self.set_bit(neg_bit, p.neg);
        Ok(())
    }

    pub fn get_pred_src(&self, r: Range<usize>, neg_bit: usize) -> PredSrc {
        PredSrc {
            reg: self.get_reg(r, RegFile::Pred),
            neg: self.bit(neg_bit),
        }
    }

    /// A constant-bank source: a bank of the 5-bit field and an offset of
    /// whole words (an assembled listing may hold any u8 bank and u16
    /// offset).
    fn set_cbuf(&mut self, s: &Src) -> Result<(), EncodeError> {
        if let SrcRef::CBuf { bank, offset } = s.src {
            if u64::from(bank) >> field::CBUF_BANK.len() != 0 {
                return Err(EncodeError::ImmediateRange {
                    what: "constant bank",
                    value: u32::from(bank),
                });
            }
            if offset % 4 != 0 {
                return Err(EncodeError::ImmediateRange {
                    what: "constant-bank offset (not a whole word)",
                    value: u32::from(offset),
                });
            }
            self.set(field::CBUF_BANK, u64::from(bank));
            self.set(field::CBUF_OFFSET, u64::from(offset) >> 2);
        }
        Ok(())
    }

    fn get_cbuf(&self) -> SrcRef {
        SrcRef::CBuf {
            bank: self.get(field::CBUF_BANK) as u8,
            offset: (self.get(field::CBUF_OFFSET) << 2) as u16,
        }
    }

    /// Encodes up to three ALU sources and picks the operand form: src0 is
    /// always a register; one of src1/src2 may be an immediate or a
    /// constant-bank word. Modifiers are written only where `mods` allows:
    /// some ops reuse those bits for their own fields.
    pub fn set_alu_srcs(
        &mut self,
        opcode: u16,
        src0: Option<&Src>,
        src1: &Src,
        src2: Option<&Src>,
        mods: bool,
    ) -> Result<(), EncodeError> {
        let check_no_mod = |s: &Src| {
            if !mods && (s.neg || s.abs) {
                Err(EncodeError::OperandForm("a source without modifiers"))
            } else {
                Ok(())
            }
        };
        if let Some(s0) = src0 {
            check_no_mod(s0)?;
            self.set_gpr_src(field::SRC0, s0)?;
            if mods {
                self.set_bit(field::SRC0_NEG, s0.neg);
                self.set_bit(field::SRC0_ABS, s0.abs);
            }
        }
        check_no_mod(src1)?;
        let zero = Src::ZERO;
        let s2 = src2.unwrap_or(&zero);
        check_no_mod(s2)?;
        let src2_is_const = matches!(s2.src, SrcRef::Imm(_) | SrcRef::CBuf { .. });
        let (form, in_reg_field, in_slot1) = if src2_is_const {
            (
                if matches!(s2.src, SrcRef::Imm(_)) {
                    form::SRC2_IMM
                } else {
                    form::SRC2_CBUF
                },
                src1,
                s2,
            )
        } else {
            let f = match src1.src {
                SrcRef::Imm(_) => form::IMM,
                SrcRef::CBuf { .. } => form::CBUF,
                _ => form::REG,
            };
            (f, s2, src1)
        };
        match in_slot1.src {
            SrcRef::Imm(v) => {
                if in_slot1.neg || in_slot1.abs {
                    return Err(EncodeError::OperandForm("an immediate without modifiers"));
                }
                self.set(field::IMM32, u64::from(v))
            }
            SrcRef::CBuf { .. } => self.set_cbuf(in_slot1)?,
            _ => self.set_gpr_src(field::SRC1, in_slot1)?,
        }
        if !matches!(in_slot1.src, SrcRef::Imm(_)) && mods {
            self.set_bit(field::SRC1_ABS, in_slot1.abs);
            self.set_bit(field::SRC1_NEG, in_slot1.neg);
        }
        // An absent third source leaves its register field 0, as nvcc
        // writes it: with RZ there, SM86/SM90 refuse FADD with an immediate
        // and SM90 reads FMNMX as another op (docs/ISA.md, "Instruction
        // word").
        if src2.is_none() {
            self.set(field::SRC2, 0);
        } else {
            self.set_gpr_src(field::SRC2, in_reg_field)?;
        }
        if mods {
            self.set_bit(field::SRC2_ABS, in_reg_field.abs);
            self.set_bit(field::SRC2_NEG, in_reg_field.neg);
        }
        self.set(field::ALU_OPCODE, u64::from(opcode));
        self.set(field::ALU_FORM, form);
        Ok(())
    }

    /// Decodes the sources written by [`InstWord::set_alu_srcs`].
    pub fn get_alu_srcs(&self, mods: bool) -> Result<(Src, Src, Src), DecodeError> {
        let with_mods = |mut s: Src, neg: usize, abs: usize| {
            if mods {
                s.neg = self.bit(neg);
                s.abs = self.bit(abs);
            }
            s
        };
        let src0 = with_mods(
            self.get_gpr_src(field::SRC0),
            field::SRC0_NEG,
            field::SRC0_ABS,
        );
        let reg_field = with_mods(
            self.get_gpr_src(field::SRC2),
            field::SRC2_NEG,
            field::SRC2_ABS,
        );
        let slot1 = |s: SrcRef| {
            with_mods(
                Src {
                    src: s,
                    neg: false,
                    abs: false,
                },
                field::SRC1_NEG,
                field::SRC1_ABS,
            )
        };
        let imm = Src::imm(self.get(field::IMM32) as u32);
        Ok(match self.get(field::ALU_FORM) {
            form::REG => (src0, slot1(self.get_gpr_src(field::SRC1).src), reg_field),
            form::IMM => (src0, imm, reg_field),
            form::CBUF => (src0, slot1(self.get_cbuf()), reg_field),
            form::SRC2_IMM => (src0, reg_field, imm),
            form::SRC2_CBUF => (src0, reg_field, slot1(self.get_cbuf())),
            f => {
                return Err(DecodeError::BadField {
                    field: "ALU form",
                    value: f,
                });
            }
        })
    }
}
