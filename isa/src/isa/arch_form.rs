//! Where an architecture places a field differently from the common form
//! the op structs encode (SM75–SM89): a transform of whole instruction
//! words applied after encoding and undone before decoding, so the op
//! structs stay one per op. docs/ISA.md, "Per-architecture forms", lists
//! each entry with the nvdisasm probe that found it.
//!
//! - SM90 BRA: the offset in 4-byte words is split: its low 8 bits sit in
//!   bits 16..24 and the rest in bits 34..82, where SM75–SM89 keep all of
//!   it in bits 34..82 (`nvdisasm -b SM90` of single-bit probes).
//! - SM75 global LD/ST: the memory-order field 77..80 is 7 (`.SYS`, what
//!   nvcc writes for sm_75); 0, the SM86 default, reads on SM75 as a
//!   constant-cache load (`.CONSTANT.CTA`) and an invalid store.

use super::{InstWord, OpBra, OpLd, OpSt};
use crate::target::Arch;

/// Bits of the common form's BRA offset field.
const BRA_OFFSET: std::ops::Range<usize> = 34..82;
/// Where SM90 keeps the offset's low byte.
const SM90_BRA_LOW: std::ops::Range<usize> = 16..24;

/// SM75's memory-order field of global loads and stores, and its value.
const SM75_ORDER: std::ops::Range<usize> = 77..80;
const SM75_SYS: u64 = 7;

fn is_global_ld_st(w: &InstWord) -> bool {
    let op = w.get(super::field::OPCODE);
    op == u64::from(OpLd::OPCODE_LDG) || op == u64::from(OpSt::OPCODE_STG)
}

fn is_bra(w: &InstWord) -> bool {
    w.get(super::field::OPCODE) == u64::from(OpBra::OPCODE)
}

/// The common-form word `w` as `arch` encodes it.
pub fn to_arch(mut w: InstWord, arch: Arch) -> InstWord {
    if arch == Arch::Sm75 && is_global_ld_st(&w) {
        w.set(SM75_ORDER, SM75_SYS);
    }
    if arch >= Arch::Sm90 && is_bra(&w) {
        let width = BRA_OFFSET.len();
        let x = w.get(BRA_OFFSET);
        w.set(SM90_BRA_LOW, x & 0xff);
        // Shift the signed offset right by 8 within its field.
        let signed = ((x << (64 - width)) as i64) >> (64 - width);
        w.set(BRA_OFFSET, ((signed >> 8) as u64) & ((1u64 << width) - 1));
    }
    w
}

/// The word `w` of `arch` in the common form.
pub fn from_arch(mut w: InstWord, arch: Arch) -> InstWord {
    if arch == Arch::Sm75 && is_global_ld_st(&w) {
        w.set(SM75_ORDER, 0);
    }
    if arch >= Arch::Sm90 && is_bra(&w) {
        let width = BRA_OFFSET.len();
        let high = w.get(BRA_OFFSET);
        let low = w.get(SM90_BRA_LOW);
        let x = (high << 8) | low;
        w.set(SM90_BRA_LOW, 0);
        w.set(BRA_OFFSET, x & ((1u64 << width) - 1));
    }
    w
}
