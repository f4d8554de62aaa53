//! The machine-IR verifier (`MFunc::verify`) on hand-built MIR: a valid
//! function passes, and each case breaks one invariant and expects the
//! error that names it. Blocks are written in the assembler's syntax;
//! for the virtual form Rn becomes %rn and Pn %p(100+n), and a branch to
//! address 0x10·k names block k.

use crate::asm::assemble;
use crate::isa::{Instr, Op, OpBra, OpBssy, OpLd, Reg, RegFile, SrcRef, Target};
use crate::mir::{BlockId, MFunc, VReg};
use crate::verify::{At, Form, Site, VerifyError};

const PRED_BASE: u32 = 100;

/// A diamond: block 0 branches on %r1 to block 1 or 2, each passes one
/// value to block 3's parameter %r4; block 3 loads through the pair
/// %r10:%r11 into the pair %r12:%r13 and exits.
const BLOCKS: [(&[u32], &str); 4] = [
    (
        &[],
        "MOV R1, c[0x0][0x160] ; MOV R10, c[0x0][0x164] ; MOV R11, c[0x0][0x168] ; \
         ISETP.EQ.U32.AND P0, PT, R1, RZ, PT ; @P0 BRA 0x10 ;",
    ),
    (&[], "MOV R2, 0x1 ; BRA 0x30 ;"),
    (&[], "MOV R3, 0x2 ; BRA 0x30 ;"),
    (
        &[4],
        "LDG.E.64 R12, [R10.64] ; IADD3 R14, R12, R13, R4 ; EXIT ;",
    ),
];
const EDGES: [(usize, usize, &[u32]); 4] = [(0, 1, &[]), (0, 2, &[]), (1, 3, &[2]), (2, 3, &[3])];

/// The function of `blocks` (parameters, code) and `edges` (from, to,
/// arguments; a block's first edge is its taken branch), with virtual
/// registers when `virt`.
fn build(blocks: &[(&[u32], &str)], edges: &[(usize, usize, &[u32])], virt: bool) -> MFunc {
    let mut f = MFunc::default();
    for _ in 0..PRED_BASE {
        f.new_vreg(RegFile::Gpr);
    }
    for _ in 0..8 {
        f.new_vreg(RegFile::Pred);
    }
    for (params, text) in blocks {
        let b = f.new_block();
        let lines = text.replace("; ", ";\n");
        let mut instrs = assemble(&lines).expect("test MIR assembles").instrs;
        for ins in &mut instrs {
            if virt {
                ins.visit_regs(&mut |r, file, _, _| {
                    if let Reg::Phys(n) = *r {
                        *r = Reg::Virt(match file {
                            RegFile::Gpr => u32::from(n),
                            RegFile::Pred => PRED_BASE + u32::from(n),
                        });
                    }
                });
            }
            if let Op::Bra(OpBra { target }) | Op::Bssy(OpBssy { target, .. }) = &mut ins.op
                && let Target::Addr(a) = *target
            {
                *target = Target::Block(a / 0x10);
            }
        }
        f.blocks[b].instrs = instrs;
        f.blocks[b].params = vregs(params);
    }
    for &(from, to, args) in edges {
        f.add_edge(blk(from), blk(to), vregs(args));
    }
    f
}

fn diamond() -> MFunc {
    build(&BLOCKS, &EDGES, true)
}

/// The diamond with block `b`'s code replaced.
fn diamond_with(b: usize, text: &str) -> MFunc {
    let mut blocks = BLOCKS;
    blocks[b].1 = text;
    build(&blocks, &EDGES, true)
}

fn at(block: usize, index: usize) -> At {
    At {
        block: blk(block),
        index,
    }
}

/// Block `n` of a test function.
fn blk(n: usize) -> BlockId {
    BlockId::from_u32(n as u32)
}

/// Virtual register `%n`.
fn vr(n: u32) -> VReg {
    VReg::from_u32(n)
}

fn vregs(ns: &[u32]) -> Vec<VReg> {
    ns.iter().map(|&n| vr(n)).collect()
}

#[test]
fn a_valid_function_passes() {
    assert_eq!(diamond().verify(Form::Virtual), Ok(()));
}

#[test]
fn a_valid_allocated_function_passes() {
    assert_eq!(
        build(&BLOCKS, &EDGES, false).verify(Form::Allocated),
        Ok(())
    );
}

#[test]
fn a_successor_out_of_range() {
    let mut f = diamond();
    f.blocks[blk(3)].succs.push(blk(9));
    f.blocks[blk(3)].succ_args.push(Vec::new());
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::NoSuchBlock {
            block: blk(3),
            target: blk(9),
            blocks: 4
        })
    );
}

#[test]
fn a_successor_missing_from_the_predecessors() {
    let mut f = diamond();
    f.blocks[blk(3)].preds.retain(|&p| p != blk(2));
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::AsymmetricEdge {
            from: blk(2),
            to: blk(3),
            as_succ: 1,
            as_pred: 0
        })
    );
}

#[test]
fn a_predecessor_missing_from_the_successors() {
    let mut f = diamond();
    f.blocks[blk(1)].preds.push(blk(2));
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::AsymmetricEdge {
            from: blk(2),
            to: blk(1),
            as_succ: 0,
            as_pred: 1
        })
    );
}

#[test]
fn argument_lists_that_do_not_match_the_successors() {
    let mut f = diamond();
    f.blocks[blk(1)].succ_args.push(Vec::new());
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::ArgumentLists {
            block: blk(1),
            succs: 1,
            lists: 2
        })
    );
}

#[test]
fn too_few_arguments_for_the_parameters() {
    let mut f = diamond();
    f.blocks[blk(2)].succ_args[0].clear();
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::Arity {
            from: blk(2),
            to: blk(3),
            args: 0,
            params: 1
        })
    );
}

#[test]
fn a_predicate_passed_to_a_gpr_parameter() {
    let mut f = diamond();
    f.blocks[blk(2)].succ_args[0] = vec![vr(PRED_BASE)];
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::ArgumentFile {
            from: blk(2),
            to: blk(3),
            arg: vr(PRED_BASE),
            arg_file: RegFile::Pred,
            param: vr(4),
            param_file: RegFile::Gpr
        })
    );
}

#[test]
fn parameters_on_the_entry_block() {
    let mut f = diamond();
    f.blocks[blk(0)].params.push(vr(50));
    assert_eq!(f.verify(Form::Virtual), Err(VerifyError::EntryParams(1)));
}

#[test]
fn a_register_defined_twice() {
    let f = diamond_with(1, "MOV R1, 0x1 ; BRA 0x30 ;");
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::Redefined {
            vreg: vr(1),
            first: Site::Instr(at(0, 0)),
            again: Site::Instr(at(1, 0))
        })
    );
}

#[test]
fn a_group_member_defined_again() {
    // LDG's result pair %r12:%r13 defines %r13 too.
    let f = diamond_with(
        3,
        "MOV R13, 0x5 ; LDG.E.64 R12, [R10.64] ; IADD3 R14, R12, R13, R4 ; EXIT ;",
    );
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::Redefined {
            vreg: vr(13),
            first: Site::Instr(at(3, 0)),
            again: Site::Instr(at(3, 1))
        })
    );
}

#[test]
fn a_parameter_defined_again() {
    let f = diamond_with(1, "MOV R4, 0x1 ; BRA 0x30 ;");
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::Redefined {
            vreg: vr(4),
            first: Site::Instr(at(1, 0)),
            again: Site::Param(blk(3))
        })
    );
}

#[test]
fn a_register_read_but_never_defined() {
    let f = diamond_with(
        3,
        "LDG.E.64 R12, [R10.64] ; IADD3 R14, R12, R20, R4 ; EXIT ;",
    );
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::Undefined {
            vreg: vr(20),
            at: Site::Instr(at(3, 1))
        })
    );
}

#[test]
fn a_branch_argument_never_defined() {
    let mut f = diamond();
    f.blocks[blk(1)].succ_args[0] = vec![vr(30)];
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::Undefined {
            vreg: vr(30),
            at: Site::Edge {
                from: blk(1),
                to: blk(3)
            }
        })
    );
}

#[test]
fn a_register_that_does_not_exist() {
    // The predicate %p100 among twelve registers.
    let mut f = diamond();
    f.vregs = f.vregs.values().copied().take(12).collect();
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::NoSuchVreg {
            at: Site::Instr(at(0, 3)),
            vreg: vr(PRED_BASE),
            count: 12
        })
    );
}

#[test]
fn a_predicate_register_in_a_gpr_operand() {
    let mut f = diamond();
    f.vregs[vr(2)] = RegFile::Pred;
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::WrongFile {
            at: at(1, 0),
            vreg: vr(2),
            declared: RegFile::Pred,
            slot: RegFile::Gpr
        })
    );
}

#[test]
fn a_listed_group_of_the_wrong_width() {
    let mut f = diamond();
    f.groups.insert(vr(10), vec![vr(1)]);
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::GroupWidth {
            at: at(3, 0),
            key: vr(10),
            members: 1,
            width: 2
        })
    );
}

#[test]
fn a_physical_register_before_allocation() {
    let mut f = diamond();
    if let Op::Ld(OpLd { addr, .. }) = &mut f.blocks[blk(3)].instrs[0].op {
        addr.src = SrcRef::Reg(Reg::Phys(10));
    }
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::PhysicalBeforeAllocation {
            at: at(3, 0),
            reg: 10
        })
    );
}

#[test]
fn a_virtual_register_after_allocation() {
    assert_eq!(
        diamond().verify(Form::Allocated),
        Err(VerifyError::VirtualAfterAllocation {
            at: at(0, 0),
            vreg: vr(1)
        })
    );
}

#[test]
fn a_register_beyond_the_allocatable_file() {
    let mut blocks = BLOCKS;
    blocks[1].1 = "MOV R70, 0x1 ; BRA 0x30 ;";
    assert_eq!(
        build(&blocks, &EDGES, false).verify(Form::Allocated),
        Err(VerifyError::OutsideFile {
            at: at(1, 0),
            file: RegFile::Gpr,
            reg: 70,
            limit: 64
        })
    );
}

#[test]
fn an_unaligned_group_after_allocation() {
    let mut f = build(&BLOCKS, &EDGES, false);
    if let Op::Ld(OpLd { addr, .. }) = &mut f.blocks[blk(3)].instrs[0].op {
        addr.src = SrcRef::Reg(Reg::Phys(11));
    }
    assert_eq!(
        f.verify(Form::Allocated),
        Err(VerifyError::UnalignedGroup {
            at: at(3, 0),
            reg: 11,
            width: 2
        })
    );
}

#[test]
fn a_critical_edge() {
    // Block 0 branches straight to the join, which has three predecessors.
    let mut edges = EDGES;
    edges[1] = (0, 3, &[1]);
    let mut blocks = BLOCKS;
    blocks[2].1 = "BRA 0x30 ;";
    let mut f = build(&blocks, &edges, true);
    f.blocks[blk(2)].preds.clear();
    f.blocks[blk(2)].succs.clear();
    f.blocks[blk(2)].succ_args.clear();
    f.blocks[blk(3)].preds.retain(|&p| p != blk(2));
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::CriticalEdge {
            from: blk(0),
            to: blk(3),
            succs: 2,
            preds: 2
        })
    );
}

#[test]
fn an_edge_back_to_the_entry_from_a_branch_is_critical() {
    // The entry has one implicit predecessor, the launch.
    let f = build(
        &[
            (
                &[],
                "MOV R1, c[0x0][0x160] ; ISETP.EQ.U32.AND P0, PT, R1, RZ, PT ; @P0 BRA 0x0 ;",
            ),
            (&[], "EXIT ;"),
        ],
        &[(0, 0, &[]), (0, 1, &[])],
        true,
    );
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::CriticalEdge {
            from: blk(0),
            to: blk(0),
            succs: 2,
            preds: 2
        })
    );
}

#[test]
fn a_block_without_a_terminator() {
    let f = diamond_with(1, "MOV R2, 0x1 ;");
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::NoTerminator { block: blk(1) })
    );
}

#[test]
fn an_empty_block() {
    let mut f = diamond();
    f.blocks[blk(2)].instrs.clear();
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::NoTerminator { block: blk(2) })
    );
}

#[test]
fn a_branch_inside_a_block() {
    let f = diamond_with(1, "BRA 0x30 ; MOV R2, 0x1 ; BRA 0x30 ;");
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::EarlyTerminator {
            at: at(1, 0),
            instr: "BRA `(.L_3) ;".into()
        })
    );
}

#[test]
fn an_exit_with_a_successor() {
    let mut f = diamond();
    f.add_edge(blk(3), blk(0), Vec::new());
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::SuccessorCount {
            at: at(3, 2),
            instr: "EXIT ;".into(),
            succs: 1
        })
    );
}

#[test]
fn a_conditional_branch_with_one_successor() {
    let f = build(&BLOCKS, &[EDGES[0], EDGES[2], EDGES[3]], true);
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::SuccessorCount {
            at: at(0, 4),
            instr: "@%p100 BRA `(.L_1) ;".into(),
            succs: 1
        })
    );
}

#[test]
fn a_branch_to_a_block_other_than_its_successor() {
    let f = diamond_with(1, "MOV R2, 0x1 ; BRA 0x20 ;");
    assert_eq!(
        f.verify(Form::Virtual),
        Err(VerifyError::BranchTarget {
            at: at(1, 1),
            instr: "BRA `(.L_2) ;".into(),
            target: blk(2),
            succ: blk(3)
        })
    );
}

#[test]
fn a_branch_to_an_address_before_layout() {
    let mut f = diamond();
    f.blocks[blk(1)].instrs[1] = Instr::new(Op::Bra(OpBra {
        target: Target::Addr(0x30),
    }));
    assert!(matches!(
        f.verify(Form::Virtual),
        Err(VerifyError::AddressTarget { at: a, .. }) if a == at(1, 1)
    ));
}
