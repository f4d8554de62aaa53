//! Register pressure: the most values of one register class live at once
//! anywhere in a function, read from the same `regalloc2::Function` view
//! the allocator gets. No allocation without spills can use fewer
//! registers, so `assign_regs` starts its register budget here instead of
//! trying budgets one after another.
//!
//! Liveness is computed one value at a time on the SSA form (each value is
//! live from its definition to its uses; a use in another block makes it
//! live into that block and, walking predecessors, out of every block on
//! the way back to the definition), which costs time in proportion to the
//! live sets themselves rather than blocks × values. Pressure follows
//! regalloc2's operand positions: uses are read early and definitions
//! written late, so a value read for the last time and a value defined by
//! the same instruction may share a register.

use regalloc2::{Block, Function, OperandKind, RegClass};

/// The largest number of `class` values live at one point of `f`.
pub fn max_live(f: &impl Function, class: RegClass) -> usize {
    let live_out = live_out(f, class);
    // `live[v] == b + 1` while walking block `b`: nothing to clear between
    // blocks.
    let mut live = vec![0u32; f.num_vregs()];
    let mut max = 0;
    for (b, outs) in live_out.iter().enumerate() {
        let block = Block::new(b);
        let mark = b as u32 + 1;
        let mut count = 0usize;
        let add = |v: usize, live: &mut [u32], count: &mut usize| {
            if live[v] != mark {
                live[v] = mark;
                *count += 1;
            }
        };
        for &v in outs {
            add(v as usize, &mut live, &mut count);
        }
        // Branch arguments are read by the block's last instruction.
        for v in branch_args(f, block).filter(|v| v.class() == class) {
            add(v.vreg(), &mut live, &mut count);
        }
        max = max.max(count);
        for inst in f.block_insns(block).iter().rev() {
            let ops = f.inst_operands(inst);
            let of_class = || ops.iter().filter(|o| o.class() == class);
            // After the instruction: what stays live, and every result.
            let mut late = count;
            for o in of_class().filter(|o| o.kind() == OperandKind::Def) {
                let v = o.vreg().vreg();
                if live[v] == mark {
                    live[v] = 0;
                    count -= 1;
                } else {
                    // Written, never read: it still takes a register.
                    late += 1;
                }
            }
            // Before it: what stays live, and every source.
            for o in of_class().filter(|o| o.kind() == OperandKind::Use) {
                add(o.vreg().vreg(), &mut live, &mut count);
            }
            max = max.max(late).max(count);
        }
    }
    max
}

/// The values `block` passes to its successors.
fn branch_args(f: &impl Function, block: Block) -> impl Iterator<Item = regalloc2::VReg> + '_ {
    let last = f.block_insns(block).last();
    (0..f.block_succs(block).len())
        .flat_map(move |k| f.branch_blockparams(block, last, k).iter().copied())
}

/// The `class` values live out of each block.
fn live_out(f: &impl Function, class: RegClass) -> Vec<Vec<u32>> {
    let blocks = f.num_blocks();
    // The block that defines each value (block parameters included).
    let mut def_block = vec![usize::MAX; f.num_vregs()];
    for b in 0..blocks {
        let block = Block::new(b);
        for p in f.block_params(block) {
            def_block[p.vreg()] = b;
        }
        for inst in f.block_insns(block).iter() {
            for o in f.inst_operands(inst) {
                if o.kind() == OperandKind::Def {
                    def_block[o.vreg().vreg()] = b;
                }
            }
        }
    }
    // Uses in a block other than the definition's: (value, block), so
    // that each value's uses come together.
    let mut exposed: Vec<(u32, u32)> = Vec::new();
    for b in 0..blocks {
        let block = Block::new(b);
        let uses = f
            .block_insns(block)
            .iter()
            .flat_map(|i| f.inst_operands(i))
            .filter(|o| o.kind() == OperandKind::Use)
            .map(|o| o.vreg())
            .chain(branch_args(f, block));
        for v in uses.filter(|v| v.class() == class) {
            if def_block[v.vreg()] != b {
                exposed.push((v.vreg() as u32, b as u32));
            }
        }
    }
    exposed.sort_unstable();
    exposed.dedup();

    let mut out = vec![Vec::new(); blocks];
    // The last value marked live into / out of each block: `exposed` is
    // sorted by value, so one mark per block suffices.
    let mut live_in = vec![u32::MAX; blocks];
    let mut live_out = vec![u32::MAX; blocks];
    let mut stack = Vec::new();
    for &(v, b) in &exposed {
        if live_in[b as usize] == v {
            continue;
        }
        live_in[b as usize] = v;
        stack.push(b as usize);
        while let Some(b) = stack.pop() {
            for p in f.block_preds(Block::new(b)) {
                let p = p.index();
                if live_out[p] != v {
                    live_out[p] = v;
                    out[p].push(v);
                }
                if def_block[v as usize] != p && live_in[p] != v {
                    live_in[p] = v;
                    stack.push(p);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use regalloc2::{Inst, InstRange, Operand, PRegSet, VReg};

    /// A function written out directly: per block its instructions'
    /// operands, successors, parameters and branch arguments.
    #[derive(Default)]
    struct Func {
        insts: Vec<Vec<Operand>>,
        ranges: Vec<InstRange>,
        succs: Vec<Vec<Block>>,
        preds: Vec<Vec<Block>>,
        params: Vec<Vec<VReg>>,
        args: Vec<Vec<Vec<VReg>>>,
        vregs: usize,
    }

    fn gpr(v: usize) -> VReg {
        VReg::new(v, RegClass::Int)
    }
    fn pred(v: usize) -> VReg {
        VReg::new(v, RegClass::Float)
    }
    fn def(v: VReg) -> Operand {
        Operand::reg_def(v)
    }
    fn use_(v: VReg) -> Operand {
        Operand::reg_use(v)
    }

    impl Func {
        /// Adds a block of `insts` (a branch is appended) with `params`.
        fn block(&mut self, params: Vec<VReg>, mut insts: Vec<Vec<Operand>>) -> usize {
            insts.push(Vec::new());
            let start = self.insts.len();
            self.insts.extend(insts);
            self.ranges.push(InstRange::new(
                Inst::new(start),
                Inst::new(self.insts.len()),
            ));
            self.vregs = self
                .vregs
                .max(params.iter().map(|v| v.vreg() + 1).max().unwrap_or(0));
            for o in self.insts.iter().flatten() {
                self.vregs = self.vregs.max(o.vreg().vreg() + 1);
            }
            self.params.push(params);
            self.succs.push(Vec::new());
            self.preds.push(Vec::new());
            self.args.push(Vec::new());
            self.ranges.len() - 1
        }
        fn edge(&mut self, from: usize, to: usize, args: Vec<VReg>) {
            self.succs[from].push(Block::new(to));
            self.preds[to].push(Block::new(from));
            self.args[from].push(args);
        }
    }

    impl Function for Func {
        fn num_insts(&self) -> usize {
            self.insts.len()
        }
        fn num_blocks(&self) -> usize {
            self.ranges.len()
        }
        fn entry_block(&self) -> Block {
            Block::new(0)
        }
        fn block_insns(&self, block: Block) -> InstRange {
            self.ranges[block.index()]
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
        fn is_ret(&self, _: Inst) -> bool {
            false
        }
        fn is_branch(&self, _: Inst) -> bool {
            true
        }
        fn branch_blockparams(&self, block: Block, _: Inst, succ: usize) -> &[VReg] {
            &self.args[block.index()][succ]
        }
        fn inst_operands(&self, insn: Inst) -> &[Operand] {
            &self.insts[insn.index()]
        }
        fn inst_clobbers(&self, _: Inst) -> PRegSet {
            PRegSet::empty()
        }
        fn num_vregs(&self) -> usize {
            self.vregs
        }
        fn spillslot_size(&self, _: RegClass) -> usize {
            1
        }
    }

    #[test]
    fn a_last_use_and_a_result_share_a_register() {
        // v0 = ; v1 = ; v2 = v0 + v1 ; v3 = v2 + v2 (read by nothing)
        let mut f = Func::default();
        f.block(
            vec![],
            vec![
                vec![def(gpr(0))],
                vec![def(gpr(1))],
                vec![use_(gpr(0)), use_(gpr(1)), def(gpr(2))],
                vec![use_(gpr(2)), def(gpr(3))],
            ],
        );
        assert_eq!(max_live(&f, RegClass::Int), 2);
    }

    #[test]
    fn values_live_across_blocks_and_a_loop_count_everywhere_on_the_way() {
        // entry: v0..v3 defined; loop header(v4) <- entry(v0), latch(v5);
        // latch reads v1 and v4; the exit reads v2 and v3, so four values
        // are live through the loop besides its own.
        let mut f = Func::default();
        let entry = f.block(vec![], (0..4).map(|v| vec![def(gpr(v))]).collect());
        let header = f.block(vec![gpr(4)], vec![]);
        let latch = f.block(vec![], vec![vec![use_(gpr(1)), use_(gpr(4)), def(gpr(5))]]);
        let exit = f.block(vec![], vec![vec![use_(gpr(2)), use_(gpr(3))]]);
        f.edge(entry, header, vec![gpr(0)]);
        f.edge(header, latch, vec![]);
        f.edge(header, exit, vec![]);
        f.edge(latch, header, vec![gpr(5)]);
        // In the latch: v1, v2, v3 and v4 before the add, v1..v3 and v5 after.
        assert_eq!(max_live(&f, RegClass::Int), 4);
    }

    #[test]
    fn classes_are_counted_apart() {
        let mut f = Func::default();
        f.block(
            vec![],
            vec![
                vec![def(pred(0))],
                vec![def(pred(1))],
                vec![def(gpr(2))],
                vec![use_(pred(0)), use_(pred(1)), use_(gpr(2))],
            ],
        );
        assert_eq!(max_live(&f, RegClass::Float), 2);
        assert_eq!(max_live(&f, RegClass::Int), 1);
    }

    #[test]
    fn an_unread_result_still_takes_a_register() {
        let mut f = Func::default();
        f.block(
            vec![],
            vec![
                vec![def(gpr(0))],
                vec![def(gpr(1))],
                vec![def(gpr(2))],
                vec![use_(gpr(0)), use_(gpr(1))],
            ],
        );
        // v0 and v1 are live while v2 is written.
        assert_eq!(max_live(&f, RegClass::Int), 3);
    }
}
