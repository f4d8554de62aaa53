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
//! The fixed registers are the lowest eight, inside every budget tried.
//! The price is moves around group operands that a tuple-aware allocator
//! would avoid.

use crate::error::BackendError;
use crate::isa::{
    Dst, Instr, IntCmp, Op, OpISetP, OpMov, OperandKind, PredCombine, PredSrc, Reg, RegFile, Src,
};
use crate::mir::MFunc;
use regalloc2::{
    Allocation, Block, Edit, Function, Inst, InstRange, MachineEnv, Operand, PReg, PRegSet,
    RegClass, RegallocOptions, VReg,
};

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
    operands: Vec<Vec<Operand>>,
}

impl<'a> Flat<'a> {
    fn new(f: &'a MFunc) -> Flat<'a> {
        let vreg = |v: u32| VReg::new(v as usize, class(f.vregs[v as usize]));
        let mut flat = Flat {
            f,
            insts: Vec::new(),
            block_ranges: Vec::new(),
            succs: Vec::new(),
            preds: Vec::new(),
            params: Vec::new(),
            args: Vec::new(),
            operands: Vec::new(),
        };
        for b in &f.blocks {
            let start = flat.insts.len();
            for ins in &b.instrs {
                let mut ops = Vec::new();
                // The next free fixed register for use and def groups.
                let (mut next_use, mut next_def) = (0u8, 0u8);
                // visit_regs needs &mut; operands are collected from a copy.
                let mut copy = *ins;
                copy.visit_regs(&mut |r, file, kind, width| {
                    let Reg::Virt(v) = *r else { return };
                    if width == 1 {
                        let vr = VReg::new(v as usize, class(file));
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
                        let vr = VReg::new(m as usize, class(file));
                        let preg = PReg::new(usize::from(base + i), class(file));
                        ops.push(match kind {
                            OperandKind::Use => Operand::reg_fixed_use(vr, preg),
                            OperandKind::Def => Operand::reg_fixed_def(vr, preg),
                        });
                    }
                });
                flat.operands.push(ops);
                flat.insts.push(ins);
            }
            flat.block_ranges.push(InstRange::new(
                Inst::new(start),
                Inst::new(flat.insts.len()),
            ));
            flat.succs
                .push(b.succs.iter().map(|&s| Block::new(s)).collect());
            flat.preds
                .push(b.preds.iter().map(|&p| Block::new(p)).collect());
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
        &self.operands[insn.index()]
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

/// Register budgets tried in turn: regalloc2 spreads values over all the
/// registers it is given, so a small budget first keeps the count (and so
/// the occupancy cost reported in the header) low.
const GPR_BUDGETS: [u8; 4] = [8, 16, 32, NUM_GPRS];

fn machine_env(gprs_allowed: u8) -> MachineEnv {
    let mut gprs = PRegSet::empty();
    for n in 0..gprs_allowed {
        gprs.add(PReg::new(usize::from(n), RegClass::Int));
    }
    let mut preds = PRegSet::empty();
    for n in 0..NUM_PREDS {
        preds.add(PReg::new(usize::from(n), RegClass::Float));
    }
    MachineEnv {
        preferred_regs_by_class: [gprs, preds, PRegSet::empty()],
        non_preferred_regs_by_class: [PRegSet::empty(); 3],
        scratch_by_class: [None; 3],
        fixed_stack_slots: Vec::new(),
    }
}

/// A register-to-register copy in the ISA: MOV for GPRs; for predicates
/// `(0 == 0) AND src`.
fn copy(file: RegClass, from: u8, to: u8) -> Instr {
    match file {
        RegClass::Float => Instr::new(Op::ISetP(OpISetP {
            dst: Dst::Reg(Reg::Phys(to)),
            cmp: IntCmp::Eq,
            signed: false,
            combine: PredCombine::And,
            srcs: [Src::ZERO, Src::ZERO],
            accum: PredSrc::reg(Reg::Phys(from)),
        })),
        _ => Instr::new(Op::Mov(OpMov {
            dst: Dst::Reg(Reg::Phys(to)),
            src: Src::reg(Reg::Phys(from)),
        })),
    }
}

/// Allocates registers and rewrites `f` in place with physical registers
/// and the moves regalloc2 asks for. Returns the number of GPRs used.
pub fn assign_regs(f: &mut MFunc) -> Result<u32, BackendError> {
    let flat = Flat::new(f);
    let opts = RegallocOptions {
        validate_ssa: cfg!(debug_assertions),
        ..RegallocOptions::default()
    };
    let mut result = None;
    for budget in GPR_BUDGETS {
        let env = machine_env(budget);
        // Fixed group registers can crowd a small budget: try the next.
        let out = match regalloc2::run(&flat, &env, &opts) {
            Ok(out) => out,
            Err(_) if budget < NUM_GPRS => continue,
            Err(e) => return Err(BackendError::RegAlloc(format!("{e:?}"))),
        };
        if cfg!(debug_assertions) {
            let mut checker = regalloc2::checker::Checker::new(&flat, &env);
            checker.prepare(&out);
            checker
                .run()
                .map_err(|e| BackendError::RegAlloc(format!("checker: {e:?}")))?;
        }
        let spills = out.num_spillslots;
        result = Some(out);
        if spills == 0 {
            break;
        }
    }
    drop(flat);
    let out = result.expect("at least one budget was tried");
    if out.num_spillslots > 0 {
        return Err(BackendError::Spill(out.num_spillslots));
    }
    let mut edits = out.edits.iter().peekable();
    let mut inst_index = 0usize;
    let mut max_gpr: Option<u8> = None;
    for block in &mut f.blocks {
        let old = std::mem::take(&mut block.instrs);
        for mut ins in old {
            let here = Inst::new(inst_index);
            // Moves before this instruction.
            while let Some((pos, Edit::Move { from, to })) = edits.peek().map(|(p, e)| (*p, e)) {
                if pos.inst() != here || pos.pos() != regalloc2::InstPosition::Before {
                    break;
                }
                block.instrs.push(edit_move(*from, *to)?);
                edits.next();
            }
            let allocs = out.inst_allocs(here);
            let mut i = 0;
            ins.visit_regs(&mut |r, file, _, width| {
                if let Reg::Virt(_) = *r {
                    // A group's members sit at consecutive fixed registers:
                    // the operand names the first.
                    let preg = allocs[i].as_reg().expect("no spill slots were used");
                    i += usize::from(width);
                    let n = preg.hw_enc() as u8;
                    if file == RegFile::Gpr {
                        let last = n + width - 1;
                        max_gpr = Some(max_gpr.map_or(last, |m| m.max(last)));
                    }
                    *r = Reg::Phys(n);
                }
            });
            let is_term = ins.op.is_terminator();
            block.instrs.push(ins);
            // Moves after a non-branch instruction.
            while let Some((pos, Edit::Move { from, to })) = edits.peek().map(|(p, e)| (*p, e)) {
                if pos.inst() != here || pos.pos() != regalloc2::InstPosition::After {
                    break;
                }
                debug_assert!(!is_term, "regalloc2 places no moves after a branch");
                block.instrs.push(edit_move(*from, *to)?);
                edits.next();
            }
            inst_index += 1;
        }
    }
    Ok(max_gpr.map_or(0, |m| u32::from(m) + 1))
}

fn edit_move(from: Allocation, to: Allocation) -> Result<Instr, BackendError> {
    match (from.as_reg(), to.as_reg()) {
        (Some(a), Some(b)) => Ok(copy(a.class(), a.hw_enc() as u8, b.hw_enc() as u8)),
        _ => Err(BackendError::Spill(1)),
    }
}
