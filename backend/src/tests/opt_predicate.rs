//! If-conversion (`opt_predicate`) on hand-built MIR. Blocks are written in
//! the assembler's syntax with physical registers, lifted to virtual ones
//! (Rn is %rn, Pn is %p(100+n)); a branch to address 0x10·k names block k.
//! Each case gives the blocks (with their parameters) and the edges (with
//! the values they pass; a block's first edge is its taken branch), and
//! compares the function printed after the pass.

use crate::asm::assemble;
use crate::isa::{Op, OpBra, OpBssy, Reg, RegFile, Target};
use crate::mir::{BlockId, MFunc, VReg};
use crate::opt_predicate::predicate;

const PRED_BASE: u32 = 100;

/// The function of `blocks` (parameters, code) and `edges` (from, to,
/// arguments).
fn func(blocks: &[(&[u32], &str)], edges: &[(usize, usize, &[u32])]) -> MFunc {
    let mut f = MFunc::default();
    for _ in 0..PRED_BASE {
        f.new_vreg(RegFile::Gpr);
    }
    for _ in 0..8 {
        f.new_vreg(RegFile::Pred);
    }
    for (params, text) in blocks {
        let b = f.new_block();
        // The assembler takes one instruction a line (control bits may
        // follow the `;`); the cases put short blocks on one line.
        let lines = text.replace("; ", ";\n");
        let mut instrs = assemble(&lines).expect("test MIR assembles").instrs;
        for ins in &mut instrs {
            ins.visit_regs(&mut |r, file, _, _| {
                if let Reg::Phys(n) = *r {
                    *r = Reg::Virt(match file {
                        RegFile::Gpr => u32::from(n),
                        RegFile::Pred => PRED_BASE + u32::from(n),
                    });
                }
            });
            if let Op::Bra(OpBra { target }) | Op::Bssy(OpBssy { target, .. }) = &mut ins.op
                && let Target::Addr(a) = *target
            {
                *target = Target::Block(a / 0x10);
            }
        }
        f.blocks[b].instrs = instrs;
        f.blocks[b].params = params.iter().map(|&p| VReg::from_u32(p)).collect();
    }
    for &(from, to, args) in edges {
        f.add_edge(
            BlockId::from_u32(from as u32),
            BlockId::from_u32(to as u32),
            args.iter().map(|&a| VReg::from_u32(a)).collect(),
        );
    }
    f
}

/// The printed function, each line trimmed.
fn text(f: &MFunc) -> Vec<String> {
    f.to_string()
        .lines()
        .map(|l| l.trim().to_string())
        .collect()
}

fn expect(s: &str) -> Vec<String> {
    s.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

macro_rules! cases {
    ($($name:ident: [$($params:expr => $block:expr),+], $edges:expr => $changed:expr, $after:expr;)*) => {$(
        #[test]
        fn $name() {
            let mut f = func(&[$(($params, $block)),+], &$edges);
            let before = f.to_string();
            predicate(&mut f);
            let changed = f.to_string() != before;
            assert_eq!(changed, $changed, "{before}");
            if changed {
                assert_eq!(text(&f), expect($after), "{before}");
            } else {
                assert_eq!(f.to_string(), before);
            }
        }
    )*};
}

/// A divergent if/else head: v = %r1, branch on %p100.
const HEAD: &str = "
    ISETP.EQ.U32.AND P0, PT, R1, RZ, PT ;
    BSSY B0, 0x30 ;
    @P0 BRA 0x10 ;";

cases! {
    // `a = even ? v >> 1 : 3v + 1`: both arms, a SEL on the branch
    // predicate, no barrier, one block.
    divergent_if_else_becomes_sel: [
        &[] => HEAD,
        &[] => "SHF.R.U32 R2, R1, 0x1, RZ ; BRA 0x30 ;",
        &[] => "IMAD.U32 R3, R1, 0x3, RZ ; IADD3 R4, R3, 0x1, RZ ; BRA 0x30 ;",
        &[5] => "BSYNC B0 ; STL [0x0], R5 ; EXIT ;"
    ], [(0, 1, &[]), (0, 2, &[]), (1, 3, &[2]), (2, 3, &[4])] => true, "
        .L_0:  ; preds [] succs []
        ISETP.EQ.U32.AND %p100, PT, %r1, RZ, PT ;
        SHF.R.U32 %r2, %r1, 0x1, RZ ;
        IMAD.U32 %r3, %r1, 0x3, RZ ;
        IADD3 %r4, %r3, 0x1, RZ ;
        SEL %r5, %r2, %r4, %p100 ;
        STL [0x0], %r5 ;
        EXIT ;";
    // A uniform `if` without else: the other arm is the block splitting
    // the critical edge to the merge block.
    uniform_if_without_else_becomes_sel: [
        &[] => "ISETP.EQ.U32.AND P0, PT, R1, RZ, PT ; @P0 BRA 0x10 ;",
        &[] => "LOP3.LUT R2, R1, 0x100, RZ, 0x3c, !PT ; BRA 0x30 ;",
        &[] => "BRA 0x30 ;",
        &[5] => "STL [0x0], R5 ; EXIT ;"
    ], [(0, 1, &[]), (0, 2, &[]), (1, 3, &[2]), (2, 3, &[1])] => true, "
        .L_0:  ; preds [] succs []
        ISETP.EQ.U32.AND %p100, PT, %r1, RZ, PT ;
        LOP3.LUT %r2, %r1, 0x100, RZ, 0x3c, !PT ;
        SEL %r5, %r2, %r1, %p100 ;
        STL [0x0], %r5 ;
        EXIT ;";
    // A predicate merged: PLOP3 computing `c ? a : b` (LUT 0xca), here
    // on a negated branch predicate.
    predicate_param_becomes_plop3: [
        &[] => "ISETP.EQ.U32.AND P0, PT, R1, RZ, PT ; BSSY B0, 0x30 ; @!P0 BRA 0x10 ;",
        &[] => "ISETP.LT.U32.AND P1, PT, R1, 0x5, PT ; BRA 0x30 ;",
        &[] => "ISETP.GT.U32.AND P2, PT, R1, 0x9, PT ; BRA 0x30 ;",
        &[PRED_BASE + 3] => "BSYNC B0 ; @P3 STL [0x0], R1 ; EXIT ;"
    ], [(0, 1, &[]), (0, 2, &[]), (1, 3, &[PRED_BASE + 1]), (2, 3, &[PRED_BASE + 2])] => true, "
        .L_0:  ; preds [] succs []
        ISETP.EQ.U32.AND %p100, PT, %r1, RZ, PT ;
        ISETP.LT.U32.AND %p101, PT, %r1, 0x5, PT ;
        ISETP.GT.U32.AND %p102, PT, %r1, 0x9, PT ;
        PLOP3.LUT %p103, PT, !%p100, %p101, %p102, 0xca, 0x0 ;
        @%p103 STL [0x0], %r1 ;
        EXIT ;";
    // Stores and loads take the arm's predicate as guard; ALU ops run
    // unguarded. Both arms pass the same value: no select, the parameter
    // is renamed.
    memory_ops_are_guarded: [
        &[] => HEAD,
        &[] => "LDS R2, [R1] ; IADD3 R3, R2, 0x1, RZ ; STS [R1], R3 ; BRA 0x30 ;",
        &[] => "STS [R1+0x40], R1 ; BRA 0x30 ;",
        &[5] => "BSYNC B0 ; STL [0x0], R5 ; EXIT ;"
    ], [(0, 1, &[]), (0, 2, &[]), (1, 3, &[1]), (2, 3, &[1])] => true, "
        .L_0:  ; preds [] succs []
        ISETP.EQ.U32.AND %p100, PT, %r1, RZ, PT ;
        @%p100 LDS %r2, [%r1] ;
        IADD3 %r3, %r2, 0x1, RZ ;
        @%p100 STS [%r1], %r3 ;
        @!%p100 STS [%r1+0x40], %r1 ;
        STL [0x0], %r1 ;
        EXIT ;";
    // A constant the arm passes goes to SEL's second source, where copy
    // propagation can fold it: the operands swap and the predicate flips.
    constant_goes_to_the_second_source: [
        &[] => HEAD,
        &[] => "MOV R2, 0x7 ; BRA 0x30 ;",
        &[] => "IADD3 R4, R1, 0x1, RZ ; BRA 0x30 ;",
        &[5] => "BSYNC B0 ; STL [0x0], R5 ; EXIT ;"
    ], [(0, 1, &[]), (0, 2, &[]), (1, 3, &[2]), (2, 3, &[4])] => true, "
        .L_0:  ; preds [] succs []
        ISETP.EQ.U32.AND %p100, PT, %r1, RZ, PT ;
        MOV %r2, 0x7 ;
        IADD3 %r4, %r1, 0x1, RZ ;
        SEL %r5, %r4, %r2, !%p100 ;
        STL [0x0], %r5 ;
        EXIT ;";
    // An if/else nested in an arm is converted first; the enclosing one,
    // now with single-block arms, follows.
    nested_if_else_converts_inside_out: [
        &[] => "ISETP.EQ.U32.AND P0, PT, R1, RZ, PT ; BSSY B0, 0x60 ; @P0 BRA 0x10 ;",
        &[] => "ISETP.EQ.U32.AND P1, PT, R2, RZ, PT ; BSSY B1, 0x40 ; @P1 BRA 0x20 ;",
        &[] => "IADD3 R3, R1, 0x1, RZ ; BRA 0x40 ;",
        &[] => "IADD3 R4, R1, 0x2, RZ ; BRA 0x40 ;",
        &[6] => "BSYNC B1 ; BRA 0x60 ;",
        &[] => "IADD3 R7, R1, 0x3, RZ ; BRA 0x60 ;",
        &[8] => "BSYNC B0 ; STL [0x0], R8 ; EXIT ;"
    ], [
        (0, 1, &[]), (0, 5, &[]), (1, 2, &[]), (1, 3, &[]),
        (2, 4, &[3]), (3, 4, &[4]), (4, 6, &[6]), (5, 6, &[7]),
    ] => true, "
        .L_0:  ; preds [] succs []
        ISETP.EQ.U32.AND %p100, PT, %r1, RZ, PT ;
        ISETP.EQ.U32.AND %p101, PT, %r2, RZ, PT ;
        IADD3 %r3, %r1, 0x1, RZ ;
        IADD3 %r4, %r1, 0x2, RZ ;
        SEL %r6, %r3, %r4, %p101 ;
        IADD3 %r7, %r1, 0x3, RZ ;
        SEL %r8, %r6, %r7, %p100 ;
        STL [0x0], %r8 ;
        EXIT ;";
    // The merge block's own branches leave from the head afterwards.
    merge_successors_move_to_the_head: [
        &[] => HEAD,
        &[] => "IADD3 R2, R1, 0x1, RZ ; BRA 0x30 ;",
        &[] => "BRA 0x30 ;",
        &[5] => "BSYNC B0 ; ISETP.NE.U32.AND P1, PT, R5, RZ, PT ; @P1 BRA 0x40 ;",
        &[] => "EXIT ;",
        &[] => "EXIT ;"
    ], [(0, 1, &[]), (0, 2, &[]), (1, 3, &[2]), (2, 3, &[1]), (3, 4, &[]), (3, 5, &[])] => true, "
        .L_0:  ; preds [] succs [.L_1, .L_2]
        ISETP.EQ.U32.AND %p100, PT, %r1, RZ, PT ;
        IADD3 %r2, %r1, 0x1, RZ ;
        SEL %r5, %r2, %r1, %p100 ;
        ISETP.NE.U32.AND %p101, PT, %r5, RZ, PT ;
        @%p101 BRA `(.L_1) ;
        .L_1:  ; preds [0] succs []
        EXIT ;
        .L_2:  ; preds [0] succs []
        EXIT ;";

    // Not converted: a divergent arm of 6 instructions (at most 5 minus
    // one per select: DIVERGENT_CONTROL + BRANCH_SLACK).
    long_divergent_arm_stays: [
        &[] => HEAD,
        &[] => "IADD3 R2, R1, 0x1, RZ ; IADD3 R2, R2, 0x1, RZ ; IADD3 R2, R2, 0x1, RZ ;
                IADD3 R2, R2, 0x1, RZ ; IADD3 R2, R2, 0x1, RZ ; IADD3 R2, R2, 0x1, RZ ;
                BRA 0x30 ;",
        &[] => "BRA 0x30 ;",
        &[] => "BSYNC B0 ; EXIT ;"
    ], [(0, 1, &[]), (0, 2, &[]), (1, 3, &[]), (2, 3, &[])] => false, "";
    // Not converted: a uniform arm of 3 instructions and a select would
    // issue 4 more than the path around it (at most UNIFORM_CONTROL +
    // BRANCH_SLACK = 3).
    long_uniform_arm_stays: [
        &[] => "ISETP.EQ.U32.AND P0, PT, R1, RZ, PT ; @P0 BRA 0x10 ;",
        &[] => "IADD3 R2, R1, 0x1, RZ ; IADD3 R3, R2, 0x1, RZ ; IADD3 R4, R3, 0x1, RZ ; BRA 0x30 ;",
        &[] => "BRA 0x30 ;",
        &[5] => "STL [0x0], R5 ; EXIT ;"
    ], [(0, 1, &[]), (0, 2, &[]), (1, 3, &[4]), (2, 3, &[1])] => false, "";
    // Not converted: a vote depends on which lanes execute it.
    warp_wide_op_stays: [
        &[] => HEAD,
        &[] => "VOTE.ANY R2, PT, PT ; BRA 0x30 ;",
        &[] => "BRA 0x30 ;",
        &[5] => "BSYNC B0 ; STL [0x0], R5 ; EXIT ;"
    ], [(0, 1, &[]), (0, 2, &[]), (1, 3, &[2]), (2, 3, &[1])] => false, "";
    // Not converted: a barrier waits for lanes that took the other arm.
    barrier_stays: [
        &[] => HEAD,
        &[] => "BAR.SYNC.DEFER_BLOCKING 0x0 ; BRA 0x30 ;",
        &[] => "BRA 0x30 ;",
        &[] => "BSYNC B0 ; EXIT ;"
    ], [(0, 1, &[]), (0, 2, &[]), (1, 3, &[]), (2, 3, &[])] => false, "";
    // Not converted: a store that is already guarded cannot take the
    // arm's predicate as well.
    guarded_store_stays: [
        &[] => HEAD,
        &[] => "ISETP.LT.U32.AND P1, PT, R1, 0x5, PT ; @P1 STS [R1], R1 ; BRA 0x30 ;",
        &[] => "BRA 0x30 ;",
        &[] => "BSYNC B0 ; EXIT ;"
    ], [(0, 1, &[]), (0, 2, &[]), (1, 3, &[]), (2, 3, &[])] => false, "";
    // Not converted: the arms lead back to the head (a loop back edge):
    // the head would be its own merge block.
    loop_back_edge_stays: [
        &[] => "BRA 0x10 ;",
        &[2] => "ISETP.EQ.U32.AND P0, PT, R2, RZ, PT ; @P0 BRA 0x20 ;",
        &[] => "IADD3 R3, R2, 0x1, RZ ; BRA 0x10 ;",
        &[] => "IADD3 R4, R2, 0x2, RZ ; BRA 0x10 ;"
    ], [(0, 1, &[1]), (1, 2, &[]), (1, 3, &[]), (2, 1, &[3]), (3, 1, &[4])] => false, "";
    // Not converted: the merge block is also entered from elsewhere.
    merge_with_a_third_predecessor_stays: [
        &[] => "ISETP.EQ.U32.AND P1, PT, R1, 0x3, PT ; @P1 BRA 0x40 ;",
        &[] => "ISETP.EQ.U32.AND P0, PT, R1, RZ, PT ; @P0 BRA 0x20 ;",
        &[] => "BRA 0x50 ;",
        &[] => "BRA 0x50 ;",
        &[] => "BRA 0x50 ;",
        &[] => "EXIT ;"
    ], [(0, 4, &[]), (0, 1, &[]), (1, 2, &[]), (1, 3, &[]), (2, 5, &[]), (3, 5, &[]), (4, 5, &[])] => false, "";
}
