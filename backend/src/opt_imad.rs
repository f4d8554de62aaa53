//! Integer multiply-add formation: `t = a * b` (an IMAD adding RZ) read
//! only by `d = t + x` (an IADD3 with RZ as third source) becomes
//! `d = a * b + x`, one IMAD; and two-operand IADD3s feeding each other
//! merge into one three-operand IADD3. Both are exact: the low 32 bits of
//! wrapping products and sums do not depend on grouping. The producer must
//! sit in the consumer's block (a loop-invariant product is not pulled
//! into the loop) and becomes dead.

use crate::isa::{Instr, Op, OpIMad, Src, SrcRef};
use crate::mir::{BlockId, MFunc, VReg};
use crate::mir_info::{Info, encodable};
use cranelift_entity::EntityRef;

/// The IADD3 `ins` as `(slot of t, the other non-zero sources)`, when one
/// source is the plain register `t`.
fn addend_of(srcs: &[Src; 3], t: VReg) -> Option<usize> {
    srcs.iter()
        .position(|s| s.src == SrcRef::Reg(t.reg()) && !s.neg && !s.abs)
}

/// The single-use, same-block, unguarded definition of source `s` of the
/// instruction at `(b, i)`.
fn local_producer(f: &MFunc, info: &Info, b: BlockId, i: usize, s: &Src) -> Option<(VReg, Instr)> {
    let t = s.as_reg().and_then(VReg::from_reg)?;
    let ins = info.plain_def(f, t)?;
    let (db, di) = info.def_at[t]?;
    (db == b && di < i && info.uses[t] == 1).then_some((t, *ins))
}

/// The fused form of the IADD3 `srcs` with one source produced by `prod`.
fn fuse(prod: &Op, t: VReg, srcs: &[Src; 3]) -> Option<Op> {
    let slot = addend_of(srcs, t)?;
    let others: Vec<Src> = (0..3)
        .filter(|&j| j != slot)
        .map(|j| srcs[j])
        .filter(|s| s.src != SrcRef::Zero)
        .collect();
    match prod {
        Op::IMad(m) if m.srcs[2].src == SrcRef::Zero && others.len() <= 1 => {
            let x = others.first().copied().unwrap_or(Src::ZERO);
            if x.neg || x.abs {
                return None;
            }
            Some(Op::IMad(OpIMad {
                srcs: [m.srcs[0], m.srcs[1], x],
                ..*m
            }))
        }
        Op::IAdd3(p) => {
            let mut all: Vec<Src> = p
                .srcs
                .iter()
                .copied()
                .filter(|s| s.src != SrcRef::Zero)
                .collect();
            all.extend(others);
            if all.len() > 3 {
                return None;
            }
            all.resize(3, Src::ZERO);
            let mut o = *p;
            o.srcs = [all[0], all[1], all[2]];
            Some(Op::IAdd3(o))
        }
        _ => None,
    }
}

/// Runs the pass.
pub fn form_imad(f: &mut MFunc) {
    // One fusion per consumer per round: the use counts stay exact.
    let info = Info::new(f);
    for b in (0..f.blocks.len()).map(BlockId::new) {
        for i in 0..f.blocks[b].instrs.len() {
            let ins = f.blocks[b].instrs[i];
            let Op::IAdd3(add) = ins.op else { continue };
            for s in add.srcs {
                let Some((t, prod)) = local_producer(f, &info, b, i, &s) else {
                    continue;
                };
                let Some(op) = fuse(&prod.op, t, &add.srcs) else {
                    continue;
                };
                let Some(fused) = set_dst(op, add.dst) else {
                    continue;
                };
                let cand = Instr { op: fused, ..ins };
                if let Some(ok) = commuted_encodable(cand) {
                    f.blocks[b].instrs[i] = ok;
                    break;
                }
            }
        }
    }
}

fn set_dst(mut op: Op, dst: crate::isa::Dst) -> Option<Op> {
    match &mut op {
        Op::IMad(o) => o.dst = dst,
        Op::IAdd3(o) => o.dst = dst,
        _ => return None,
    }
    Some(op)
}

/// `ins` or, for an IMAD, `ins` with its factors swapped, whichever
/// encodes (an immediate factor must be the second).
fn commuted_encodable(ins: Instr) -> Option<Instr> {
    if encodable(&ins) {
        return Some(ins);
    }
    let mut swapped = ins;
    match &mut swapped.op {
        Op::IMad(o) => o.srcs.swap(0, 1),
        Op::IAdd3(o) => o.srcs.rotate_left(1),
        _ => return None,
    }
    encodable(&swapped).then_some(swapped)
}
