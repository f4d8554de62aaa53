//! The straight runs of translated instructions a native function is made
//! of. A segment starts at a leader (the first instruction, a branch
//! target, the instruction after a branch, a BSYNC or one the interpreter
//! runs) and takes the translated ALU ops and BSSYs that follow up to the
//! next leader, an untranslated instruction or a branch or BSYNC (which
//! ends it). The
//! native function enters at any segment, runs segments while the group
//! stays converged, and leaves to the interpreter at the first
//! instruction it does not have.
//!
//! A segment that ends in an unconditional BRA back to a short segment of
//! ALU ops takes a copy of that segment in (`merge_jumps`): a loop's back
//! edge and its head (ISETP, then the guarded BRA out) become one
//! segment, so that an iteration is one pass over the chunks, with the
//! rows the head reads still in values.

use super::emit::always;
use super::select::{Dest, Host, Native, NativeAlu, Operand, select};
use super::uniform::{self, Uniform};
use spvsass_isa::isa::{Instr, Op, PredSrc, Target};
use spvsass_isa::program::INSTR_BYTES;

/// An instruction inside a segment.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Step {
    Alu(NativeAlu),
    /// BSSY on this barrier.
    Bssy(u8),
    /// An unconditional BRA to the instructions that follow it in the
    /// segment (`merge_jumps`): issued and counted, nothing to compute.
    Jump,
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
    /// Its ALU ops, BSSYs and merged jumps: instruction index, the step,
    /// its guard.
    pub alu: Vec<(usize, Step, PredSrc)>,
    /// The branch or BSYNC that ends it: instruction index, what it is,
    /// guard.
    pub bra: Option<(usize, End, PredSrc)>,
    /// Index of the instruction it goes on at when it does not end in a
    /// branch or BSYNC.
    pub next: usize,
    /// Per step of `alu`: an unguarded op whose sources are all uniform
    /// (`uniform.rs`) and were not last written by a step not marked, so
    /// the full-warp copy computes it once for all chunks (`mark_once`).
    pub once: Vec<bool>,
}

impl Segment {
    /// The barriers its BSSYs set, as a mask.
    pub fn bssy_bars(&self) -> u32 {
        self.alu
            .iter()
            .map(|(_, step, _)| match step {
                Step::Bssy(bar) => 1 << bar,
                Step::Alu(_) | Step::Jump => 0,
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

    /// Byte address of its highest instruction (the last one, unless it
    /// took a segment in at a lower address).
    pub fn last_pc(&self) -> u32 {
        let indices = self.alu.iter().map(|&(i, _, _)| i);
        let last = indices.chain(self.bra.map(|(i, _, _)| i)).max();
        last.unwrap_or(self.start) as u32 * INSTR_BYTES
    }
}

/// A program cut into segments.
#[derive(Debug)]
pub(crate) struct Segments {
    pub list: Vec<Segment>,
    /// Per instruction: the segment that starts there.
    pub at: Vec<Option<u32>>,
    /// The constant-bank words the ops read, by slot.
    pub constants: Vec<(u8, u16)>,
}

impl Segments {
    /// Instructions in some segment (each counted once, however many
    /// segments hold a copy).
    pub fn instructions(&self) -> u64 {
        let mut held = vec![false; self.at.len()];
        for seg in &self.list {
            let indices = seg.alu.iter().map(|&(i, _, _)| i);
            for i in indices.chain(seg.bra.map(|(i, _, _)| i)) {
                if let Some(h) = held.get_mut(i) {
                    *h = true;
                }
            }
        }
        held.iter().filter(|&&h| h).count() as u64
    }
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
            next: start,
            once: Vec::new(),
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
        seg.next = i;
        at[start] = Some(list.len() as u32);
        list.push(seg);
    }
    merge_jumps(&mut list, &at);
    let facts = uniform::facts(instrs);
    for seg in &mut list {
        seg.once = mark_once(seg, facts.as_deref());
    }
    Segments {
        list,
        at,
        constants,
    }
}

/// Instructions a segment takes in at most from the one its jump goes to.
const MERGE_MAX: usize = 8;

/// Tail duplication: a segment that ends in an unconditional BRA back to
/// another segment (a loop's head) of at most `MERGE_MAX` instructions,
/// none of them a BSSY, goes on with a copy of it (the BRA becomes a
/// `Step::Jump`, the copy's end its end). The interpreter would run the
/// same instructions in the same order; the segment's checks cover them
/// all (`len`, `last_pc`: the BRA's pc, the highest, so the pc check is
/// the one the two segments would pass), and the copy's instructions
/// are counted under their own indices. Only backward jumps: a forward
/// one's target may lie past the pc the group may run to while the
/// segment itself does not (a branch of an if/else meeting the other at
/// its end), and the whole would then be left to the interpreter. A
/// segment jumping to its own start is left as it is, and the copy is of
/// the segment as cut, so nothing is taken in twice.
fn merge_jumps(list: &mut [Segment], at: &[Option<u32>]) {
    let cut: Vec<Segment> = list.to_vec();
    for seg in list.iter_mut() {
        let Some((index, End::Bra(target), guard)) = seg.bra else {
            continue;
        };
        let to = (target / INSTR_BYTES) as usize;
        let Some(Some(j)) = at.get(to) else {
            continue;
        };
        let tail = &cut[*j as usize];
        let plain = tail.alu.iter().all(|(_, s, _)| matches!(s, Step::Alu(_)));
        if !always(guard) || to >= seg.start || tail.len() > MERGE_MAX || !plain {
            continue;
        }
        seg.alu.push((index, Step::Jump, guard));
        seg.alu.extend(tail.alu.iter().copied());
        seg.bra = tail.bra;
        seg.next = tail.next;
    }
}

/// `Segment::once` of `seg`, given the uniform facts of the program
/// (`None`: nothing is uniform). A step's sources must be uniform before
/// its instruction and, if the segment wrote them before it, written by a
/// marked step: the full-warp copy computes the marked steps first, in
/// order, from the rows as the segment found them, so a value an unmarked
/// step wrote is not there yet.
fn mark_once(seg: &Segment, facts: Option<&[Uniform]>) -> Vec<bool> {
    let mut late_gpr = [false; 256];
    let mut late_pred = [false; 8];
    seg.alu
        .iter()
        .map(|&(i, step, guard)| {
            let Step::Alu(op) = step else { return false };
            let once = facts.and_then(|f| f.get(i)).is_some_and(|u| {
                let gprs = op.srcs.iter().all(|s| match *s {
                    Operand::Gpr(n) => u.gpr(n) && !late_gpr[usize::from(n)],
                    Operand::Zero | Operand::Imm(_) | Operand::Const(_) => true,
                });
                let pred = match op.pred.reg.and_then(|r| r.phys()) {
                    Some(n) if n < 7 => u.pred(n) && !late_pred[usize::from(n)],
                    _ => true,
                };
                always(guard) && gprs && pred
            });
            match op.dst {
                Dest::Gpr(n) => late_gpr[usize::from(n)] = !once,
                Dest::Pred(n) => late_pred[usize::from(n)] = !once,
                Dest::Drop => {}
            }
            once
        })
        .collect()
}
