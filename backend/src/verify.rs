//! The machine-IR verifier (`MFunc::verify`): the invariants every pass
//! relies on, checked after each pass of `compile.rs` in debug builds (and
//! so in every test), so a pass that breaks one is named at once instead
//! of showing up as a wrong listing passes later.
//!
//! What holds depends on the stage:
//! - [`Form::Virtual`], from instruction selection to register
//!   allocation: SSA over virtual registers. Each virtual register is
//!   defined once (a block parameter or an instruction result; a 64/128-bit
//!   group operand defines or reads each of its members) and every one
//!   that is read is defined; every operand names a register of the file
//!   its slot holds; a group operand has as many members as its width.
//! - [`Form::Allocated`], after `assign_regs`: physical registers only,
//!   redefined freely (no longer SSA), inside the allocatable file, groups
//!   starting at a multiple of their width. Block parameters and branch
//!   arguments are left as they were and only their counts are checked.
//!
//! At both stages the control-flow graph is the one regalloc2 requires:
//! predecessor and successor lists agree edge for edge, each edge passes
//! as many values as its target has parameters, no edge goes from a block
//! with several successors to one with several predecessors (the entry
//! counts one more), the entry takes no parameters, and each block ends in
//! its only terminator: EXIT with no successor, an unconditional BRA to its
//! one successor, or a guarded BRA to the first of two (the second falls
//! through, `layout.rs`).

use crate::assign_regs::{NUM_GPRS, NUM_PREDS};
use crate::isa::{Instr, Op, OpBra, OpBssy, OperandKind, Reg, RegFile};
use crate::mir::{BlockId, MFunc, VReg};
use cranelift_entity::SecondaryMap;
use std::fmt;

/// The stage a function is verified at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Virtual registers in SSA form (selection to register allocation).
    Virtual,
    /// Physical registers (after register allocation).
    Allocated,
}

/// An instruction: its block and index there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct At {
    pub block: BlockId,
    pub index: usize,
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} instruction {}", self.block, self.index)
    }
}

/// Where a virtual register is defined or read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    /// A parameter of this block.
    Param(BlockId),
    /// The arguments an edge passes.
    Edge {
        from: BlockId,
        to: BlockId,
    },
    Instr(At),
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Site::Param(b) => write!(f, "a parameter of {b}"),
            Site::Edge { from, to } => write!(f, "the arguments of edge {from} -> {to}"),
            Site::Instr(at) => write!(f, "{at}"),
        }
    }
}

/// A broken invariant, naming the block and instruction.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error("{block} names block {target}, but there are {blocks} blocks")]
    NoSuchBlock {
        block: BlockId,
        target: BlockId,
        blocks: usize,
    },
    #[error(
        "edge {from} -> {to}: {as_succ} time(s) among {from}'s successors, {as_pred} among {to}'s predecessors"
    )]
    AsymmetricEdge {
        from: BlockId,
        to: BlockId,
        as_succ: usize,
        as_pred: usize,
    },
    #[error("{block} has {succs} successors but {lists} argument lists")]
    ArgumentLists {
        block: BlockId,
        succs: usize,
        lists: usize,
    },
    #[error("{from} passes {args} values to {to}, which has {params} parameters")]
    Arity {
        from: BlockId,
        to: BlockId,
        args: usize,
        params: usize,
    },
    #[error("{from} passes {arg} ({arg_file:?}) to {to}'s parameter {param} ({param_file:?})")]
    ArgumentFile {
        from: BlockId,
        to: BlockId,
        arg: VReg,
        arg_file: RegFile,
        param: VReg,
        param_file: RegFile,
    },
    #[error("the entry block .L_0 has {0} parameters; nothing passes them")]
    EntryParams(usize),
    #[error("{vreg} is defined in {first} and again in {again}")]
    Redefined {
        vreg: VReg,
        first: Site,
        again: Site,
    },
    #[error("{vreg}, read in {at}, is never defined")]
    Undefined { vreg: VReg, at: Site },
    #[error("{at}: {vreg} does not exist ({count} virtual registers)")]
    NoSuchVreg { at: Site, vreg: VReg, count: usize },
    #[error("{at}: {vreg} is a {declared:?} register in a {slot:?} operand")]
    WrongFile {
        at: At,
        vreg: VReg,
        declared: RegFile,
        slot: RegFile,
    },
    #[error("{at}: group {key} has {members} members, the operand is {width} registers wide")]
    GroupWidth {
        at: At,
        key: VReg,
        members: usize,
        width: u8,
    },
    #[error("{at}: physical register {reg} before register allocation")]
    PhysicalBeforeAllocation { at: At, reg: u8 },
    #[error("{at}: virtual register {vreg} after register allocation")]
    VirtualAfterAllocation { at: At, vreg: VReg },
    #[error("{at}: {file:?} register {reg} is outside the {limit} allocatable ones")]
    OutsideFile {
        at: At,
        file: RegFile,
        reg: u8,
        limit: u8,
    },
    #[error("{at}: R{reg} cannot start a group of {width} (not a multiple of {width})")]
    UnalignedGroup { at: At, reg: u8, width: u8 },
    #[error("edge {from} -> {to} is critical: {succs} successors, {preds} predecessors")]
    CriticalEdge {
        from: BlockId,
        to: BlockId,
        succs: usize,
        preds: usize,
    },
    #[error("{block} does not end in a branch or EXIT")]
    NoTerminator { block: BlockId },
    #[error("{at}: `{instr}` ends control flow before the end of its block")]
    EarlyTerminator { at: At, instr: String },
    #[error("{at}: `{instr}` ends a block of {succs} successors")]
    SuccessorCount { at: At, instr: String, succs: usize },
    #[error("{at}: `{instr}` branches to {target}, the block's first successor is {succ}")]
    BranchTarget {
        at: At,
        instr: String,
        target: BlockId,
        succ: BlockId,
    },
    #[error("{at}: `{instr}` names an address before layout")]
    AddressTarget { at: At, instr: String },
}

impl MFunc {
    /// Checks the invariants of `form` (the module header lists them).
    pub fn verify(&self, form: Form) -> Result<(), VerifyError> {
        self.verify_edges()?;
        self.verify_terminators()?;
        match form {
            Form::Virtual => self.verify_ssa(),
            Form::Allocated => self.verify_allocated(),
        }
    }

    fn check_block(&self, block: BlockId, target: BlockId) -> Result<(), VerifyError> {
        if self.blocks.is_valid(target) {
            return Ok(());
        }
        Err(VerifyError::NoSuchBlock {
            block,
            target,
            blocks: self.blocks.len(),
        })
    }

    /// Symmetry, argument counts, critical edges and the entry block.
    fn verify_edges(&self) -> Result<(), VerifyError> {
        // Predecessor count of each block, the entry's implicit one included.
        let preds = |b: BlockId| self.blocks[b].preds.len() + usize::from(b == BlockId::ENTRY);
        for (from, blk) in self.blocks.iter() {
            for &s in blk.succs.iter().chain(&blk.preds) {
                self.check_block(from, s)?;
            }
            if blk.succ_args.len() != blk.succs.len() {
                return Err(VerifyError::ArgumentLists {
                    block: from,
                    succs: blk.succs.len(),
                    lists: blk.succ_args.len(),
                });
            }
            for &to in &blk.succs {
                let as_succ = blk.succs.iter().filter(|&&s| s == to).count();
                let as_pred = self.blocks[to].preds.iter().filter(|&&p| p == from).count();
                if as_succ != as_pred {
                    return Err(VerifyError::AsymmetricEdge {
                        from,
                        to,
                        as_succ,
                        as_pred,
                    });
                }
            }
            // A predecessor that does not list this block as a successor.
            for &p in &blk.preds {
                if !self.blocks[p].succs.contains(&from) {
                    return Err(VerifyError::AsymmetricEdge {
                        from: p,
                        to: from,
                        as_succ: 0,
                        as_pred: blk.preds.iter().filter(|&&q| q == p).count(),
                    });
                }
            }
        }
        // With the edges known to agree: their shape and arguments.
        for (from, blk) in self.blocks.iter() {
            for (&to, args) in blk.succs.iter().zip(&blk.succ_args) {
                if blk.succs.len() > 1 && preds(to) > 1 {
                    return Err(VerifyError::CriticalEdge {
                        from,
                        to,
                        succs: blk.succs.len(),
                        preds: preds(to),
                    });
                }
                let params = &self.blocks[to].params;
                if args.len() != params.len() {
                    return Err(VerifyError::Arity {
                        from,
                        to,
                        args: args.len(),
                        params: params.len(),
                    });
                }
            }
        }
        match self.blocks.get(BlockId::ENTRY) {
            Some(entry) if !entry.params.is_empty() => {
                Err(VerifyError::EntryParams(entry.params.len()))
            }
            Some(_) | None => Ok(()),
        }
    }

    /// Each block ends in its one terminator, which agrees with its
    /// successors; branch and BSSY targets name blocks.
    fn verify_terminators(&self) -> Result<(), VerifyError> {
        for (block, blk) in self.blocks.iter() {
            let Some(last) = blk.instrs.len().checked_sub(1) else {
                return Err(VerifyError::NoTerminator { block });
            };
            for (index, ins) in blk.instrs.iter().enumerate() {
                let at = At { block, index };
                let target = match ins.op {
                    Op::Bra(OpBra { target }) | Op::Bssy(OpBssy { target, .. }) => Some(target),
                    _ => None,
                };
                if let Some(t) = target {
                    let Some(t) = BlockId::from_target(t) else {
                        return Err(VerifyError::AddressTarget {
                            at,
                            instr: ins.to_string(),
                        });
                    };
                    self.check_block(block, t)?;
                }
                if index != last && ins.op.is_terminator() {
                    return Err(VerifyError::EarlyTerminator {
                        at,
                        instr: ins.to_string(),
                    });
                }
            }
            let at = At { block, index: last };
            check_terminator(at, &blk.instrs[last], &blk.succs)?;
        }
        Ok(())
    }

    /// One definition per virtual register, every read one defined, and
    /// every operand of the right file and group width.
    fn verify_ssa(&self) -> Result<(), VerifyError> {
        let count = self.vregs.len();
        let mut def: SecondaryMap<VReg, Option<Site>> = SecondaryMap::new();
        def.resize(count);
        let exists = |v: VReg, at: Site| {
            if self.vregs.is_valid(v) {
                Ok(())
            } else {
                Err(VerifyError::NoSuchVreg { at, vreg: v, count })
            }
        };
        let mut define = |v: VReg, site: Site| {
            exists(v, site)?;
            match def[v] {
                Some(first) => Err(VerifyError::Redefined {
                    vreg: v,
                    first,
                    again: site,
                }),
                None => {
                    def[v] = Some(site);
                    Ok(())
                }
            }
        };
        // Reads, checked once every definition is known.
        let mut reads: Vec<(VReg, Site)> = Vec::new();
        for (block, blk) in self.blocks.iter() {
            for &p in &blk.params {
                define(p, Site::Param(block))?;
            }
            for (index, ins) in blk.instrs.iter().enumerate() {
                let at = At { block, index };
                let mut err = None;
                let mut copy = *ins;
                copy.visit_regs(&mut |r, slot, kind, width| {
                    if err.is_some() {
                        return;
                    }
                    let res = match *r {
                        Reg::Phys(reg) => Err(VerifyError::PhysicalBeforeAllocation { at, reg }),
                        Reg::Virt(n) => self
                            .operand_members(at, VReg::from_u32(n), slot, width)
                            .map(|members| {
                                for m in members {
                                    match kind {
                                        OperandKind::Use => {
                                            reads.push((m, Site::Instr(at)));
                                        }
                                        OperandKind::Def => {
                                            if let Err(e) = define(m, Site::Instr(at)) {
                                                err = Some(e);
                                            }
                                        }
                                    }
                                }
                            }),
                    };
                    if let Err(e) = res {
                        err = Some(e);
                    }
                });
                if let Some(e) = err {
                    return Err(e);
                }
            }
        }
        for (from, blk) in self.blocks.iter() {
            for (&to, args) in blk.succs.iter().zip(&blk.succ_args) {
                for (&arg, &param) in args.iter().zip(&self.blocks[to].params) {
                    let site = Site::Edge { from, to };
                    exists(arg, site)?;
                    let (arg_file, param_file) = (self.vregs[arg], self.vregs[param]);
                    if arg_file != param_file {
                        return Err(VerifyError::ArgumentFile {
                            from,
                            to,
                            arg,
                            arg_file,
                            param,
                            param_file,
                        });
                    }
                    reads.push((arg, site));
                }
            }
        }
        for (v, at) in reads {
            if def[v].is_none() {
                return Err(VerifyError::Undefined { vreg: v, at });
            }
        }
        Ok(())
    }

    /// The members of operand `v` of `width` registers in a `slot` slot,
    /// each checked to exist and to be of the slot's file.
    fn operand_members(
        &self,
        at: At,
        v: VReg,
        slot: RegFile,
        width: u8,
    ) -> Result<Vec<VReg>, VerifyError> {
        let count = self.vregs.len();
        let members: Vec<VReg> = if width == 1 {
            vec![v]
        } else {
            let members: Vec<VReg> = self.group_members(v, width).collect();
            if let Some(listed) = self.groups.get(&v)
                && listed.len() != usize::from(width)
            {
                return Err(VerifyError::GroupWidth {
                    at,
                    key: v,
                    members: listed.len(),
                    width,
                });
            }
            members
        };
        for &m in &members {
            let Some(&declared) = self.vregs.get(m) else {
                return Err(VerifyError::NoSuchVreg {
                    at: Site::Instr(at),
                    vreg: m,
                    count,
                });
            };
            if declared != slot {
                return Err(VerifyError::WrongFile {
                    at,
                    vreg: m,
                    declared,
                    slot,
                });
            }
        }
        Ok(members)
    }

    /// Physical registers only, inside the allocatable file, groups
    /// aligned.
    fn verify_allocated(&self) -> Result<(), VerifyError> {
        for (block, blk) in self.blocks.iter() {
            for (index, ins) in blk.instrs.iter().enumerate() {
                let at = At { block, index };
                let mut err = None;
                let mut copy = *ins;
                copy.visit_regs(&mut |r, file, _, width| {
                    if err.is_some() {
                        return;
                    }
                    err = check_physical(at, *r, file, width).err();
                });
                if let Some(e) = err {
                    return Err(e);
                }
            }
        }
        Ok(())
    }
}

fn check_physical(at: At, r: Reg, file: RegFile, width: u8) -> Result<(), VerifyError> {
    let reg = match r {
        Reg::Virt(v) => {
            return Err(VerifyError::VirtualAfterAllocation {
                at,
                vreg: VReg::from_u32(v),
            });
        }
        Reg::Phys(reg) => reg,
    };
    let limit = match file {
        RegFile::Gpr => NUM_GPRS,
        RegFile::Pred => NUM_PREDS,
    };
    if u16::from(reg) + u16::from(width) > u16::from(limit) {
        return Err(VerifyError::OutsideFile {
            at,
            file,
            reg,
            limit,
        });
    }
    if reg % width != 0 {
        return Err(VerifyError::UnalignedGroup { at, reg, width });
    }
    Ok(())
}

/// The last instruction of a block against its successors.
fn check_terminator(at: At, ins: &Instr, succs: &[BlockId]) -> Result<(), VerifyError> {
    let wrong_count = || VerifyError::SuccessorCount {
        at,
        instr: ins.to_string(),
        succs: succs.len(),
    };
    match ins.op {
        Op::Exit if ins.guard.is_true() && succs.is_empty() => Ok(()),
        Op::Exit => Err(wrong_count()),
        Op::Bra(OpBra { target }) => {
            let expected = if ins.guard.is_true() { 1 } else { 2 };
            if succs.len() != expected {
                return Err(wrong_count());
            }
            match BlockId::from_target(target) {
                Some(t) if t == succs[0] => Ok(()),
                Some(t) => Err(VerifyError::BranchTarget {
                    at,
                    instr: ins.to_string(),
                    target: t,
                    succ: succs[0],
                }),
                None => Err(VerifyError::AddressTarget {
                    at,
                    instr: ins.to_string(),
                }),
            }
        }
        _ => Err(VerifyError::NoTerminator { block: at.block }),
    }
}
