//! LOP3 fusion: a LOP3 whose result only feeds another LOP3 in the same
//! block is merged into it when the two together read at most three
//! distinct sources, so trees of two-input AND/OR/XOR/NOT become one
//! LOP3.LUT. The new truth table is the consumer's table evaluated on the
//! producer's: applying `OpLop3::eval` to the masks 0xf0, 0xcc, 0xaa that
//! stand for the three inputs gives the table of the composition.

use crate::isa::{Instr, Op, OpLop3, Src, SrcRef};
use crate::mir::{BlockId, MFunc, VReg};
use crate::mir_info::{Info, encodable};
use cranelift_entity::EntityRef;

const MASKS: [u32; 3] = [OpLop3::A as u32, OpLop3::B as u32, OpLop3::C as u32];

/// The truth-table mask of source `s` given the fused inputs `vars`.
fn mask(s: &Src, vars: &[Src]) -> u32 {
    match vars.iter().position(|v| v == s) {
        Some(j) => MASKS[j],
        None => 0, // RZ
    }
}

/// The fused LOP3 for the consumer `c` whose slot `slot` reads the
/// producer `p`, with inputs in the order `vars`.
fn compose(c: &OpLop3, slot: usize, p: &OpLop3, vars: &[Src]) -> OpLop3 {
    let inner = p.eval(p.srcs.map(|s| mask(&s, vars))) & 0xff;
    let outer = std::array::from_fn(|k| {
        if k == slot {
            inner
        } else {
            mask(&c.srcs[k], vars)
        }
    });
    let mut srcs = [Src::ZERO; 3];
    srcs[..vars.len()].copy_from_slice(vars);
    OpLop3 {
        dst: c.dst,
        srcs,
        lut: (c.eval(outer) & 0xff) as u8,
    }
}

/// The orders in which `n` inputs may fill the three slots.
fn orders(n: usize) -> Vec<Vec<usize>> {
    let all = [
        [0, 1, 2],
        [1, 0, 2],
        [0, 2, 1],
        [2, 0, 1],
        [1, 2, 0],
        [2, 1, 0],
    ];
    let mut out: Vec<Vec<usize>> = Vec::new();
    for p in all {
        let v: Vec<usize> = p.iter().copied().filter(|&j| j < n).collect();
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// Runs the pass.
pub fn fuse_lop3(f: &mut MFunc) {
    let info = Info::new(f);
    for b in (0..f.blocks.len()).map(BlockId::new) {
        for i in 0..f.blocks[b].instrs.len() {
            let ins = f.blocks[b].instrs[i];
            let Op::Lop3(c) = ins.op else { continue };
            for slot in 0..3 {
                let Some(t) = c.srcs[slot].as_reg().and_then(VReg::from_reg) else {
                    continue;
                };
                let Some(&Instr {
                    op: Op::Lop3(p), ..
                }) = info.plain_def(f, t)
                else {
                    continue;
                };
                let local = info.def_at[t].is_some_and(|(db, di)| db == b && di < i);
                if !local || info.uses[t] != 1 {
                    continue;
                }
                let mut vars: Vec<Src> = Vec::new();
                let others = (0..3).filter(|&k| k != slot).map(|k| c.srcs[k]);
                for s in p.srcs.into_iter().chain(others) {
                    if s.src != SrcRef::Zero && !vars.contains(&s) {
                        vars.push(s);
                    }
                }
                if vars.len() > 3 {
                    continue;
                }
                let fused = orders(vars.len()).into_iter().find_map(|order| {
                    let vs: Vec<Src> = order.iter().map(|&j| vars[j]).collect();
                    let cand = Instr {
                        op: Op::Lop3(compose(&c, slot, &p, &vs)),
                        ..ins
                    };
                    encodable(&cand).then_some(cand)
                });
                if let Some(fused) = fused {
                    f.blocks[b].instrs[i] = fused;
                    break;
                }
            }
        }
    }
}
