//! Dead-code elimination on the machine IR: instruction selection computes
//! every component of a vector it reads (all three axes of
//! gl_GlobalInvocationID, say) and shaders often use one; instructions
//! without side effects whose results nobody reads are dropped here, and
//! global atomics whose old value nobody reads become RED.

use crate::isa::{AtomOp, Dst, Instr, MemSpace, Op, OpRed, OperandKind, Reg};
use crate::mir::MFunc;
use crate::mir_info::is_pure;

/// Calls `each` with every virtual register `ins` defines or uses (each
/// member of a group).
fn regs(f: &MFunc, ins: &Instr, kind: OperandKind, each: &mut impl FnMut(u32)) {
    let mut copy = *ins;
    copy.visit_regs(&mut |r, _, k, width| {
        if let (Reg::Virt(v), true) = (*r, k == kind) {
            if width == 1 {
                each(v);
            } else {
                f.group_members(v, width).for_each(&mut *each);
            }
        }
    });
}

/// Mark and sweep: the registers branch arguments and instructions with
/// effects read are needed, and so are, transitively, the registers read
/// by the pure instructions that define needed ones; pure instructions
/// that define nothing needed go. One pass over the function and one over
/// the needed registers, however long the chains of dead code.
pub fn eliminate_dead_code(f: &mut MFunc) {
    let n = f.vregs.len();
    // The pure instructions defining registers, (register, block, index),
    // grouped by register below: one list, not one per register.
    let mut defs: Vec<(u32, u32, u32)> = Vec::new();
    let mut used = vec![false; n];
    let mut work = Vec::new();
    let need = |v: u32, used: &mut Vec<bool>, work: &mut Vec<u32>| {
        if let Some(u) = used.get_mut(v as usize)
            && !*u
        {
            *u = true;
            work.push(v);
        }
    };
    for (bi, b) in f.blocks.iter().enumerate() {
        for &a in b.succ_args.iter().flatten() {
            need(a, &mut used, &mut work);
        }
        for (ii, ins) in b.instrs.iter().enumerate() {
            if is_pure(&ins.op) {
                regs(f, ins, OperandKind::Def, &mut |v| {
                    if (v as usize) < n {
                        defs.push((v, bi as u32, ii as u32));
                    }
                });
            } else {
                regs(f, ins, OperandKind::Use, &mut |v| {
                    need(v, &mut used, &mut work)
                });
            }
        }
    }
    // The definitions of register `v` are defs[start[v]..start[v + 1]].
    defs.sort_unstable_by_key(|&(v, ..)| v);
    let mut start = vec![0usize; n + 1];
    for &(v, ..) in &defs {
        start[v as usize + 1] += 1;
    }
    for v in 0..n {
        start[v + 1] += start[v];
    }
    let mut live: Vec<Vec<bool>> = f
        .blocks
        .iter()
        .map(|b| b.instrs.iter().map(|i| !is_pure(&i.op)).collect())
        .collect();
    while let Some(v) = work.pop() {
        for &(_, bi, ii) in &defs[start[v as usize]..start[v as usize + 1]] {
            let (bi, ii) = (bi as usize, ii as usize);
            if !live[bi][ii] {
                live[bi][ii] = true;
                regs(f, &f.blocks[bi].instrs[ii], OperandKind::Use, &mut |u| {
                    need(u, &mut used, &mut work)
                });
            }
        }
    }
    for (b, keep) in f.blocks.iter_mut().zip(live) {
        let mut keep = keep.into_iter();
        b.instrs.retain_mut(|ins| {
            reduce_if_unread(ins, &used);
            keep.next().unwrap_or(true)
        });
    }
}

/// A global atomic whose old value nobody reads becomes RED (no result;
/// exchange and compare-and-swap have no RED form and stay).
fn reduce_if_unread(ins: &mut Instr, used: &[bool]) {
    if let Op::Atom(a) = ins.op
        && a.space == MemSpace::Global
        && !matches!(a.op, AtomOp::Exch | AtomOp::CmpExch)
        && matches!(a.dst, Dst::Reg(Reg::Virt(v)) if !used.get(v as usize).copied().unwrap_or(false))
    {
        ins.op = Op::Red(OpRed {
            addr: a.addr,
            offset: a.offset,
            data: a.data,
            op: a.op,
            ty: a.ty,
        });
    }
}
