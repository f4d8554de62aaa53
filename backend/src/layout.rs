//! Final layout: blocks in order, fall-throughs instead of branches to the
//! next block, blocks that only forward dropped, and branch targets turned
//! into byte addresses.

use crate::isa::{Instr, Op, OpBra, OpBssy, PredSrc, Target};
use crate::mir::{BlockId, MFunc};
use crate::program::INSTR_BYTES;
use cranelift_entity::SecondaryMap;

fn uncond_target(ins: &Instr) -> Option<BlockId> {
    match ins.op {
        Op::Bra(OpBra { target }) if ins.guard.is_true() => BlockId::from_target(target),
        _ => None,
    }
}

/// The instructions of `f` laid out, with resolved branch addresses.
pub fn layout(f: &MFunc) -> Vec<Instr> {
    let n = f.blocks.len();
    // A block holding nothing but an unconditional branch forwards to its
    // target (split critical edges that needed no moves).
    let mut forward: SecondaryMap<BlockId, Option<BlockId>> = SecondaryMap::with_capacity(n);
    for (b, blk) in f.blocks.iter() {
        forward[b] = match blk.instrs.as_slice() {
            [only] => uncond_target(only),
            _ => None,
        };
    }
    let resolve = |mut b: BlockId| {
        for _ in 0..n {
            match forward[b] {
                Some(t) if t != b => b = t,
                _ => break,
            }
        }
        b
    };
    let order: Vec<BlockId> = f
        .blocks
        .keys()
        .filter(|&b| forward[b].is_none() || b == BlockId::ENTRY)
        .collect();
    let mut blocks: Vec<Vec<Instr>> = Vec::with_capacity(order.len());
    for (i, &b) in order.iter().enumerate() {
        let next = order.get(i + 1).copied();
        let blk = &f.blocks[b];
        // A block's code is its instructions, less a branch to the next
        // block, plus at most a branch for a conditional one's other side.
        let mut out: Vec<Instr> = Vec::with_capacity(blk.instrs.len() + 1);
        let last = blk.instrs.len().saturating_sub(1);
        for (k, ins) in blk.instrs.iter().enumerate() {
            let mut ins = *ins;
            if let Op::Bra(OpBra { target }) = &mut ins.op
                && let Some(t) = BlockId::from_target(*target)
            {
                *target = resolve(t).target();
            }
            if k == last {
                if let Some(t) = uncond_target(&ins) {
                    if Some(t) != next {
                        out.push(ins);
                    }
                    continue;
                }
                if let (Op::Bra(OpBra { target }), false) = (ins.op, ins.guard.is_true())
                    && let Some(taken) = BlockId::from_target(target)
                {
                    // A conditional branch: successor 0 is taken, successor 1
                    // falls through.
                    let other = resolve(blk.succs[1]);
                    if Some(taken) == next && taken != other {
                        let inverted = PredSrc {
                            neg: !ins.guard.neg,
                            ..ins.guard
                        };
                        out.push(Instr {
                            guard: inverted,
                            op: Op::Bra(OpBra {
                                target: other.target(),
                            }),
                            ..ins
                        });
                    } else {
                        out.push(ins);
                        if Some(other) != next {
                            out.push(Instr::new(Op::Bra(OpBra {
                                target: other.target(),
                            })));
                        }
                    }
                    continue;
                }
            }
            out.push(ins);
        }
        blocks.push(out);
    }
    // Byte address of every block; forwarding blocks take their target's.
    let mut addr: SecondaryMap<BlockId, u32> = SecondaryMap::with_capacity(n);
    let mut pc = 0;
    for (i, &b) in order.iter().enumerate() {
        addr[b] = pc;
        pc += blocks[i].len() as u32 * INSTR_BYTES;
    }
    for b in f.blocks.keys() {
        addr[b] = addr[resolve(b)];
    }
    let mut instrs: Vec<Instr> = blocks.into_iter().flatten().collect();
    for ins in &mut instrs {
        match &mut ins.op {
            Op::Bra(OpBra { target }) | Op::Bssy(OpBssy { target, .. }) => {
                if let Some(b) = BlockId::from_target(*target) {
                    *target = Target::Addr(addr[b]);
                }
            }
            _ => {}
        }
    }
    instrs
}
