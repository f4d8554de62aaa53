//! The machine IR: blocks of ISA instructions over virtual registers, in
//! SSA form with block parameters, as regalloc2 wants it (critical edges
//! split, every block ending in a branch or EXIT).

use crate::isa::{Instr, Op, OpBra, OpBssy, RegFile, Target};
use std::fmt::{self, Write};

#[derive(Clone, Debug, Default)]
pub struct MBlock {
    pub instrs: Vec<Instr>,
    /// Virtual registers defined on entry (the IR's block parameters).
    pub params: Vec<u32>,
    pub succs: Vec<usize>,
    /// For each successor, the values passed to its parameters.
    pub succ_args: Vec<Vec<u32>>,
    pub preds: Vec<usize>,
}

#[derive(Clone, Debug, Default)]
pub struct MFunc {
    /// Blocks in layout order; block 0 is the entry.
    pub blocks: Vec<MBlock>,
    /// The register file of each virtual register.
    pub vregs: Vec<RegFile>,
    /// Register groups whose members are not consecutive virtual
    /// registers: the operand names a key register (never itself
    /// allocated), this maps it to its members. Other groups of width n at
    /// `%v` are `%v .. %v+n-1`.
    pub groups: rustc_hash::FxHashMap<u32, Vec<u32>>,
}

impl MFunc {
    pub fn new_vreg(&mut self, file: RegFile) -> u32 {
        self.vregs.push(file);
        (self.vregs.len() - 1) as u32
    }

    /// The virtual registers of the group of `width` named by `v` (an
    /// iterator: the passes ask for every group operand they walk, and a
    /// list allocated each time was a noticeable part of them).
    pub fn group_members(&self, v: u32, width: u8) -> impl Iterator<Item = u32> + '_ {
        let listed = self.groups.get(&v);
        let consecutive = listed.is_none().then(|| v..v + u32::from(width));
        let listed = listed.into_iter().flatten().copied();
        listed.chain(consecutive.into_iter().flatten())
    }

    pub fn new_block(&mut self) -> usize {
        self.blocks.push(MBlock::default());
        self.blocks.len() - 1
    }

    pub fn add_edge(&mut self, from: usize, to: usize, args: Vec<u32>) {
        self.blocks[from].succs.push(to);
        self.blocks[from].succ_args.push(args);
        self.blocks[to].preds.push(from);
    }

    /// Lays the blocks out in `order` (a permutation of the old indices),
    /// renumbering successors, predecessors and branch targets. Blocks left
    /// out of `order` are dropped: nothing may refer to them.
    pub fn reorder(&mut self, order: &[usize]) {
        let mut new_index = vec![0usize; self.blocks.len()];
        for (i, &b) in order.iter().enumerate() {
            new_index[b] = i;
        }
        let mut old: Vec<Option<MBlock>> = std::mem::take(&mut self.blocks)
            .into_iter()
            .map(Some)
            .collect();
        for &b in order {
            let mut blk = old[b].take().expect("each block is placed once");
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
                        *t = new_index[*t as usize] as u32;
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
        for (i, b) in self.blocks.iter().enumerate() {
            let mut head = format!(".L_{i}");
            if !b.params.is_empty() {
                let ps: Vec<String> = b.params.iter().map(|p| format!("%{p}")).collect();
                let _ = write!(head, "({})", ps.join(", "));
            }
            // Successors with the values passed to their parameters.
            let succs: Vec<String> = b
                .succs
                .iter()
                .zip(&b.succ_args)
                .map(|(s, args)| {
                    let args: Vec<String> = args.iter().map(|a| format!("%{a}")).collect();
                    if args.is_empty() {
                        format!(".L_{s}")
                    } else {
                        format!(".L_{s}({})", args.join(", "))
                    }
                })
                .collect();
            writeln!(
                f,
                "{head}:  ; preds {:?} succs [{}]",
                b.preds,
                succs.join(", ")
            )?;
            for ins in &b.instrs {
                writeln!(f, "        {ins}")?;
            }
        }
        Ok(())
    }
}
