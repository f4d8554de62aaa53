//! What the optimisation passes ask of the machine IR: how often each
//! virtual register is defined and used, where it is defined, which
//! registers belong to 64/128-bit groups (never renamed or removed on their
//! own), whether an operand form encodes, and the dominator tree.

use crate::isa::{Dst, EncodeError, Instr, IntCmp, Op, OperandKind, Reg, RegFile, SpecialReg, Src};
use crate::mir::MFunc;
use rustc_hash::FxHashMap;

/// Whether `op` has no effect but its results: removable when they are
/// unused, and (see [`is_cse_candidate`]) computable once. The op table
/// (`isa/mod.rs`) declares it for each op.
pub fn is_pure(op: &Op) -> bool {
    op.is_pure()
}

/// Whether two executions of `op` with the same operands give the same
/// result in the same thread: pure ops but the clock (the constant banks
/// do not change during a launch; S2R of a lane-varying register is the
/// same for a thread wherever it runs).
pub fn is_cse_candidate(op: &Op) -> bool {
    is_pure(op)
        && !matches!(op, Op::Cs2r(_))
        && !matches!(op, Op::S2R(s) if matches!(s.sr, SpecialReg::ClockLo | SpecialReg::ClockHi))
}

/// Per virtual register: definitions, uses, the place of its definition,
/// and group membership.
pub struct Info {
    pub defs: Vec<u32>,
    pub uses: Vec<u32>,
    /// (block, index) of the definition, for registers defined once by an
    /// instruction (not block parameters).
    pub def_at: Vec<Option<(usize, usize)>>,
    /// Part of a 64/128-bit group operand somewhere.
    pub grouped: Vec<bool>,
}

impl Info {
    pub fn new(f: &MFunc) -> Info {
        let n = f.vregs.len();
        let mut info = Info {
            defs: vec![0; n],
            uses: vec![0; n],
            def_at: vec![None; n],
            grouped: vec![false; n],
        };
        for (&key, members) in &f.groups {
            info.mark_grouped(key);
            members.iter().for_each(|&m| info.mark_grouped(m));
        }
        for (bi, b) in f.blocks.iter().enumerate() {
            for &p in &b.params {
                info.bump_def(p);
            }
            for &a in b.succ_args.iter().flatten() {
                info.bump_use(a);
            }
            for (ii, ins) in b.instrs.iter().enumerate() {
                let mut copy = *ins;
                copy.visit_regs(&mut |r, _, kind, width| {
                    let Reg::Virt(v) = *r else { return };
                    if width > 1 {
                        for m in f.group_members(v, width) {
                            info.mark_grouped(m);
                            match kind {
                                OperandKind::Use => info.bump_use(m),
                                OperandKind::Def => info.bump_def(m),
                            }
                        }
                        info.mark_grouped(v);
                        return;
                    }
                    match kind {
                        OperandKind::Use => info.bump_use(v),
                        OperandKind::Def => {
                            info.bump_def(v);
                            if let Some(slot) = info.def_at.get_mut(v as usize) {
                                *slot = Some((bi, ii));
                            }
                        }
                    }
                });
            }
        }
        info
    }

    fn bump_def(&mut self, v: u32) {
        if let Some(d) = self.defs.get_mut(v as usize) {
            *d += 1;
        }
    }
    fn bump_use(&mut self, v: u32) {
        if let Some(u) = self.uses.get_mut(v as usize) {
            *u += 1;
        }
    }
    fn mark_grouped(&mut self, v: u32) {
        if let Some(g) = self.grouped.get_mut(v as usize) {
            *g = true;
        }
    }

    /// A register the passes may replace or remove: defined exactly once,
    /// by an instruction, outside any group.
    pub fn is_plain(&self, v: u32) -> bool {
        let i = v as usize;
        i < self.defs.len() && self.defs[i] == 1 && self.def_at[i].is_some() && !self.grouped[i]
    }

    /// The unguarded instruction that alone defines `v`, if `v` is plain.
    pub fn plain_def<'f>(&self, f: &'f MFunc, v: u32) -> Option<&'f Instr> {
        if !self.is_plain(v) {
            return None;
        }
        let (b, i) = self.def_at[v as usize]?;
        let ins = f.blocks.get(b)?.instrs.get(i)?;
        ins.guard.is_true().then_some(ins)
    }
}

/// The one register `ins` defines, when it defines exactly one register
/// of width 1.
pub fn single_def(ins: &Instr) -> Option<(u32, RegFile)> {
    let mut out = None;
    let mut count = 0;
    let mut copy = *ins;
    copy.visit_regs(&mut |r, file, kind, width| {
        if kind == OperandKind::Def {
            count += 1;
            if let (Reg::Virt(v), 1) = (*r, width) {
                out = Some((v, file));
            }
        }
    });
    if count == 1 { out } else { None }
}

/// Whether `ins` encodes once its virtual registers are allocated: the
/// ISA's own encoder decides which operand forms exist (an immediate in
/// src1 or src2, not src0; no modifiers on an immediate; ...).
pub fn encodable(ins: &Instr) -> bool {
    encoding_refusal(ins).is_none()
}

/// Why `ins` would not encode once its virtual registers are allocated
/// (branch targets that are still blocks aside: layout resolves them).
pub fn encoding_refusal(ins: &Instr) -> Option<EncodeError> {
    let mut copy = *ins;
    copy.visit_regs(&mut |r, _, _, _| {
        if let Reg::Virt(_) = r {
            *r = Reg::Phys(0);
        }
    });
    match copy.encode(0) {
        Ok(_) | Err(EncodeError::UnresolvedTarget) => None,
        Err(e) => Some(e),
    }
}

/// Every instruction of `f` that would not encode, with its block and why.
pub fn unencodable(f: &MFunc) -> Vec<(usize, Instr, EncodeError)> {
    let mut out = Vec::new();
    for (b, block) in f.blocks.iter().enumerate() {
        for ins in &block.instrs {
            if let Some(e) = encoding_refusal(ins) {
                out.push((b, *ins, e));
            }
        }
    }
    out
}

/// The 32-bit sources of an ALU op (each one register wide), in operand
/// order; `None` for other ops.
pub fn alu_srcs(op: &mut Op) -> Option<&mut [Src]> {
    // LEA is left out for now: its sources were never rewritten.
    if matches!(op, Op::Lea(_)) {
        return None;
    }
    op.alu_srcs_mut()
}

/// Pairs of source slots that may be swapped without changing the result.
pub fn commuting_slots(op: &Op) -> &'static [(usize, usize)] {
    op.commuting_slots()
}

/// Sets source `slot` of `ins` to `new` if the result encodes, swapping
/// commuting sources when that is what makes it encode.
pub fn place_src(ins: &mut Instr, slot: usize, new: Src) -> bool {
    let mut cand = *ins;
    let Some(srcs) = alu_srcs(&mut cand.op) else {
        return false;
    };
    srcs[slot] = new;
    if encodable(&cand) {
        *ins = cand;
        return true;
    }
    for &(a, b) in commuting_slots(&cand.op) {
        if a != slot && b != slot {
            continue;
        }
        let mut swapped = cand;
        if let Some(s) = alu_srcs(&mut swapped.op) {
            s.swap(a, b);
        }
        if encodable(&swapped) {
            *ins = swapped;
            return true;
        }
    }
    // A comparison commutes with its mirror image (`a < b` is `b > a`).
    if let Op::ISetP(o) = &mut cand.op {
        o.srcs.swap(0, 1);
        o.cmp = match o.cmp {
            IntCmp::Lt => IntCmp::Gt,
            IntCmp::Gt => IntCmp::Lt,
            IntCmp::Le => IntCmp::Ge,
            IntCmp::Ge => IntCmp::Le,
            c => c,
        };
        if encodable(&cand) {
            *ins = cand;
            return true;
        }
    }
    false
}

/// Renames register uses (instruction operands and branch arguments) by
/// `map`, following chains. The members of a group operand (a double's
/// pair) are renamed too: a listed group's in place, a consecutive one
/// whose members change becomes a listed group under a fresh key.
/// (Renaming only the operand's key left a pair reading a block
/// parameter the predicate pass had removed: issue 18, S3.)
pub fn rename_uses(f: &mut MFunc, map: &FxHashMap<u32, u32>) {
    if map.is_empty() {
        return;
    }
    let resolve = |mut v: u32| {
        while let Some(&n) = map.get(&v) {
            v = n;
        }
        v
    };
    for members in f.groups.values_mut() {
        members.iter_mut().for_each(|m| *m = resolve(*m));
    }
    let mut blocks = std::mem::take(&mut f.blocks);
    for b in &mut blocks {
        for a in b.succ_args.iter_mut().flatten() {
            *a = resolve(*a);
        }
        for ins in &mut b.instrs {
            ins.visit_regs(&mut |r, file, kind, width| {
                let (Reg::Virt(v), OperandKind::Use) = (*r, kind) else {
                    return;
                };
                if width == 1 {
                    *r = Reg::Virt(resolve(v));
                    return;
                }
                if f.groups.contains_key(&v) {
                    return;
                }
                let members: Vec<u32> = (v..v + u32::from(width)).map(resolve).collect();
                if members.iter().copied().eq(v..v + u32::from(width)) {
                    return;
                }
                let key = f.new_vreg(file);
                f.groups.insert(key, members);
                *r = Reg::Virt(key);
            });
        }
    }
    f.blocks = blocks;
}

/// The register a GPR destination names.
pub fn dst_vreg(d: &Dst) -> Option<u32> {
    match d {
        Dst::Reg(Reg::Virt(v)) => Some(*v),
        _ => None,
    }
}

/// Immediate dominators (Cooper, Harvey and Kennedy's iterative
/// algorithm); unreachable blocks and the entry have none.
pub fn idoms(f: &MFunc) -> Vec<Option<usize>> {
    let n = f.blocks.len();
    // Reverse postorder from the entry.
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut stack = vec![(0usize, 0usize)];
    if n > 0 {
        seen[0] = true;
    }
    while let Some((b, next)) = stack.pop() {
        if let Some(&s) = f.blocks[b].succs.get(next) {
            stack.push((b, next + 1));
            if !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            order.push(b);
        }
    }
    order.reverse();
    let mut rpo = vec![usize::MAX; n];
    for (i, &b) in order.iter().enumerate() {
        rpo[b] = i;
    }
    let mut idom: Vec<Option<usize>> = vec![None; n];
    if n == 0 {
        return idom;
    }
    idom[0] = Some(0);
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().skip(1) {
            let mut new: Option<usize> = None;
            for &p in &f.blocks[b].preds {
                if idom[p].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(mut x) => {
                        let mut y = p;
                        while x != y {
                            while rpo[x] > rpo[y] {
                                x = idom[x].unwrap_or(0);
                            }
                            while rpo[y] > rpo[x] {
                                y = idom[y].unwrap_or(0);
                            }
                        }
                        x
                    }
                });
            }
            if new.is_some() && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    idom[0] = None;
    idom
}
