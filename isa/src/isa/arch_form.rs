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
//! - SM90 global atomics: the type field grows to 73..77 and float
//!   atomics have their own opcodes: `.F32.FTZ.RN` is type 9 under ATOMG
//!   0x3a3 / RED 0x9a6 (common form: type 3 under 0x3a8 / 0x98e), and
//!   `.S64` is type 3 (common form 5).
//! - SM86 and later BAR.SYNC: bit 80 (`.DEFER_BLOCKING`) is set, as nvcc
//!   writes every `__syncthreads()` for sm_86/sm_89/sm_90; without it the
//!   H100 let a warp pass the barrier before another warp's earlier shared
//!   store was visible (d_switch_barrier, docs/CUBIN.md). SM75 nvcc writes
//!   the word without it.

use super::{InstWord, OpAtom, OpBar, OpBra, OpLd, OpRed, OpSt};
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

/// The common form's atomic type field and SM90's wider one.
const TYPE: std::ops::Range<usize> = 73..76;
const SM90_TYPE: std::ops::Range<usize> = 73..77;
/// Common-form type codes that SM90 writes differently.
const F32: u64 = 3;
const S64: u64 = 5;
const SM90_F32: u64 = 9;
const SM90_S64: u64 = 3;
/// SM90's float forms of ATOMG and RED.
const SM90_ATOMG_F: u64 = 0x3a3;
const SM90_RED_F: u64 = 0x9a6;

/// A common-form ATOMG/RED word in SM90's form.
fn atomic_to_sm90(w: &mut InstWord) {
    let op = w.get(super::field::OPCODE);
    let float_op = if op == u64::from(OpAtom::OPCODE_ATOMG) {
        SM90_ATOMG_F
    } else if op == u64::from(OpRed::OPCODE) {
        SM90_RED_F
    } else {
        return;
    };
    match w.get(TYPE) {
        F32 => {
            w.set(super::field::OPCODE, float_op);
            w.set(SM90_TYPE, SM90_F32);
        }
        S64 => w.set(SM90_TYPE, SM90_S64),
        _ => {}
    }
}

/// An SM90 ATOMG/RED word in the common form.
fn atomic_from_sm90(w: &mut InstWord) {
    let op = w.get(super::field::OPCODE);
    let int_op = match op {
        SM90_ATOMG_F => Some(OpAtom::OPCODE_ATOMG),
        SM90_RED_F => Some(OpRed::OPCODE),
        _ => None,
    };
    if let Some(int_op) = int_op {
        if w.get(SM90_TYPE) == SM90_F32 {
            w.set(super::field::OPCODE, u64::from(int_op));
            w.set(SM90_TYPE, F32);
        }
    } else if (op == u64::from(OpAtom::OPCODE_ATOMG) || op == u64::from(OpRed::OPCODE))
        && w.get(SM90_TYPE) == SM90_S64
    {
        w.set(SM90_TYPE, S64);
    }
}

/// BAR.SYNC's `.DEFER_BLOCKING` bit on SM86 and later.
const DEFER_BLOCKING: std::ops::Range<usize> = 80..81;

fn is_bar(w: &InstWord) -> bool {
    w.get(super::field::OPCODE) == u64::from(OpBar::OPCODE)
}

fn is_bra(w: &InstWord) -> bool {
    w.get(super::field::OPCODE) == u64::from(OpBra::OPCODE)
}

/// The common-form word `w` as `arch` encodes it.
pub fn to_arch(mut w: InstWord, arch: Arch) -> InstWord {
    if arch == Arch::Sm75 && is_global_ld_st(&w) {
        w.set(SM75_ORDER, SM75_SYS);
    }
    if arch >= Arch::Sm86 && is_bar(&w) {
        w.set(DEFER_BLOCKING, 1);
    }
    if arch >= Arch::Sm90 {
        atomic_to_sm90(&mut w);
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
    if arch >= Arch::Sm86 && is_bar(&w) {
        w.set(DEFER_BLOCKING, 0);
    }
    if arch >= Arch::Sm90 {
        atomic_from_sm90(&mut w);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn bar_word() -> InstWord {
        let mut w = InstWord::default();
        OpBar.encode(&mut w).expect("encodes");
        w
    }

    #[test]
    fn bar_defers_blocking_from_sm86_on_and_decodes_back() {
        for arch in Arch::ALL {
            let w = to_arch(bar_word(), arch);
            assert_eq!(
                w.get(DEFER_BLOCKING),
                u64::from(arch >= Arch::Sm86),
                "{arch:?}"
            );
            assert_eq!(from_arch(w, arch), bar_word(), "{arch:?}");
        }
        // nvcc's sm_90 barrier: opcode 0xb1d, 0x10000 in the high word.
        let w = to_arch(bar_word(), Arch::Sm90).words();
        assert_eq!((w[0] & 0xfff, w[2] & 0x0001_0000), (0xb1d, 0x0001_0000));
    }
}
