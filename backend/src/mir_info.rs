//! What the optimisation passes ask of the machine IR: how often each
//! virtual register is defined and used, where it is defined, which
//! registers belong to 64/128-bit groups (never renamed or removed on their
//! own), whether an operand form encodes, and the dominator tree.

use crate::isa::{Dst, EncodeError, Instr, IntCmp, Op, OperandKind, Reg, RegFile, SpecialReg, Src};
use crate::mir::{BlockId, MFunc, VReg};
use cranelift_entity::SecondaryMap;
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
    pub defs: SecondaryMap<VReg, u32>,
    pub uses: SecondaryMap<VReg, u32>,
    /// (block, index) of the definition, for registers defined once by an
    /// instruction (not block parameters).
    pub def_at: SecondaryMap<VReg, Option<(BlockId, usize)>>,
    /// Part of a 64/128-bit group operand somewhere.
    pub grouped: SecondaryMap<VReg, bool>,
}

impl Info {
    pub fn new(f: &MFunc) -> Info {
        let n = f.vregs.len();
        // Sized for every register: a register past them (invalid MIR,
        // which the verifier reports) is not counted.
        let mut info = Info {
            defs: SecondaryMap::new(),
            uses: SecondaryMap::new(),
            def_at: SecondaryMap::new(),
            grouped: SecondaryMap::new(),
        };
        info.defs.resize(n);
        info.uses.resize(n);
        info.def_at.resize(n);
        info.grouped.resize(n);
        for (&key, members) in &f.groups {
            info.mark_grouped(key);
            members.iter().for_each(|&m| info.mark_grouped(m));
        }
        for (bi, b) in f.blocks.iter() {
            for &p in &b.params {
                info.bump_def(p);
            }
            for &a in b.succ_args.iter().flatten() {
                info.bump_use(a);
            }
            for (ii, ins) in b.instrs.iter().enumerate() {
                let mut copy = *ins;
                copy.visit_regs(&mut |r, _, kind, width| {
                    let Some(v) = VReg::from_reg(*r) else { return };
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
                            if let Some(slot) = info.def_at.get_mut(v) {
                                *slot = Some((bi, ii));
                            }
                        }
                    }
                });
            }
        }
        info
    }

    fn bump_def(&mut self, v: VReg) {
        if let Some(d) = self.defs.get_mut(v) {
            *d += 1;
        }
    }
    fn bump_use(&mut self, v: VReg) {
        if let Some(u) = self.uses.get_mut(v) {
            *u += 1;
        }
    }
    fn mark_grouped(&mut self, v: VReg) {
        if let Some(g) = self.grouped.get_mut(v) {
            *g = true;
        }
    }

    /// A register the passes may replace or remove: defined exactly once,
    /// by an instruction, outside any group.
    pub fn is_plain(&self, v: VReg) -> bool {
        self.defs[v] == 1 && self.def_at[v].is_some() && !self.grouped[v]
    }

    /// The unguarded instruction that alone defines `v`, if `v` is plain.
    pub fn plain_def<'f>(&self, f: &'f MFunc, v: VReg) -> Option<&'f Instr> {
        if !self.is_plain(v) {
            return None;
        }
        let (b, i) = self.def_at[v]?;
        let ins = f.blocks.get(b)?.instrs.get(i)?;
        ins.guard.is_true().then_some(ins)
    }
}

/// The one register `ins` defines, when it defines exactly one register
/// of width 1.
pub fn single_def(ins: &Instr) -> Option<(VReg, RegFile)> {
    let mut out = None;
    let mut count = 0;
    let mut copy = *ins;
    copy.visit_regs(&mut |r, file, kind, width| {
        if kind == OperandKind::Def {
            count += 1;
            if let (Some(v), 1) = (VReg::from_reg(*r), width) {
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
pub fn unencodable(f: &MFunc) -> Vec<(BlockId, Instr, EncodeError)> {
    let mut out = Vec::new();
    for (b, block) in f.blocks.iter() {
        for ins in &block.instrs {
            if let Some(e) = encoding_refusal(ins) {
                out.push((b, *ins, e));
            }
        }
    }
    out
}

/// The 32-bit sources of an ALU op (each one register wide), in operand
/// order; `None` for other ops. Every op the op table declares ALU is
/// included, LEA too: copy propagation and constant folding feed it.
pub fn alu_srcs(op: &mut Op) -> Option<&mut [Src]> {
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
    // A select commutes with its condition negated (`p ? a : b` is
    // `!p ? b : a`): an immediate in the first slot, which has no
    // immediate form, goes to the second.
    if let Op::Sel(o) = &mut cand.op {
        o.srcs.swap(0, 1);
        o.cond.neg = !o.cond.neg;
        if encodable(&cand) {
            *ins = cand;
            return true;
        }
    }
    // The immediate 0 (no modifiers) is RZ, which every register slot
    // takes.
    if new == Src::imm(0) {
        return place_src(ins, slot, Src::ZERO);
    }
    false
}

/// Renames register uses (instruction operands and branch arguments) by
/// `map`, following chains. The members of a group operand (a double's
/// pair) are renamed too: a listed group's in place, a consecutive one
/// whose members change becomes a listed group under a fresh key.
/// (Renaming only the operand's key left a pair reading a block
/// parameter the predicate pass had removed: issue 18, S3.)
pub fn rename_uses(f: &mut MFunc, map: &FxHashMap<VReg, VReg>) {
    if map.is_empty() {
        return;
    }
    let resolve = |mut v: VReg| {
        while let Some(&n) = map.get(&v) {
            v = n;
        }
        v
    };
    for members in f.groups.values_mut() {
        members.iter_mut().for_each(|m| *m = resolve(*m));
    }
    let mut blocks = std::mem::take(&mut f.blocks);
    for b in blocks.values_mut() {
        for a in b.succ_args.iter_mut().flatten() {
            *a = resolve(*a);
        }
        for ins in &mut b.instrs {
            ins.visit_regs(&mut |r, file, kind, width| {
                let (Some(v), OperandKind::Use) = (VReg::from_reg(*r), kind) else {
                    return;
                };
                if width == 1 {
                    *r = resolve(v).reg();
                    return;
                }
                if f.groups.contains_key(&v) {
                    return;
                }
                let consecutive = (0..u32::from(width)).map(|i| v.offset(i));
                let members: Vec<VReg> = consecutive.clone().map(resolve).collect();
                if members.iter().copied().eq(consecutive) {
                    return;
                }
                let key = f.new_vreg(file);
                f.groups.insert(key, members);
                *r = key.reg();
            });
        }
    }
    f.blocks = blocks;
}

/// The register a GPR destination names.
pub fn dst_vreg(d: &Dst) -> Option<VReg> {
    match d {
        Dst::Reg(r) => VReg::from_reg(*r),
        Dst::None => None,
    }
}

/// Immediate dominators (Cooper, Harvey and Kennedy's iterative
/// algorithm); unreachable blocks and the entry have none.
pub fn idoms(f: &MFunc) -> SecondaryMap<BlockId, Option<BlockId>> {
    let n = f.blocks.len();
    let mut idom: SecondaryMap<BlockId, Option<BlockId>> = SecondaryMap::new();
    idom.resize(n);
    if n == 0 {
        return idom;
    }
    // Reverse postorder from the entry.
    let mut order = Vec::with_capacity(n);
    let mut seen: SecondaryMap<BlockId, bool> = SecondaryMap::new();
    seen.resize(n);
    let mut stack = vec![(BlockId::ENTRY, 0usize)];
    seen[BlockId::ENTRY] = true;
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
    let mut rpo: SecondaryMap<BlockId, usize> = SecondaryMap::with_default(usize::MAX);
    rpo.resize(n);
    for (i, &b) in order.iter().enumerate() {
        rpo[b] = i;
    }
    idom[BlockId::ENTRY] = Some(BlockId::ENTRY);
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().skip(1) {
            let mut new: Option<BlockId> = None;
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
                                x = idom[x].unwrap_or(BlockId::ENTRY);
                            }
                            while rpo[y] > rpo[x] {
                                y = idom[y].unwrap_or(BlockId::ENTRY);
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
    idom[BlockId::ENTRY] = None;
    idom
}
