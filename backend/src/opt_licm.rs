//! Loop-invariant constants: an unguarded pure instruction inside a loop
//! that reads no register (a MOV of an immediate that selection put
//! beside an op with two immediate operands, an op on immediates and
//! constant-bank words) computes the same value on every iteration, so it
//! moves to the loop's preheader and runs once (ARCHITECTURE.md, "Machine
//! IR passes").
//!
//! A loop is a header block with a back edge (a predecessor it
//! dominates); its body is the header and every block reaching the back
//! edge without passing through the header. The preheader is the header's
//! one predecessor outside the body, and only when that block has the
//! header as its one successor (critical edges are split, so a header with
//! two or more predecessors always has such a block unless it has several
//! from outside; then nothing moves). Each moved value stays live through
//! the whole loop, one more register: at most `MOST_PER_LOOP` move out of
//! each loop. Registers in 64/128-bit groups, predicates and the clock
//! stay where they are. Loops are taken in layout order, which puts an
//! outer loop's header (its dominator) before its inner loops': an outer
//! loop's body holds its inner loops' blocks, so their constants move to
//! the outermost preheader first, and an inner loop then moves up to
//! `MOST_PER_LOOP` of those left (for want of room, or an outer loop
//! without a preheader) to its own preheader.

use crate::isa::{Instr, Op, OperandKind, RegFile};
use crate::mir::{BlockId, MFunc, VReg};
use crate::mir_info::{Info, idoms, is_cse_candidate, single_def};
use cranelift_entity::SecondaryMap;

/// Most values moved out of one loop (each keeps a register live through
/// the loop).
pub const MOST_PER_LOOP: usize = 4;

/// Runs the pass: one sweep over the loops.
pub fn hoist_invariants(f: &mut MFunc) {
    let idom = idoms(f);
    let info = Info::new(f);
    let headers: Vec<BlockId> = f
        .blocks
        .keys()
        .filter(|&h| f.blocks[h].preds.iter().any(|&p| dominates(&idom, h, p)))
        .collect();
    for h in headers {
        let Some(body) = loop_body(f, &idom, h) else {
            continue;
        };
        let outside: Vec<BlockId> = f.blocks[h]
            .preds
            .iter()
            .copied()
            .filter(|&p| !body[p])
            .collect();
        let [pre] = outside[..] else { continue };
        if f.blocks[pre].succs != [h] {
            continue;
        }
        // The invariant instructions, by (block, index), in layout order.
        let mut picked: Vec<(BlockId, usize)> = Vec::new();
        for b in f.blocks.keys().filter(|&b| body[b]) {
            for (i, ins) in f.blocks[b].instrs.iter().enumerate() {
                if picked.len() < MOST_PER_LOOP && invariant(f, &info, ins) {
                    picked.push((b, i));
                }
            }
        }
        if picked.is_empty() {
            continue;
        }
        // Out of their blocks from the back (indices stay valid), into the
        // preheader before its branch in their order.
        let mut taken = Vec::with_capacity(picked.len());
        for &(b, i) in picked.iter().rev() {
            taken.push(f.blocks[b].instrs.remove(i));
        }
        taken.reverse();
        let instrs = &mut f.blocks[pre].instrs;
        let branch = instrs.last().is_some_and(|i| matches!(i.op, Op::Bra(_)));
        let at = instrs.len() - usize::from(branch);
        instrs.splice(at..at, taken);
    }
}

/// Whether `ins` computes the same value wherever it runs: unguarded,
/// pure and not the clock (`is_cse_candidate`), one GPR result not in a
/// register group, and no register read.
fn invariant(f: &MFunc, info: &Info, ins: &Instr) -> bool {
    if !ins.guard.is_true() || !is_cse_candidate(&ins.op) {
        return false;
    }
    let Some((v, RegFile::Gpr)) = single_def(ins) else {
        return false;
    };
    if info.grouped[v] || f.groups.contains_key(&v) {
        return false;
    }
    let mut reads = false;
    let mut ins = *ins;
    ins.visit_regs(&mut |r, _, kind, _| {
        if kind == OperandKind::Use && VReg::from_reg(*r).is_some() {
            reads = true;
        }
    });
    !reads
}

/// Whether `a` dominates `b`.
fn dominates(idom: &SecondaryMap<BlockId, Option<BlockId>>, a: BlockId, b: BlockId) -> bool {
    let mut x = b;
    loop {
        if x == a {
            return true;
        }
        match idom[x] {
            Some(d) if d != x => x = d,
            _ => return false,
        }
    }
}

/// The blocks of the loop headed by `h`: `h` and every block from which a
/// back edge into `h` is reached without passing through `h`; `None` where
/// one of them is not dominated by `h` (a loop entered elsewhere too,
/// left alone).
fn loop_body(
    f: &MFunc,
    idom: &SecondaryMap<BlockId, Option<BlockId>>,
    h: BlockId,
) -> Option<SecondaryMap<BlockId, bool>> {
    let mut body: SecondaryMap<BlockId, bool> = SecondaryMap::with_capacity(f.blocks.len());
    body.resize(f.blocks.len());
    body[h] = true;
    let mut work: Vec<BlockId> = f.blocks[h]
        .preds
        .iter()
        .copied()
        .filter(|&p| dominates(idom, h, p))
        .collect();
    while let Some(b) = work.pop() {
        if body[b] {
            continue;
        }
        if !dominates(idom, h, b) {
            return None;
        }
        body[b] = true;
        work.extend(f.blocks[b].preds.iter().copied());
    }
    Some(body)
}
