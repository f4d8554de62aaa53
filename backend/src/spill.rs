//! The moves regalloc2 inserts, lowered to instructions: register copies
//! (MOV; for predicates `(0 == 0) AND src`), spills (STL) and reloads
//! (LDL) to the spill frame in local memory.
//!
//! The spill frame follows the shader's local arrays in each invocation's
//! local memory: spill slot `k` (one 32-bit register each,
//! `spillslot_size` 1) is the word at `base + 4k`, addressed as
//! `[RZ+offset]`, so a spill or reload needs no address register.
//! regalloc2 never moves stack to stack (its move resolver goes through a
//! free register, or evicts one to an extra slot), so every edit is a
//! single copy, store or load, except for predicates: local memory holds
//! GPR words, so a predicate goes through one scratch GPR kept out of
//! allocation (`SEL` 1 or 0 then STL; LDL then `ISETP.NE`). Real
//! compilers do the same through P2R/R2P, which this ISA does not have.

use crate::error::BackendError;
use crate::isa::{
    Dst, Instr, IntCmp, MemSize, MemSpace, Op, OpISetP, OpLd, OpMov, OpSel, OpSt, PredCombine,
    PredSrc, Reg, Src,
};
use regalloc2::{Allocation, PReg, RegClass, SpillSlot};

/// Bytes per spill slot: one 32-bit register.
pub const SLOT_BYTES: u32 = 4;

/// Local-memory offsets are 24-bit signed (isa/mem.rs): the largest
/// byte a spill slot may reach.
const MAX_LOCAL_OFFSET: u32 = (1 << 23) - 1;

/// Where spill slots live, and the GPR predicate spills go through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpillFrame {
    /// Byte offset of slot 0 in local memory (after the local arrays).
    pub base: u32,
    /// Number of slots.
    pub slots: u32,
    /// A GPR no allocated value uses, present when predicates spill.
    pub pred_scratch: Option<u8>,
}

impl SpillFrame {
    /// A frame of `slots` slots after `local_bytes` bytes of local arrays.
    pub fn new(
        local_bytes: u32,
        slots: usize,
        pred_scratch: Option<u8>,
    ) -> Result<SpillFrame, BackendError> {
        let base = local_bytes.next_multiple_of(SLOT_BYTES);
        let too_large = || BackendError::SpillFrameTooLarge {
            slots,
            max_bytes: MAX_LOCAL_OFFSET + 1,
        };
        let slots = u32::try_from(slots).map_err(|_| too_large())?;
        let end = slots
            .checked_mul(SLOT_BYTES)
            .and_then(|b| b.checked_add(base))
            .ok_or_else(too_large)?;
        if end > MAX_LOCAL_OFFSET + 1 {
            return Err(too_large());
        }
        Ok(SpillFrame {
            base,
            slots,
            pred_scratch,
        })
    }

    /// Local memory per invocation with the frame: the local arrays and
    /// the spill slots.
    pub fn local_bytes(&self, local_arrays: u32) -> u32 {
        if self.slots == 0 {
            local_arrays
        } else {
            self.base + self.slots * SLOT_BYTES
        }
    }

    fn offset(&self, slot: SpillSlot) -> i32 {
        // In range: `new` checked the frame's end.
        (self.base + slot.index() as u32 * SLOT_BYTES) as i32
    }

    /// The instructions for one regalloc2 move.
    pub fn lower_move(&self, from: Allocation, to: Allocation) -> Result<Vec<Instr>, BackendError> {
        let reg = |a: Allocation| a.as_reg().map(|p| (p.class(), p.hw_enc() as u8));
        match (reg(from), from.as_stack(), reg(to), to.as_stack()) {
            (Some((class, a)), _, Some((_, b)), _) => Ok(vec![copy(class, a, b)]),
            (Some((class, r)), _, None, Some(slot)) => {
                let offset = self.offset(slot);
                Ok(match class {
                    RegClass::Float => {
                        let tmp = self.scratch(from)?;
                        vec![pred_to_gpr(r, tmp), store(offset, tmp)]
                    }
                    _ => vec![store(offset, r)],
                })
            }
            (None, Some(slot), Some((class, r)), _) => {
                let offset = self.offset(slot);
                Ok(match class {
                    RegClass::Float => {
                        let tmp = self.scratch(to)?;
                        vec![load(offset, tmp), gpr_to_pred(tmp, r)]
                    }
                    _ => vec![load(offset, r)],
                })
            }
            _ => Err(BackendError::RegAlloc(format!(
                "regalloc2 asked for a move from {from} to {to}, which has no lowering"
            ))),
        }
    }

    fn scratch(&self, pred: Allocation) -> Result<u8, BackendError> {
        self.pred_scratch.ok_or_else(|| {
            BackendError::RegAlloc(format!(
                "predicate {pred} spills, but no scratch GPR was set aside"
            ))
        })
    }
}

/// Whether `from -> to` moves a register of `class` to or from a spill
/// slot.
pub fn spills_class(from: Allocation, to: Allocation, class: RegClass) -> bool {
    let is = |a: Allocation| a.as_reg().map(PReg::class) == Some(class);
    (is(from) && to.is_stack()) || (from.is_stack() && is(to))
}

/// A register-to-register copy in the ISA: MOV for GPRs; for predicates
/// `(0 == 0) AND src`.
pub fn copy(file: RegClass, from: u8, to: u8) -> Instr {
    match file {
        RegClass::Float => Instr::new(Op::ISetP(OpISetP {
            dst: Dst::Reg(Reg::Phys(to)),
            cmp: IntCmp::Eq,
            signed: false,
            combine: PredCombine::And,
            srcs: [Src::ZERO, Src::ZERO],
            accum: PredSrc::reg(Reg::Phys(from)),
        })),
        _ => Instr::new(Op::Mov(OpMov {
            dst: Dst::Reg(Reg::Phys(to)),
            src: Src::reg(Reg::Phys(from)),
        })),
    }
}

/// `STL [RZ+offset], Rr`.
fn store(offset: i32, r: u8) -> Instr {
    Instr::new(Op::St(OpSt {
        addr: Src::ZERO,
        offset,
        data: Src::reg(Reg::Phys(r)),
        space: MemSpace::Local,
        size: MemSize::B32,
    }))
}

/// `LDL Rr, [RZ+offset]`.
fn load(offset: i32, r: u8) -> Instr {
    Instr::new(Op::Ld(OpLd {
        dst: Dst::Reg(Reg::Phys(r)),
        addr: Src::ZERO,
        offset,
        space: MemSpace::Local,
        size: MemSize::B32,
    }))
}

/// `SEL Rg, RZ, 0x1, !Pp`: 1 where the predicate is set, else 0.
fn pred_to_gpr(p: u8, g: u8) -> Instr {
    Instr::new(Op::Sel(OpSel {
        dst: Dst::Reg(Reg::Phys(g)),
        srcs: [Src::ZERO, Src::imm(1)],
        cond: PredSrc {
            neg: true,
            ..PredSrc::reg(Reg::Phys(p))
        },
    }))
}

/// `ISETP.NE.U32.AND Pp, PT, Rg, RZ, PT`.
fn gpr_to_pred(g: u8, p: u8) -> Instr {
    Instr::new(Op::ISetP(OpISetP {
        dst: Dst::Reg(Reg::Phys(p)),
        cmp: IntCmp::Ne,
        signed: false,
        combine: PredCombine::And,
        srcs: [Src::reg(Reg::Phys(g)), Src::ZERO],
        accum: PredSrc::TRUE,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gpr(n: usize) -> Allocation {
        Allocation::reg(PReg::new(n, RegClass::Int))
    }
    fn pred(n: usize) -> Allocation {
        Allocation::reg(PReg::new(n, RegClass::Float))
    }
    fn slot(n: usize) -> Allocation {
        Allocation::stack(SpillSlot::new(n))
    }
    fn text(instrs: &[Instr]) -> Vec<String> {
        instrs.iter().map(|i| i.to_string()).collect()
    }

    #[test]
    fn the_frame_follows_the_local_arrays_word_aligned() {
        let frame = SpillFrame::new(10, 3, None).unwrap();
        assert_eq!(frame.base, 12);
        assert_eq!(frame.local_bytes(10), 24);
        // No slots: the local arrays alone.
        assert_eq!(SpillFrame::new(10, 0, None).unwrap().local_bytes(10), 10);
        let moves = frame.lower_move(gpr(5), slot(2)).unwrap();
        assert_eq!(text(&moves), ["STL [0x14], R5 ;"]);
        let moves = frame.lower_move(slot(0), gpr(7)).unwrap();
        assert_eq!(text(&moves), ["LDL R7, [0xc] ;"]);
    }

    #[test]
    fn a_frame_past_local_offsets_is_an_error() {
        let slots = (1 << 21) + 1;
        let err = SpillFrame::new(0, slots, None).unwrap_err();
        assert!(
            matches!(err, BackendError::SpillFrameTooLarge { slots: s, .. } if s == slots),
            "{err}"
        );
    }

    #[test]
    fn register_copies_are_mov_and_predicate_and() {
        let frame = SpillFrame::new(0, 0, None).unwrap();
        let moves = frame.lower_move(gpr(1), gpr(2)).unwrap();
        assert_eq!(text(&moves), ["MOV R2, R1 ;"]);
        let moves = frame.lower_move(pred(1), pred(3)).unwrap();
        assert_eq!(text(&moves), ["ISETP.EQ.U32.AND P3, PT, RZ, RZ, P1 ;"]);
    }

    #[test]
    fn predicates_spill_through_the_scratch_gpr() {
        let frame = SpillFrame::new(0, 2, Some(9)).unwrap();
        let moves = frame.lower_move(pred(2), slot(1)).unwrap();
        assert_eq!(text(&moves), ["SEL R9, RZ, 0x1, !P2 ;", "STL [0x4], R9 ;"]);
        let moves = frame.lower_move(slot(1), pred(4)).unwrap();
        assert_eq!(
            text(&moves),
            ["LDL R9, [0x4] ;", "ISETP.NE.U32.AND P4, PT, R9, RZ, PT ;"]
        );
        // Without a scratch register there is no lowering.
        let bare = SpillFrame::new(0, 2, None).unwrap();
        assert!(bare.lower_move(pred(2), slot(1)).is_err());
    }
}
