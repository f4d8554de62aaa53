//! The straight runs of translated instructions a native function is made
//! of. A segment starts at a leader (the first instruction, a branch
//! target, the instruction after a branch, a BSYNC or one the interpreter
//! runs) and takes the translated ALU ops and BSSYs that follow up to the
//! next leader, an untranslated instruction or a branch or BSYNC (which
//! ends it). The
//! native function enters at any segment, runs segments while the group
//! stays converged, and leaves to the interpreter at the first
//! instruction it does not have.

use super::select::{Host, Native, NativeAlu, select};
use spvsass_isa::isa::{Instr, Op, PredSrc, Target};
use spvsass_isa::program::INSTR_BYTES;

/// An instruction inside a segment.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Step {
    Alu(NativeAlu),
    /// BSSY on this barrier.
    Bssy(u8),
}

/// The instruction that ends a segment, if it is translated.
#[derive(Clone, Copy, Debug)]
pub(crate) enum End {
    /// BRA to this address.
    Bra(u32),
    /// BSYNC on this barrier.
    Bsync(u8),
}

/// One straight run.
#[derive(Clone, Debug)]
pub(crate) struct Segment {
    /// Index of its first instruction.
    pub start: usize,
    /// Its ALU ops and BSSYs: instruction index, the step, its guard.
    pub alu: Vec<(usize, Step, PredSrc)>,
    /// The branch or BSYNC that ends it: instruction index, what it is,
    /// guard.
    pub bra: Option<(usize, End, PredSrc)>,
}

impl Segment {
    /// The barriers its BSSYs set, as a mask.
    pub fn bssy_bars(&self) -> u32 {
        self.alu
            .iter()
            .map(|(_, step, _)| match step {
                Step::Bssy(bar) => 1 << bar,
                Step::Alu(_) => 0,
            })
            .fold(0, |m, b| m | b)
    }

    /// Instructions in it, the branch included.
    pub fn len(&self) -> usize {
        self.alu.len() + usize::from(self.bra.is_some())
    }

    /// Byte address of its first instruction.
    pub fn pc(&self) -> u32 {
        self.start as u32 * INSTR_BYTES
    }

    /// Index of the instruction after it, when it does not end in a
    /// taken branch.
    pub fn next(&self) -> usize {
        self.start + self.len()
    }
}

/// A program cut into segments.
pub(crate) struct Segments {
    pub list: Vec<Segment>,
    /// Per instruction: the segment that starts there.
    pub at: Vec<Option<u32>>,
    /// The constant-bank words the ops read, by slot.
    pub constants: Vec<(u8, u16)>,
}

/// Cuts `instrs` into segments of the instructions `select` translates.
pub(crate) fn segments(instrs: &[Instr], host: Host) -> Segments {
    let mut constants = Vec::new();
    let native: Vec<Option<Native>> = instrs
        .iter()
        .map(|ins| select(ins, host, &mut constants))
        .collect();
    let mut leader = vec![false; instrs.len()];
    for (i, ins) in instrs.iter().enumerate() {
        let after_other =
            i == 0 || !matches!(native[i - 1], Some(Native::Alu(_) | Native::Bssy { .. }));
        leader[i] |= after_other;
        if let Op::Bra(b) = &ins.op
            && let Target::Addr(t) = b.target
            && let Some(l) = leader.get_mut((t / INSTR_BYTES) as usize)
        {
            *l = true;
        }
    }
    let mut list = Vec::new();
    let mut at = vec![None; instrs.len()];
    for start in 0..instrs.len() {
        if !leader[start] || native[start].is_none() {
            continue;
        }
        let mut seg = Segment {
            start,
            alu: Vec::new(),
            bra: None,
        };
        let mut i = start;
        while let Some(Some(n)) = native.get(i) {
            if i != start && leader[i] {
                break;
            }
            let guard = instrs[i].guard;
            match n {
                Native::Alu(a) => seg.alu.push((i, Step::Alu(*a), guard)),
                Native::Bssy { bar } => seg.alu.push((i, Step::Bssy(*bar), guard)),
                Native::Bra { target } => {
                    seg.bra = Some((i, End::Bra(*target), guard));
                    break;
                }
                Native::Bsync { bar } => {
                    seg.bra = Some((i, End::Bsync(*bar), guard));
                    break;
                }
            }
            i += 1;
        }
        at[start] = Some(list.len() as u32);
        list.push(seg);
    }
    Segments {
        list,
        at,
        constants,
    }
}
