//! Dead-code elimination on the machine IR: instruction selection computes
//! every component of a vector it reads (all three axes of
//! gl_GlobalInvocationID, say) and shaders often use one; instructions
//! without side effects whose results nobody reads are dropped here, and
//! global atomics whose old value nobody reads become RED.

use crate::isa::{AtomOp, Dst, Instr, MemSpace, Op, OpRed, OperandKind, Reg};
use crate::mir::MFunc;
use crate::mir_info::is_pure;
use std::collections::HashSet;

/// The virtual registers `ins` defines or uses (each member of a group).
fn regs(f: &MFunc, ins: &Instr, kind: OperandKind) -> Vec<u32> {
    let mut out = Vec::new();
    let mut copy = *ins;
    copy.visit_regs(&mut |r, _, k, width| {
        if let (Reg::Virt(v), true) = (*r, k == kind) {
            out.extend(f.group_members(v, width));
        }
    });
    out
}

pub fn eliminate_dead_code(f: &mut MFunc) {
    loop {
        let mut used: HashSet<u32> = HashSet::new();
        for b in &f.blocks {
            used.extend(b.succ_args.iter().flatten());
            for ins in &b.instrs {
                used.extend(regs(f, ins, OperandKind::Use));
            }
        }
        let mut changed = false;
        let mut blocks = std::mem::take(&mut f.blocks);
        for b in &mut blocks {
            for ins in &mut b.instrs {
                reduce_if_unread(ins, &used);
            }
            b.instrs.retain(|ins| {
                let dead = is_pure(&ins.op)
                    && regs(f, ins, OperandKind::Def)
                        .iter()
                        .all(|v| !used.contains(v));
                changed |= dead;
                !dead
            });
        }
        f.blocks = blocks;
        if !changed {
            return;
        }
    }
}

/// A global atomic whose old value nobody reads becomes RED (no result;
/// exchange and compare-and-swap have no RED form and stay).
fn reduce_if_unread(ins: &mut Instr, used: &HashSet<u32>) {
    if let Op::Atom(a) = ins.op
        && a.space == MemSpace::Global
        && !matches!(a.op, AtomOp::Exch | AtomOp::CmpExch)
        && matches!(a.dst, Dst::Reg(Reg::Virt(v)) if !used.contains(&v))
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
