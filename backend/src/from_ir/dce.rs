//! Dead-code elimination on the machine IR: instruction selection computes
//! every component of a vector it reads (all three axes of
//! gl_GlobalInvocationID, say) and shaders often use one; instructions
//! without side effects whose results nobody reads are dropped here.

use crate::isa::{Instr, Op, OperandKind, Reg};
use crate::mir::MFunc;
use std::collections::HashSet;

/// Whether removing `op` when its results are unused changes nothing.
fn is_pure(op: &Op) -> bool {
    matches!(
        op,
        Op::Mov(_)
            | Op::IAdd3(_)
            | Op::IMad(_)
            | Op::ISetP(_)
            | Op::FSetP(_)
            | Op::FArith(_)
            | Op::Sel(_)
            | Op::Lop3(_)
            | Op::Shf(_)
            | Op::Conv(_)
            | Op::S2R(_)
            | Op::Ldc(_)
    )
}

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
