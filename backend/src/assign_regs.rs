//! Register allocation with regalloc2. The machine IR is flattened into the
//! arrays regalloc2's `Function` trait reads; operands are collected and the
//! allocations written back through the one operand visitor
//! (`Instr::visit_regs`), so their order cannot drift.
//!
//! The register file: GPRs R0..R63 in regalloc2's Int class (regalloc2
//! allows 64 registers per class), predicates P0..P6 in its Float class.
//! RZ and PT are operand kinds, never allocated.
//!
//! Register groups (64-bit addresses and values in an aligned pair, 128-bit
//! ones in an aligned quad): regalloc2 allocates single registers only, so
//! a group is `width` virtual registers (consecutive ones, or any listed in
//! `MFunc::groups`; each an ordinary 32-bit value elsewhere), and
//! at the instruction that needs the group every member gets a
//! fixed-register constraint: the instruction's first group of each kind
//! (uses, defs) at R0, the next at the following aligned register (a
//! pair at R0:R1 and a quad at R4..R7, say). regalloc2 then inserts the
//! moves that bring the members there (or defines them there), and its
//! checker verifies the result like any other constraint. Uses are read
//! early and defs written late, so use and def groups may share registers.
//! The fixed registers are the lowest eight, inside every budget (at
//! least one allocation unit of 8).
//! The price is moves around group operands that a tuple-aware allocator
//! would avoid.

use crate::error::BackendError;
use crate::isa::{Instr, Op, OperandKind, Reg, RegFile};
use crate::mir::{self, MFunc};
use crate::reg_pressure::max_live;
use crate::spill::{SpillFrame, spills_class};
use cranelift_entity::EntityRef;
use regalloc2::{
    Block, Ctx, Edit, Function, Inst, InstPosition, InstRange, MachineEnv, Operand, Output, PReg,
    PRegSet, RegClass, RegallocOptions, VReg,
};
use std::cell::RefCell;

/// Allocatable GPRs.
pub const NUM_GPRS: u8 = 64;
/// Allocatable predicates (P0..P6; PT is the constant true).
pub const NUM_PREDS: u8 = 7;

fn class(file: RegFile) -> RegClass {
    match file {
        RegFile::Gpr => RegClass::Int,
        RegFile::Pred => RegClass::Float,
    }
}

/// The flattened view regalloc2 reads.
struct Flat<'a> {
    f: &'a MFunc,
    insts: Vec<&'a Instr>,
    block_ranges: Vec<InstRange>,
    succs: Vec<Vec<Block>>,
    preds: Vec<Vec<Block>>,
    params: Vec<Vec<VReg>>,
    args: Vec<Vec<Vec<VReg>>>,
    /// Every instruction's operands, one after another: instruction `i`'s
    /// are `operands[operand_start[i]..operand_start[i + 1]]` (one list,
    /// not one allocation per instruction).
    operands: Vec<Operand>,
    operand_start: Vec<usize>,
}

impl<'a> Flat<'a> {
    fn new(f: &'a MFunc) -> Flat<'a> {
        let vreg = |v: mir::VReg| VReg::new(v.index(), class(f.vregs[v]));
        let (blocks, insts) = (
            f.blocks.len(),
            f.blocks.values().map(|b| b.instrs.len()).sum(),
        );
        let mut operand_start = Vec::with_capacity(insts + 1);
        operand_start.push(0);
        let mut flat = Flat {
            f,
            insts: Vec::with_capacity(insts),
            block_ranges: Vec::with_capacity(blocks),
            succs: Vec::with_capacity(blocks),
            preds: Vec::with_capacity(blocks),
            params: Vec::with_capacity(blocks),
            args: Vec::with_capacity(blocks),
            // Most instructions have three or four register operands.
            operands: Vec::with_capacity(insts * 4),
            operand_start,
        };
        for b in f.blocks.values() {
            let start = flat.insts.len();
            for ins in &b.instrs {
                let ops = &mut flat.operands;
                // The next free fixed register for use and def groups.
                let (mut next_use, mut next_def) = (0u8, 0u8);
                // visit_regs needs &mut; operands are collected from a copy.
                let mut copy = *ins;
                copy.visit_regs(&mut |r, file, kind, width| {
                    let Some(v) = mir::VReg::from_reg(*r) else {
                        return;
                    };
                    if width == 1 {
                        let vr = VReg::new(v.index(), class(file));
                        ops.push(match kind {
                            OperandKind::Use => Operand::reg_use(vr),
                            OperandKind::Def => Operand::reg_def(vr),
                        });
                        return;
                    }
                    let next = match kind {
                        OperandKind::Use => &mut next_use,
                        OperandKind::Def => &mut next_def,
                    };
                    let base = next.div_ceil(width) * width;
                    *next = base + width;
                    for (i, m) in (0..width).zip(f.group_members(v, width)) {
                        let vr = VReg::new(m.index(), class(file));
                        let preg = PReg::new(usize::from(base + i), class(file));
                        ops.push(match kind {
                            OperandKind::Use => Operand::reg_fixed_use(vr, preg),
                            OperandKind::Def => Operand::reg_fixed_def(vr, preg),
                        });
                    }
                });
                flat.operand_start.push(flat.operands.len());
                flat.insts.push(ins);
            }
            flat.block_ranges.push(InstRange::new(
                Inst::new(start),
                Inst::new(flat.insts.len()),
            ));
            flat.succs
                .push(b.succs.iter().map(|&s| Block::new(s.index())).collect());
            flat.preds
                .push(b.preds.iter().map(|&p| Block::new(p.index())).collect());
            flat.params
                .push(b.params.iter().map(|&p| vreg(p)).collect());
            flat.args.push(
                b.succ_args
                    .iter()
                    .map(|a| a.iter().map(|&v| vreg(v)).collect())
                    .collect(),
            );
        }
        flat
    }
}

impl Function for Flat<'_> {
    fn num_insts(&self) -> usize {
        self.insts.len()
    }
    fn num_blocks(&self) -> usize {
        self.block_ranges.len()
    }
    fn entry_block(&self) -> Block {
        Block::new(0)
    }
    fn block_insns(&self, block: Block) -> InstRange {
        self.block_ranges[block.index()]
    }
    fn block_succs(&self, block: Block) -> &[Block] {
        &self.succs[block.index()]
    }
    fn block_preds(&self, block: Block) -> &[Block] {
        &self.preds[block.index()]
    }
    fn block_params(&self, block: Block) -> &[VReg] {
        &self.params[block.index()]
    }
    fn is_ret(&self, insn: Inst) -> bool {
        matches!(self.insts[insn.index()].op, Op::Exit)
    }
    fn is_branch(&self, insn: Inst) -> bool {
        self.insts[insn.index()].op.is_branch()
    }
    fn branch_blockparams(&self, block: Block, _insn: Inst, succ_idx: usize) -> &[VReg] {
        &self.args[block.index()][succ_idx]
    }
    fn inst_operands(&self, insn: Inst) -> &[Operand] {
        &self.operands[self.operand_start[insn.index()]..self.operand_start[insn.index() + 1]]
    }
    fn inst_clobbers(&self, _insn: Inst) -> PRegSet {
        PRegSet::empty()
    }
    fn num_vregs(&self) -> usize {
        self.f.vregs.len()
    }
    fn spillslot_size(&self, _regclass: RegClass) -> usize {
        1
    }
}

/// GPRs are granted to a warp in units of 256 registers, 8 per thread
/// (the CUDA Occupancy Calculator's register allocation unit for compute
/// capability 7.x to 9.0): a register count between two multiples of 8
/// costs the occupancy of the next multiple, so budgets are multiples of 8.
const GPR_GRANULE: u8 = 8;

/// The first budget to try: the register pressure rounded up to the
/// allocation unit. regalloc2 spreads values over every register it is
/// given, so the budget, not the pressure, sets the register count; and
/// no budget below the pressure can avoid spilling.
fn first_budget(max_live: usize) -> u8 {
    let units = max_live.div_ceil(usize::from(GPR_GRANULE)).max(1);
    (units * usize::from(GPR_GRANULE)).min(usize::from(NUM_GPRS)) as u8
}

/// The budget after one where regalloc2 spilled anyway (it splits values
/// around the fixed group registers and may send a piece to the stack
/// with registers to spare): the next of 16, 32 and 64, so that no shader
/// takes more attempts or more registers than stepping through 8, 16, 32
/// and 64 from the start.
fn next_budget(budget: u8) -> u8 {
    [16, 32, NUM_GPRS]
        .into_iter()
        .find(|&b| b > budget)
        .unwrap_or(NUM_GPRS)
}

/// The registers group operands are fixed to (a quad's R4..R7 is the
/// highest any instruction asks for).
const GROUP_GPRS: u8 = 8;

fn machine_env(gprs_allowed: u8) -> MachineEnv {
    // Values are placed above the group registers first: a long-lived value
    // in R0..R7 is split and moved away at every group operand in its range.
    let (mut gprs, mut group) = (PRegSet::empty(), PRegSet::empty());
    for n in 0..gprs_allowed {
        let set = if n < GROUP_GPRS && gprs_allowed > GROUP_GPRS {
            &mut group
        } else {
            &mut gprs
        };
        set.add(PReg::new(usize::from(n), RegClass::Int));
    }
    let mut preds = PRegSet::empty();
    for n in 0..NUM_PREDS {
        preds.add(PReg::new(usize::from(n), RegClass::Float));
    }
    MachineEnv {
        preferred_regs_by_class: [gprs, preds, PRegSet::empty()],
        non_preferred_regs_by_class: [group, PRegSet::empty(), PRegSet::empty()],
        scratch_by_class: [None; 3],
        fixed_stack_slots: Vec::new(),
    }
}

/// The result of allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Assigned {
    /// GPRs the code touches (R0 up to the highest one used).
    pub num_gprs: u32,
    /// Local memory per invocation: the local arrays and the spill frame.
    pub local_bytes: u32,
    /// The spill frame (no slots when nothing spilled).
    pub frame: SpillFrame,
}

/// Allocates registers and rewrites `f` in place with physical registers
/// and the moves, spills and reloads regalloc2 asks for. `local_bytes` is
/// the local memory the shader's own arrays take; the spill frame follows.
pub fn assign_regs(f: &mut MFunc, local_bytes: u32) -> Result<Assigned, BackendError> {
    let flat = Flat::new(f);
    let (out, pred_scratch) = allocate(&flat)?;
    drop(flat);
    let frame = SpillFrame::new(local_bytes, out.num_spillslots, pred_scratch)?;
    rewrite(f, &out, &frame)?;
    let num_gprs = gprs_used(f).max(pred_scratch.map_or(0, |s| u32::from(s) + 1));
    Ok(Assigned {
        num_gprs,
        local_bytes: frame.local_bytes(local_bytes),
        frame,
    })
}

/// Runs regalloc2, once unless it spills below the full register file; returns its output and, when
/// predicates spill, the GPR their spills and reloads go through.
fn allocate(flat: &Flat<'_>) -> Result<(Output, Option<u8>), BackendError> {
    let spills = |out: &Output, class| {
        out.edits.iter().any(|(_, e)| match *e {
            Edit::Move { from, to } => spills_class(from, to, class),
        })
    };
    let mut budget = first_budget(max_live(flat, RegClass::Int));
    let out = loop {
        // Only the full file may spill; below it, a spill or fixed group
        // registers that do not fit mean a larger budget.
        match run(flat, budget) {
            Ok(out) if budget == NUM_GPRS || !spills(&out, RegClass::Int) => break out,
            Err(e @ Failed::Checker(_)) => return Err(e.into()),
            Err(e) if budget == NUM_GPRS => return Err(e.into()),
            _ => budget = next_budget(budget),
        }
    };
    if !spills(&out, RegClass::Float) {
        return Ok((out, None));
    }
    // Predicates reach local memory through a GPR that holds no value
    // anywhere: the lowest one the allocation left unused, or else the
    // last, set aside in a second run.
    let used = gprs_in(&out);
    if used != u64::MAX {
        return Ok((out, Some((!used).trailing_zeros() as u8)));
    }
    let scratch = NUM_GPRS - 1;
    let out = run(flat, scratch).map_err(BackendError::from)?;
    Ok((out, Some(scratch)))
}

/// The GPRs an allocation puts values in, as a bit mask.
fn gprs_in(out: &Output) -> u64 {
    let edits = out.edits.iter().flat_map(|(_, e)| match *e {
        Edit::Move { from, to } => [from, to],
    });
    out.allocs
        .iter()
        .copied()
        .chain(edits)
        .filter_map(|a| a.as_reg())
        .filter(|r| r.class() == RegClass::Int)
        .fold(0u64, |m, r| m | 1 << r.hw_enc())
}

/// Why one allocation attempt failed.
enum Failed {
    Alloc(regalloc2::RegAllocError),
    Checker(regalloc2::checker::CheckerErrors),
}

impl From<Failed> for BackendError {
    fn from(e: Failed) -> BackendError {
        match e {
            Failed::Alloc(e) => BackendError::RegAlloc(format!("{e:?}")),
            Failed::Checker(e) => BackendError::RegAlloc(format!("checker: {e:?}")),
        }
    }
}

thread_local! {
    /// regalloc2's working memory, kept between runs on a thread: it
    /// clears and refills it for each function, so reusing it saves the
    /// allocation and freeing of its many tables (a tenth of a small
    /// shader's compile) and cannot change the result.
    static CTX: RefCell<Ctx> = RefCell::new(Ctx::default());
}

/// Larger functions get a fresh `Ctx`, dropped after the run: the kept one
/// stays as large as the largest function it served, and for a function
/// this long its allocation is a negligible part of the compile.
const KEEP_CTX_MAX_INSTRS: usize = 4096;

/// One regalloc2 run with `gprs` registers, checked in debug builds.
fn run(flat: &Flat<'_>, gprs: u8) -> Result<Output, Failed> {
    let env = machine_env(gprs);
    let opts = RegallocOptions {
        validate_ssa: cfg!(debug_assertions),
        ..RegallocOptions::default()
    };
    let alloc = |ctx: &mut Ctx| {
        regalloc2::run_with_ctx(flat, &env, &opts, ctx).map_err(Failed::Alloc)?;
        Ok(std::mem::take(&mut ctx.output))
    };
    let out = if flat.num_insts() <= KEEP_CTX_MAX_INSTRS {
        CTX.with_borrow_mut(alloc)?
    } else {
        alloc(&mut Ctx::default())?
    };
    if cfg!(debug_assertions) {
        let mut checker = regalloc2::checker::Checker::new(flat, &env);
        checker.prepare(&out);
        checker.run().map_err(Failed::Checker)?;
    }
    Ok(out)
}

/// Writes the allocation into `f`: physical registers in every operand
/// (through the shared operand visitor) and regalloc2's edits lowered in
/// place.
fn rewrite(f: &mut MFunc, out: &Output, frame: &SpillFrame) -> Result<(), BackendError> {
    let mut edits = out.edits.iter().peekable();
    // The edits at `here`/`pos`, lowered, in regalloc2's order.
    let mut take = |here: Inst, pos: InstPosition, to: &mut Vec<Instr>| {
        while let Some((p, Edit::Move { from, to: dst })) = edits.peek().map(|(p, e)| (*p, e)) {
            if p.inst() != here || p.pos() != pos {
                break;
            }
            to.extend(frame.lower_move(*from, *dst)?);
            edits.next();
        }
        Ok::<(), BackendError>(())
    };
    let mut inst_index = 0usize;
    for block in f.blocks.values_mut() {
        // Room for the block's instructions and a few moves.
        let room = block.instrs.len() + block.instrs.len() / 4 + 4;
        let old = std::mem::replace(&mut block.instrs, Vec::with_capacity(room));
        for mut ins in old {
            let here = Inst::new(inst_index);
            take(here, InstPosition::Before, &mut block.instrs)?;
            let allocs = out.inst_allocs(here);
            let mut i = 0;
            let mut on_stack = None;
            ins.visit_regs(&mut |r, _, _, width| {
                if let Some(v) = mir::VReg::from_reg(*r) {
                    // A group's members sit at consecutive fixed registers:
                    // the operand names the first.
                    match allocs[i].as_reg() {
                        Some(preg) => *r = Reg::Phys(preg.hw_enc() as u8),
                        None => on_stack = Some(v),
                    }
                    i += usize::from(width);
                }
            });
            if let Some(v) = on_stack {
                // Every operand has a register constraint.
                return Err(BackendError::RegAlloc(format!(
                    "{v} was given a stack slot as an operand of `{ins}`"
                )));
            }
            let is_term = ins.op.is_terminator();
            block.instrs.push(ins);
            let len = block.instrs.len();
            take(here, InstPosition::After, &mut block.instrs)?;
            if is_term && block.instrs.len() != len {
                // regalloc2 puts a branch's moves before it.
                return Err(BackendError::RegAlloc(format!(
                    "a move after `{}`, the end of a block",
                    block.instrs[len - 1]
                )));
            }
            inst_index += 1;
        }
    }
    Ok(())
}

/// GPRs from R0 to the highest one any instruction names (allocated
/// values, copies, spills and reloads alike).
fn gprs_used(f: &mut MFunc) -> u32 {
    let mut count = 0u32;
    for ins in f.blocks.values_mut().flat_map(|b| b.instrs.iter_mut()) {
        ins.visit_regs(&mut |r, file, _, width| {
            if let (Reg::Phys(n), RegFile::Gpr) = (*r, file) {
                count = count.max(u32::from(n) + u32::from(width));
            }
        });
    }
    count
}
