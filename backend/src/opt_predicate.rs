//! If-conversion (predication) of small branches.
//!
//! A conditional branch whose two successors are single blocks (the arms)
//! that both jump to one merge block, which nothing else enters or names,
//! becomes straight-line code: the head, both arms and the merge block are
//! joined into one block, and each merge-block parameter is defined by a
//! `SEL` (a GPR) or `PLOP3` (a predicate) on the branch predicate instead of
//! by the edges. The branch, the arms' branches and the convergence barrier
//! of a divergent branch (`BSSY` in the head, `BSYNC` opening the merge
//! block) disappear. An empty arm (`if` without `else`) is the block that
//! splits the critical edge to the merge block: only its branch.
//!
//! Arm instructions run for every lane of the head, so each must be safe to
//! execute where its arm was not taken:
//! - ALU ops (`mir_info::is_pure` but the constant loads) run unguarded:
//!   they cannot fault and only write their own SSA results, which nothing
//!   outside the arm reads but the merge's selects. An ALU source folded
//!   from a uniform buffer word (`c[b][k]`, b > 0) could lie beyond the
//!   bound range, so such an op is guarded like a load.
//! - Memory and ISBE accesses and `LDC` get the arm's predicate as guard
//!   (`@P0 STG`, `@!P0 LDG`). Their results are then undefined in the other
//!   arm's lanes, which is harmless: within the arm they feed only ALU ops
//!   (which cannot fault on any value) and guarded ops, and the merge's
//!   select never picks them there. An instruction already guarded cannot
//!   take a second guard, so its arm is not converted.
//! - Warp-wide ops (VOTE, SHFL, MATCH, REDUX, WARPSYNC, BAR) depend on
//!   which lanes execute, and MEMBAR, EXIT and branches on where they sit:
//!   an arm holding one is not converted.
//!
//! When converting pays is decided by counting issued instructions. The
//! straight-line code issues both arms and one select per merged value
//! (`a + b + s`); a path through the branch issues its arm and the control
//! instructions on it: BSSY, BRA and BSYNC for a divergent branch (its head
//! opens a barrier to the merge block), the BRA alone for a uniform one.
//! A branch is converted when the straight-line code issues at most
//! [`BRANCH_SLACK`] instructions more than either path, i.e. when
//! `max(a, b) + s <= control + BRANCH_SLACK`: arms of up to 5 instructions
//! (less one per select) under a divergent branch, 3 under a uniform one.
//! The slack stands for what a taken branch costs beyond its issue slot
//! (the fetch redirect, and for a divergent branch the wait at BSYNC),
//! which the latency table does not model. A warp that splits at a
//! divergent branch issues both arms anyway, so there predication only
//! saves instructions.
//!
//! Loops are never converted: a merge block entered by a back edge has
//! another predecessor, and the head cannot be its own merge block.
//! Blocks are visited last to first, so an inner if/else (laid out after
//! its enclosing one) is converted first and the enclosing arm becomes a
//! single block that may qualify in turn; the pass is linear in the size
//! of the function.

use crate::abi::ROOT_BANK;
use crate::isa::{Instr, Op, OpBra, OpBssy, OpBsync, OpPLop3, OpSel, PredSrc, RegFile, SrcRef};
use crate::mir::{BlockId, MFunc, VReg};
use crate::mir_info::{alu_srcs, dst_vreg, is_pure, rename_uses};
use cranelift_entity::{EntityRef, SecondaryMap};
use rustc_hash::{FxHashMap, FxHashSet};

/// Control instructions on a path through a divergent if/else: BSSY,
/// the BRA into or over an arm, BSYNC.
pub const DIVERGENT_CONTROL: usize = 3;
/// Control instructions on a path through a uniform if/else: its BRA.
pub const UNIFORM_CONTROL: usize = 1;
/// How many instructions more than a path through the branch the
/// straight-line code may issue (module docs).
pub const BRANCH_SLACK: usize = 2;

/// How an arm instruction runs once its branch is gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Placement {
    /// As it is, in every lane of the head.
    Speculate,
    /// Guarded by the arm's predicate.
    Guard,
}

/// A single-entry if/else region: `head` branches to `arms[0]` where
/// `cond` holds and to `arms[1]` elsewhere; both go on to `merge`.
#[derive(Clone, Copy, Debug)]
struct Region {
    head: BlockId,
    arms: [BlockId; 2],
    merge: BlockId,
    cond: PredSrc,
    /// The convergence barrier the head opens for the merge block.
    barrier: Option<u8>,
}

/// Runs the pass.
pub fn predicate(f: &mut MFunc) {
    let mut refs = block_refs(f);
    let mut dead: SecondaryMap<BlockId, bool> = SecondaryMap::with_capacity(f.blocks.len());
    let mut renames = FxHashMap::default();
    let consts = constants(f);
    let mut changed = false;
    for head in (0..f.blocks.len()).rev().map(BlockId::new) {
        // A converted head may now end in the next small branch.
        while !dead[head] {
            let Some(region) = find_region(f, &refs, head).filter(|r| profitable(f, r)) else {
                break;
            };
            convert(f, &region, &consts, &mut refs, &mut renames);
            for b in [region.arms[0], region.arms[1], region.merge] {
                dead[b] = true;
            }
            changed = true;
        }
    }
    if changed {
        let live: Vec<BlockId> = f.blocks.keys().filter(|&b| !dead[b]).collect();
        f.reorder(&live);
        rename_uses(f, &renames);
    }
}

/// For each block, the blocks whose BRA or BSSY instructions name it.
fn block_refs(f: &MFunc) -> SecondaryMap<BlockId, Vec<BlockId>> {
    let mut refs: SecondaryMap<BlockId, Vec<BlockId>> = SecondaryMap::new();
    refs.resize(f.blocks.len());
    for (b, blk) in f.blocks.iter() {
        for t in blk.instrs.iter().filter_map(target_of) {
            if let Some(r) = refs.get_mut(t) {
                r.push(b);
            }
        }
    }
    refs
}

fn target_of(ins: &Instr) -> Option<BlockId> {
    match ins.op {
        Op::Bra(OpBra { target }) | Op::Bssy(OpBssy { target, .. }) => BlockId::from_target(target),
        _ => None,
    }
}

/// The if/else region `head` opens, if it has the shape this pass
/// converts and every arm instruction has a placement.
fn find_region(
    f: &MFunc,
    refs: &SecondaryMap<BlockId, Vec<BlockId>>,
    head: BlockId,
) -> Option<Region> {
    let h = &f.blocks[head];
    let [taken, other] = h.succs[..] else {
        return None;
    };
    // Successor 0 is the taken one (mir.rs, layout.rs).
    let branch = h.instrs.last()?;
    let cond = branch.guard;
    if cond.reg.is_none() || !branch.op.is_branch() || target_of(branch) != Some(taken) {
        return None;
    }
    let arm_ok = |a: BlockId| {
        let blk = &f.blocks[a];
        a != BlockId::ENTRY
            && a != head
            && blk.preds == [head]
            && blk.params.is_empty()
            && blk.succs.len() == 1
            && refs[a].iter().all(|&r| r == head)
            && blk.instrs.last().is_some_and(|t| {
                t.guard.is_true() && t.op.is_branch() && target_of(t) == Some(blk.succs[0])
            })
            && blk.instrs[..blk.instrs.len() - 1]
                .iter()
                .all(|ins| placement(ins).is_some())
    };
    if taken == other || !arm_ok(taken) || !arm_ok(other) {
        return None;
    }
    let merge = f.blocks[taken].succs[0];
    let m = &f.blocks[merge];
    let mut preds = m.preds.clone();
    preds.sort_unstable();
    let mut arms = [taken, other];
    arms.sort_unstable();
    if f.blocks[other].succs[0] != merge
        || [BlockId::ENTRY, head, taken, other].contains(&merge)
        || preds != arms
        || refs[merge]
            .iter()
            .any(|r| ![head, taken, other].contains(r))
    {
        return None;
    }
    let barrier = h.instrs.iter().find_map(|ins| match ins.op {
        Op::Bssy(OpBssy { bar, target }) if target == merge.target() => Some(bar),
        _ => None,
    });
    // A barrier to the merge block is closed by the BSYNC opening it; a
    // BSYNC there without one belongs to no branch this pass understands.
    let opens_with = match m.instrs.first().map(|i| i.op) {
        Some(Op::Bsync(OpBsync { bar })) => Some(bar),
        _ => None,
    };
    if barrier != opens_with {
        return None;
    }
    Some(Region {
        head,
        arms: [taken, other],
        merge,
        cond,
        barrier,
    })
}

/// Where an arm instruction may go without its branch (module docs).
fn placement(ins: &Instr) -> Option<Placement> {
    let mut op = ins.op;
    let guard = match op {
        Op::Ldc(_) | Op::Ld(_) | Op::St(_) | Op::Atom(_) | Op::Red(_) => true,
        Op::IsbeRd(_) | Op::IsbeWr(_) => true,
        _ if is_pure(&op) => alu_srcs(&mut op).is_some_and(|srcs| {
            srcs.iter()
                .any(|s| matches!(s.src, SrcRef::CBuf { bank, .. } if bank != ROOT_BANK))
        }),
        _ => return None,
    };
    match (guard, ins.guard.is_true()) {
        (false, _) => Some(Placement::Speculate),
        (true, true) => Some(Placement::Guard),
        (true, false) => None,
    }
}

/// The instructions of arm `a`, without its branch.
fn body(f: &MFunc, a: BlockId) -> &[Instr] {
    let instrs = &f.blocks[a].instrs;
    &instrs[..instrs.len() - 1]
}

/// The merge-block parameters with the values each arm passes them.
fn merged_values(f: &MFunc, r: &Region) -> Vec<(VReg, VReg, VReg)> {
    let m = &f.blocks[r.merge];
    let [t, o] = r.arms.map(|a| &f.blocks[a].succ_args[0]);
    m.params
        .iter()
        .zip(t.iter().zip(o))
        .map(|(&p, (&a, &b))| (p, a, b))
        .collect()
}

/// Whether predicating `r` issues no more instructions than its branches
/// would (module docs).
fn profitable(f: &MFunc, r: &Region) -> bool {
    let [a, b] = r.arms.map(|a| body(f, a).len());
    let selects = merged_values(f, r)
        .iter()
        .filter(|(_, x, y)| x != y)
        .count();
    let control = match r.barrier {
        Some(_) => DIVERGENT_CONTROL,
        None => UNIFORM_CONTROL,
    };
    a.max(b) + selects <= control + BRANCH_SLACK
}

/// The registers copy propagation will replace by a constant: those an
/// unguarded MOV of an immediate or a constant-bank word defines.
fn constants(f: &MFunc) -> FxHashSet<VReg> {
    let mut out = FxHashSet::default();
    for ins in f.blocks.values().flat_map(|b| &b.instrs) {
        if let (true, Op::Mov(m)) = (ins.guard.is_true(), ins.op)
            && matches!(m.src.src, SrcRef::Imm(_) | SrcRef::CBuf { .. })
            && let Some(d) = dst_vreg(&m.dst)
        {
            out.insert(d);
        }
    }
    out
}

/// `dst = cond ? x : y` for a register of `file`. SEL takes a constant in
/// its second source only: a constant `x` swaps the operands and negates
/// the condition, so that copy propagation can fold it there.
fn select(
    file: RegFile,
    dst: VReg,
    cond: PredSrc,
    (x, y): (VReg, VReg),
    consts: &FxHashSet<VReg>,
) -> Instr {
    let swap = consts.contains(&x) && !consts.contains(&y);
    let (x, y, cond) = if swap {
        (
            y,
            x,
            PredSrc {
                neg: !cond.neg,
                ..cond
            },
        )
    } else {
        (x, y, cond)
    };
    Instr::new(match file {
        RegFile::Gpr => Op::Sel(OpSel {
            dst: dst.dst(),
            srcs: [x.src(), y.src()],
            cond,
        }),
        // `c ? a : b` over the truth-table inputs c = 0xf0, a = 0xcc,
        // b = 0xaa: (0xf0 & 0xcc) | (!0xf0 & 0xaa) = 0xca.
        RegFile::Pred => Op::PLop3(OpPLop3 {
            dst: dst.dst(),
            srcs: [cond, x.pred(), y.pred()],
            lut: 0xca,
        }),
    })
}

/// Joins the region into its head block. Parameters both arms pass the
/// same value are renamed to it (in `renames`, applied by the caller).
fn convert(
    f: &mut MFunc,
    r: &Region,
    consts: &FxHashSet<VReg>,
    refs: &mut SecondaryMap<BlockId, Vec<BlockId>>,
    renames: &mut FxHashMap<VReg, VReg>,
) {
    let merged = merged_values(f, r);
    let mut code: Vec<Instr> = std::mem::take(&mut f.blocks[r.head].instrs);
    code.pop(); // the branch
    if r.barrier.is_some() {
        code.retain(
            |ins| !matches!(ins.op, Op::Bssy(OpBssy { target, .. }) if target == r.merge.target()),
        );
    }
    let not_cond = PredSrc {
        neg: !r.cond.neg,
        ..r.cond
    };
    for (a, guard) in r.arms.into_iter().zip([r.cond, not_cond]) {
        for ins in body(f, a) {
            let mut ins = *ins;
            if placement(&ins) == Some(Placement::Guard) {
                ins.guard = guard;
            }
            code.push(ins);
        }
    }
    for (p, x, y) in merged {
        if x == y {
            renames.insert(p, x);
        } else {
            code.push(select(f.vregs[p], p, r.cond, (x, y), consts));
        }
    }
    let m = std::mem::take(&mut f.blocks[r.merge]);
    let skip = usize::from(r.barrier.is_some()); // the BSYNC
    code.extend_from_slice(&m.instrs[skip..]);
    // The merge block's branches now leave from the head.
    for t in m.instrs.iter().filter_map(target_of) {
        for src in &mut refs[t] {
            if *src == r.merge {
                *src = r.head;
            }
        }
    }
    for &s in &m.succs {
        for p in &mut f.blocks[s].preds {
            if *p == r.merge {
                *p = r.head;
            }
        }
    }
    let h = &mut f.blocks[r.head];
    h.instrs = code;
    h.succs = m.succs;
    h.succ_args = m.succ_args;
    for a in r.arms {
        f.blocks[a] = Default::default();
    }
}
