//! The machine IR: blocks of ISA instructions over virtual registers, in
//! SSA form with block parameters, as regalloc2 wants it (critical edges
//! split, every block ending in a branch or EXIT).

use crate::isa::{Instr, RegFile};
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
    pub groups: std::collections::HashMap<u32, Vec<u32>>,
}

impl MFunc {
    pub fn new_vreg(&mut self, file: RegFile) -> u32 {
        self.vregs.push(file);
        (self.vregs.len() - 1) as u32
    }

    /// The virtual registers of the group of `width` named by `v`.
    pub fn group_members(&self, v: u32, width: u8) -> Vec<u32> {
        match self.groups.get(&v) {
            Some(members) => members.clone(),
            None => (v..v + u32::from(width)).collect(),
        }
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
}

impl fmt::Display for MFunc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, b) in self.blocks.iter().enumerate() {
            let mut head = format!(".L_{i}");
            if !b.params.is_empty() {
                let ps: Vec<String> = b.params.iter().map(|p| format!("%{p}")).collect();
                let _ = write!(head, "({})", ps.join(", "));
            }
            writeln!(f, "{head}:  ; preds {:?} succs {:?}", b.preds, b.succs)?;
            for ins in &b.instrs {
                writeln!(f, "        {ins}")?;
            }
        }
        Ok(())
    }
}
