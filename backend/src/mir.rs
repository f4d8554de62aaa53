//! The machine IR: blocks of ISA instructions over virtual registers, in
//! SSA form with block parameters, as regalloc2 wants it (critical edges
//! split, every block ending in a branch or EXIT).

//!
//! Blocks and virtual registers are typed indices ([`BlockId`], [`VReg`],
//! cranelift-entity newtypes): a block cannot be passed where a register
//! is wanted, and the passes' side tables are `SecondaryMap`s keyed by
//! them. Instruction operands stay the ISA's [`Reg`] and [`Target`]; the
//! conversions between the two live here, at the machine IR's boundary
//! ([`VReg::reg`], [`VReg::from_reg`], [`BlockId::target`],
//! [`BlockId::from_target`]).

use crate::isa::{Dst, Instr, Op, OpBra, OpBssy, PredSrc, Reg, RegFile, Src, Target};
use cranelift_entity::{EntityRef, PrimaryMap, SecondaryMap, entity_impl};
use std::fmt::{self, Write};

/// A block of the machine IR (an index into [`MFunc::blocks`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(u32);
entity_impl!(BlockId, ".L_");

impl BlockId {
    /// The entry block: the first in layout order.
    pub const ENTRY: BlockId = BlockId(0);

    /// The branch target naming this block (resolved to an address by
    /// layout).
    pub fn target(self) -> Target {
        Target::Block(self.0)
    }

    /// The block a branch target names; `None` for a resolved address.
    pub fn from_target(t: Target) -> Option<BlockId> {
        match t {
            Target::Block(b) => Some(BlockId(b)),
            Target::Addr(_) => None,
        }
    }
}

/// A virtual register: an SSA value of the machine IR, in the register
/// file [`MFunc::vregs`] gives it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VReg(u32);
entity_impl!(VReg, "%");

impl VReg {
    /// The operand naming this register.
    pub fn reg(self) -> Reg {
        Reg::Virt(self.0)
    }

    /// The virtual register an operand names; `None` for a physical one.
    pub fn from_reg(r: Reg) -> Option<VReg> {
        match r {
            Reg::Virt(v) => Some(VReg(v)),
            Reg::Phys(_) => None,
        }
    }

    /// A GPR source reading this register, without modifiers.
    pub fn src(self) -> Src {
        Src::reg(self.reg())
    }

    /// A destination writing this register.
    pub fn dst(self) -> Dst {
        Dst::Reg(self.reg())
    }

    /// A predicate source reading this register, not negated.
    pub fn pred(self) -> PredSrc {
        PredSrc::reg(self.reg())
    }

    /// The `n`th register after this one (the members of a consecutive
    /// group).
    pub fn offset(self, n: u32) -> VReg {
        VReg(self.0 + n)
    }
}

/// A virtual register of the predicate file: what instruction selection
/// holds a boolean in. It reads only as a predicate source
/// ([`PReg::pred`]) and has no GPR source form, so a predicate put in a
/// 32-bit operand slot does not compile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PReg(VReg);

impl PReg {
    /// The virtual register (for block parameters and arguments, which
    /// carry registers of either file).
    pub fn vreg(self) -> VReg {
        self.0
    }

    /// A predicate source reading this register, not negated.
    pub fn pred(self) -> PredSrc {
        self.0.pred()
    }

    /// A predicate destination writing this register.
    pub fn dst(self) -> Dst {
        self.0.dst()
    }
}

impl From<VReg> for Reg {
    fn from(v: VReg) -> Reg {
        v.reg()
    }
}

#[derive(Clone, Debug, Default)]
pub struct MBlock {
    pub instrs: Vec<Instr>,
    /// Virtual registers defined on entry (the IR's block parameters).
    pub params: Vec<VReg>,
    pub succs: Vec<BlockId>,
    /// For each successor, the values passed to its parameters.
    pub succ_args: Vec<Vec<VReg>>,
    pub preds: Vec<BlockId>,
}

#[derive(Clone, Debug, Default)]
pub struct MFunc {
    /// Blocks in layout order; [`BlockId::ENTRY`] is the entry.
    pub blocks: PrimaryMap<BlockId, MBlock>,
    /// The register file of each virtual register.
    pub vregs: PrimaryMap<VReg, RegFile>,
    /// Register groups whose members are not consecutive virtual
    /// registers: the operand names a key register (never itself
    /// allocated), this maps it to its members. Other groups of width n at
    /// `%v` are `%v .. %v+n-1`.
    pub groups: rustc_hash::FxHashMap<VReg, Vec<VReg>>,
}

impl MFunc {
    pub fn new_vreg(&mut self, file: RegFile) -> VReg {
        self.vregs.push(file)
    }

    /// A fresh virtual register of the predicate file.
    pub fn new_pred(&mut self) -> PReg {
        PReg(self.new_vreg(RegFile::Pred))
    }

    /// `v` as a predicate register, if it is of the predicate file (the
    /// checked way from an operand back to a boolean).
    pub fn as_pred(&self, v: VReg) -> Option<PReg> {
        (self.vregs.get(v) == Some(&RegFile::Pred)).then_some(PReg(v))
    }

    /// The virtual registers of the group of `width` named by `v` (an
    /// iterator: the passes ask for every group operand they walk, and a
    /// list allocated each time was a noticeable part of them).
    pub fn group_members(&self, v: VReg, width: u8) -> impl Iterator<Item = VReg> + '_ {
        let listed = self.groups.get(&v);
        let consecutive = listed
            .is_none()
            .then(|| (0..u32::from(width)).map(move |i| v.offset(i)));
        let listed = listed.into_iter().flatten().copied();
        listed.chain(consecutive.into_iter().flatten())
    }

    pub fn new_block(&mut self) -> BlockId {
        self.blocks.push(MBlock::default())
    }

    pub fn add_edge(&mut self, from: BlockId, to: BlockId, args: Vec<VReg>) {
        self.blocks[from].succs.push(to);
        self.blocks[from].succ_args.push(args);
        self.blocks[to].preds.push(from);
    }

    /// Lays the blocks out in `order` (a permutation of the old blocks),
    /// renumbering successors, predecessors and branch targets. Blocks left
    /// out of `order` are dropped: nothing may refer to them.
    pub fn reorder(&mut self, order: &[BlockId]) {
        let mut new_index: SecondaryMap<BlockId, BlockId> =
            SecondaryMap::with_default(BlockId::ENTRY);
        for (i, &b) in order.iter().enumerate() {
            new_index[b] = BlockId::new(i);
        }
        let mut old: Vec<Option<MBlock>> = std::mem::take(&mut self.blocks)
            .into_iter()
            .map(|(_, blk)| Some(blk))
            .collect();
        for &b in order {
            let mut blk = old[b.index()].take().expect("each block is placed once");
            blk.succs.iter_mut().for_each(|s| *s = new_index[*s]);
            blk.preds.iter_mut().for_each(|p| *p = new_index[*p]);
            for ins in &mut blk.instrs {
                match &mut ins.op {
                    Op::Bra(OpBra {
                        target: Target::Block(t),
                    })
                    | Op::Bssy(OpBssy {
                        target: Target::Block(t),
                        ..
                    }) => {
                        *t = new_index[BlockId(*t)].0;
                    }
                    _ => {}
                }
            }
            self.blocks.push(blk);
        }
    }
}

impl fmt::Display for MFunc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, b) in self.blocks.iter() {
            let mut head = format!("{i}");
            if !b.params.is_empty() {
                let ps: Vec<String> = b.params.iter().map(|p| format!("{p}")).collect();
                let _ = write!(head, "({})", ps.join(", "));
            }
            // Successors with the values passed to their parameters.
            let succs: Vec<String> = b
                .succs
                .iter()
                .zip(&b.succ_args)
                .map(|(s, args)| {
                    let args: Vec<String> = args.iter().map(|a| format!("{a}")).collect();
                    if args.is_empty() {
                        format!("{s}")
                    } else {
                        format!("{s}({})", args.join(", "))
                    }
                })
                .collect();
            writeln!(
                f,
                "{head}:  ; preds {:?} succs [{}]",
                b.preds.iter().map(|p| p.index()).collect::<Vec<_>>(),
                succs.join(", ")
            )?;
            for ins in &b.instrs {
                writeln!(f, "        {ins}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_pred_accepts_only_predicate_registers() {
        let mut f = MFunc::default();
        let r = f.new_vreg(RegFile::Gpr);
        let p = f.new_pred();
        assert_eq!(f.as_pred(r), None);
        assert_eq!(f.as_pred(p.vreg()), Some(p));
        assert_eq!(f.as_pred(VReg::from_u32(7)), None, "no such register");
        assert_eq!(p.pred().reg, Some(p.vreg().reg()));
    }

    #[test]
    fn operands_and_targets_convert_both_ways() {
        let v = VReg::from_u32(5);
        assert_eq!(VReg::from_reg(v.reg()), Some(v));
        assert_eq!(VReg::from_reg(Reg::Phys(5)), None);
        let b = BlockId::from_u32(3);
        assert_eq!(BlockId::from_target(b.target()), Some(b));
        assert_eq!(BlockId::from_target(Target::Addr(0x30)), None);
    }

    #[test]
    fn a_consecutive_group_lists_its_members_and_a_listed_one_its_list() {
        let mut f = MFunc::default();
        let vs: Vec<VReg> = (0..4).map(|_| f.new_vreg(RegFile::Gpr)).collect();
        assert_eq!(
            f.group_members(vs[1], 2).collect::<Vec<_>>(),
            [vs[1], vs[2]]
        );
        f.groups.insert(vs[0], vec![vs[3], vs[1]]);
        assert_eq!(
            f.group_members(vs[0], 2).collect::<Vec<_>>(),
            [vs[3], vs[1]]
        );
    }
}
