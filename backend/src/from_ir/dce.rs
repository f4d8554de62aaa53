//! Dead-code elimination on the machine IR: instruction selection computes
//! every component of a vector it reads (all three axes of
//! gl_GlobalInvocationID, say) and shaders often use one; instructions
//! without side effects whose results nobody reads are dropped here, and
//! global atomics whose old value nobody reads become RED.

use crate::isa::{AtomOp, Dst, Instr, MemSpace, Op, OpRed, OperandKind};
use crate::mir::{MFunc, VReg};
use crate::mir_info::is_pure;
use cranelift_entity::{EntityRef, SecondaryMap};

/// Calls `each` with every virtual register `ins` defines or uses (each
/// member of a group) and how it does.
fn regs(f: &MFunc, ins: &Instr, mut each: impl FnMut(VReg, OperandKind)) {
    let mut copy = *ins;
    copy.visit_regs(&mut |r, _, kind, width| {
        if let Some(v) = VReg::from_reg(*r) {
            if width == 1 {
                each(v, kind);
            } else {
                f.group_members(v, width).for_each(|m| each(m, kind));
            }
        }
    });
}

/// Mark and sweep: the registers branch arguments and instructions with
/// effects read are needed, and so are, transitively, the registers read
/// by the pure instructions that define needed ones; pure instructions
/// that define nothing needed go. One walk over the function's operands
/// (the pure instructions' reads are kept for the sweep) and one pass
/// over the needed registers, however long the chains of dead code.
pub fn eliminate_dead_code(f: &mut MFunc) {
    let n = f.vregs.len();
    // The pure instructions in walk order, numbered from 0: pure
    // instruction k reads reads[read_start[k]..read_start[k + 1]].
    let mut reads: Vec<VReg> = Vec::new();
    let mut read_start = vec![0usize];
    // (register, k) for each register a pure instruction k defines.
    let mut defs: Vec<(VReg, u32)> = Vec::new();
    let mut used: SecondaryMap<VReg, bool> = SecondaryMap::new();
    used.resize(n);
    let mut work = Vec::new();
    let need = |v: VReg, used: &mut SecondaryMap<VReg, bool>, work: &mut Vec<VReg>| {
        if let Some(u) = used.get_mut(v)
            && !*u
        {
            *u = true;
            work.push(v);
        }
    };
    for b in f.blocks.values() {
        for &a in b.succ_args.iter().flatten() {
            need(a, &mut used, &mut work);
        }
        for ins in &b.instrs {
            if is_pure(&ins.op) {
                let k = (read_start.len() - 1) as u32;
                regs(f, ins, |v, kind| match kind {
                    OperandKind::Use => reads.push(v),
                    OperandKind::Def if v.index() < n => defs.push((v, k)),
                    OperandKind::Def => {}
                });
                read_start.push(reads.len());
            } else {
                regs(f, ins, |v, kind| {
                    if kind == OperandKind::Use {
                        need(v, &mut used, &mut work);
                    }
                });
            }
        }
    }
    // The pure instructions defining register `v` are
    // definers[start[v]..start[v + 1]] (a counting sort by register).
    let mut start = vec![0usize; n + 1];
    for &(v, _) in &defs {
        start[v.index() + 1] += 1;
    }
    for v in 0..n {
        start[v + 1] += start[v];
    }
    let mut next = start.clone();
    let mut definers = vec![0u32; defs.len()];
    for &(v, k) in &defs {
        definers[next[v.index()]] = k;
        next[v.index()] += 1;
    }
    let mut live = vec![false; read_start.len() - 1];
    while let Some(v) = work.pop() {
        for &k in &definers[start[v.index()]..start[v.index() + 1]] {
            let k = k as usize;
            if !live[k] {
                live[k] = true;
                for &u in &reads[read_start[k]..read_start[k + 1]] {
                    need(u, &mut used, &mut work);
                }
            }
        }
    }
    let mut pure_live = live.into_iter();
    for b in f.blocks.values_mut() {
        b.instrs.retain_mut(|ins| {
            let keep = !is_pure(&ins.op) || pure_live.next().unwrap_or(true);
            reduce_if_unread(ins, &used);
            keep
        });
    }
}

/// A global atomic whose old value nobody reads becomes RED (no result;
/// exchange and compare-and-swap have no RED form and stay).
fn reduce_if_unread(ins: &mut Instr, used: &SecondaryMap<VReg, bool>) {
    if let Op::Atom(a) = ins.op
        && a.space == MemSpace::Global
        && !matches!(a.op, AtomOp::Exch | AtomOp::CmpExch)
        && let Dst::Reg(r) = a.dst
        && let Some(v) = VReg::from_reg(r)
        && !used.get(v).copied().unwrap_or(false)
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
