//! The machine-IR optimisations on hand-built MIR: each case is written in
//! the assembler's syntax with physical registers (R1, P0), lifted to
//! virtual ones (%r1, %p101), run through a list of passes, and compared
//! with the expected instructions.

use crate::asm::assemble;
use crate::compile::Pass;
use crate::from_ir::dce::eliminate_dead_code;
use crate::isa::{Instr, Reg, RegFile};
use crate::mir::{BlockId, MBlock, MFunc};
use crate::opt_const_fold::const_fold;
use crate::opt_copy_prop::copy_prop;
use crate::opt_cse::cse;
use crate::opt_ffma::form_ffma;
use crate::opt_imad::form_imad;
use crate::opt_licm::hoist_invariants;
use crate::opt_lop3::fuse_lop3;

/// Predicate Pn becomes %p(PRED_BASE + n), so GPRs and predicates do not
/// share a virtual register.
const PRED_BASE: u32 = 100;

fn dce(f: &mut MFunc) {
    eliminate_dead_code(f);
}

fn lift(text: &str) -> Vec<Instr> {
    let mut instrs = assemble(text).expect("test MIR assembles").instrs;
    for ins in &mut instrs {
        ins.visit_regs(&mut |r, file, _, _| {
            if let Reg::Phys(n) = *r {
                *r = Reg::Virt(match file {
                    RegFile::Gpr => u32::from(n),
                    RegFile::Pred => PRED_BASE + u32::from(n),
                });
            }
        });
    }
    instrs
}

/// A function of the given blocks, block i falling to the blocks in
/// `edges`.
fn func(blocks: &[&str], edges: &[(usize, usize)]) -> MFunc {
    let mut f = MFunc::default();
    for _ in 0..PRED_BASE {
        f.new_vreg(RegFile::Gpr);
    }
    for _ in 0..8 {
        f.new_vreg(RegFile::Pred);
    }
    for text in blocks {
        let b = f.new_block();
        f.blocks[b] = MBlock {
            instrs: lift(text),
            ..MBlock::default()
        };
    }
    for &(from, to) in edges {
        f.add_edge(
            BlockId::from_u32(from as u32),
            BlockId::from_u32(to as u32),
            Vec::new(),
        );
    }
    f
}

fn text(f: &MFunc) -> Vec<Vec<String>> {
    f.blocks
        .values()
        .map(|b| b.instrs.iter().map(|i| i.to_string()).collect())
        .collect()
}

fn expect(blocks: &[&str]) -> Vec<Vec<String>> {
    blocks
        .iter()
        .map(|b| {
            b.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(String::from)
                .collect()
        })
        .collect()
}

fn run(blocks: &[&str], edges: &[(usize, usize)], passes: &[Pass]) -> Vec<Vec<String>> {
    let mut f = func(blocks, edges);
    for pass in passes {
        pass(&mut f);
    }
    text(&f)
}

macro_rules! opt_cases {
    ($($name:ident: $passes:expr, [$($before:expr),+], $edges:expr => [$($after:expr),+];)*) => {$(
        #[test]
        fn $name() {
            assert_eq!(run(&[$($before),+], &$edges, &$passes), expect(&[$($after),+]));
        }
    )*};
}

opt_cases! {
    // LDC of a fixed word becomes a constant-bank operand; the comparison
    // is mirrored to put it in the slot that encodes one.
    copy_prop_cbuf_operand: [copy_prop, dce], ["
        S2R R2, SR_TID.X ;
        LDC R1, c[0x0][0x20] ;
        ISETP.LT.U32.AND P0, PT, R1, R2, PT ;
        @P0 STL [0x0], R2 ;
        EXIT ;"], [] => ["
        S2R %r2, SR_TID.X ;
        ISETP.GT.U32.AND %p100, PT, %r2, c[0x0][0x20], PT ;
        @%p100 STL [0x0], %r2 ;
        EXIT ;"];
    // An immediate cannot carry a modifier: -5 is folded into it.
    copy_prop_negated_immediate: [copy_prop, dce], ["
        S2R R2, SR_TID.X ;
        MOV R1, 0x5 ;
        IADD3 R3, R2, -R1, RZ ;
        STL [0x0], R3 ;
        EXIT ;"], [] => ["
        S2R %r2, SR_TID.X ;
        IADD3 %r3, %r2, 0xfffffffb, RZ ;
        STL [0x0], %r3 ;
        EXIT ;"];
    // An immediate in SEL's first slot (which has no immediate form) goes
    // to the second with the condition negated, and the register then
    // moved into the first slot is folded on the second pass over the
    // slots: its immediate 0 as RZ.
    copy_prop_sel_commutes: [copy_prop, dce], ["
        S2R R2, SR_TID.X ;
        ISETP.LT.U32.AND P0, PT, R2, 0x4, PT ;
        MOV R1, 0x3f800000 ;
        MOV R3, 0x0 ;
        SEL R4, R1, R3, P0 ;
        STL [0x0], R4 ;
        EXIT ;"], [] => ["
        S2R %r2, SR_TID.X ;
        ISETP.LT.U32.AND %p100, PT, %r2, 0x4, PT ;
        SEL %r4, RZ, 0x3f800000, !%p100 ;
        STL [0x0], %r4 ;
        EXIT ;"];
    // Copies of copies reach the original register.
    copy_prop_chain: [copy_prop, dce], ["
        S2R R1, SR_TID.X ;
        MOV R2, R1 ;
        MOV R3, R2 ;
        STL [0x0], R3 ;
        EXIT ;"], [] => ["
        S2R %r1, SR_TID.X ;
        STL [0x0], %r1 ;
        EXIT ;"];
    // A guarded copy defines its register in some lanes only: kept.
    copy_prop_skips_guarded: [copy_prop, dce], ["
        S2R R1, SR_TID.X ;
        ISETP.LT.U32.AND P0, PT, R1, 0x4, PT ;
        @P0 MOV R2, R1 ;
        STL [0x0], R2 ;
        EXIT ;"], [] => ["
        S2R %r1, SR_TID.X ;
        ISETP.LT.U32.AND %p100, PT, %r1, 0x4, PT ;
        @%p100 MOV %r2, %r1 ;
        STL [0x0], %r2 ;
        EXIT ;"];
    // A register of a 64-bit group keeps its MOV (the group needs it).
    copy_prop_keeps_group_member: [copy_prop, dce], ["
        S2R R1, SR_TID.X ;
        MOV R4, R1 ;
        MOV R5, RZ ;
        LDG.E R6, [R4.64] ;
        STL [0x0], R6 ;
        EXIT ;"], [] => ["
        S2R %r1, SR_TID.X ;
        MOV %r4, %r1 ;
        MOV %r5, RZ ;
        LDG.E %r6, [%r4.64] ;
        STL [0x0], %r6 ;
        EXIT ;"];
    // 6 * 7 through IMAD's own eval, then the constant reaches the store.
    const_fold_through_eval: [copy_prop, const_fold, copy_prop, dce], ["
        MOV R1, 0x6 ;
        IMAD.U32 R2, R1, 0x7, RZ ;
        LOP3.LUT R3, R2, 0xf, RZ, 0xc0, !PT ;
        STL [0x0], R3 ;
        EXIT ;"], [] => ["
        MOV %r3, 0xa ;
        STL [0x0], %r3 ;
        EXIT ;"];
    // LEA is an ALU op like the others: a constant reaches its second
    // source (issue 17: it was left out of the passes' operand list).
    copy_prop_feeds_lea: [copy_prop, dce], ["
        S2R R1, SR_TID.X ;
        MOV R2, 0x100 ;
        LEA R3, R1, R2, 0x2 ;
        STL [0x0], R3 ;
        EXIT ;"], [] => ["
        S2R %r1, SR_TID.X ;
        LEA %r3, %r1, 0x100, 0x2 ;
        STL [0x0], %r3 ;
        EXIT ;"];
    // (3 << 4) + 0x10 through LEA's own eval.
    const_fold_lea: [copy_prop, const_fold, copy_prop, dce], ["
        MOV R1, 0x3 ;
        LEA R2, R1, 0x10, 0x4 ;
        STL [0x0], R2 ;
        EXIT ;"], [] => ["
        MOV %r2, 0x40 ;
        STL [0x0], %r2 ;
        EXIT ;"];
    // x * 1 + 0 and x + 0 + 0 are copies.
    const_fold_identities: [const_fold, copy_prop, dce], ["
        S2R R1, SR_TID.X ;
        IMAD.U32 R2, R1, 0x1, RZ ;
        IADD3 R3, RZ, R2, RZ ;
        STL [0x0], R3 ;
        EXIT ;"], [] => ["
        S2R %r1, SR_TID.X ;
        STL [0x0], %r1 ;
        EXIT ;"];
    // Same special register, same product: computed once.
    cse_in_block: [cse, dce], ["
        S2R R1, SR_TID.X ;
        S2R R2, SR_TID.X ;
        IMAD.U32 R3, R1, 0x4, RZ ;
        IMAD.U32 R4, R2, 0x4, RZ ;
        IADD3 R5, R3, R4, RZ ;
        STL [0x0], R5 ;
        EXIT ;"], [] => ["
        S2R %r1, SR_TID.X ;
        IMAD.U32 %r3, %r1, 0x4, RZ ;
        IADD3 %r5, %r3, %r3, RZ ;
        STL [0x0], %r5 ;
        EXIT ;"];
    // The clock and memory loads are not expressions.
    cse_skips_clock_and_loads: [cse, dce], ["
        S2R R1, SR_CLOCKLO ;
        S2R R2, SR_CLOCKLO ;
        LDS R3, [0x0] ;
        LDS R4, [0x0] ;
        IADD3 R5, R1, R2, R3 ;
        IADD3 R6, R5, R4, RZ ;
        STL [0x0], R6 ;
        EXIT ;"], [] => ["
        S2R %r1, SR_CLOCKLO ;
        S2R %r2, SR_CLOCKLO ;
        LDS %r3, [0x0] ;
        LDS %r4, [0x0] ;
        IADD3 %r5, %r1, %r2, %r3 ;
        IADD3 %r6, %r5, %r4, RZ ;
        STL [0x0], %r6 ;
        EXIT ;"];
    // A loop (1 the header, 2 the body with the back edge): the MOV of an
    // immediate beside the two-immediate FFMA moves to the preheader 0,
    // before its branch; the guarded MOV, the one reading a register and
    // the predicate stay.
    licm_hoists_constants: [hoist_invariants], ["
        S2R R1, SR_TID.X ;
        BRA 0x10 ;", "
        ISETP.LT.U32.AND P0, PT, R1, c[0x0][0x20], PT ;
        @!P0 BRA 0x100 ;", "
        MOV R5, 0x3e800000 ;
        FFMA R2, R1, 0x3f000000, R5 ;
        @P0 MOV R6, 0x1 ;
        MOV R7, R1 ;
        ISETP.EQ.AND P1, PT, RZ, c[0x0][0x24], PT ;
        STL [0x0], R2 ;
        BRA 0x10 ;", "
        EXIT ;"], [(0, 1), (1, 2), (1, 3), (2, 1)] => ["
        S2R %r1, SR_TID.X ;
        MOV %r5, 0x3e800000 ;
        BRA 0x10 ;", "
        ISETP.LT.U32.AND %p100, PT, %r1, c[0x0][0x20], PT ;
        @!%p100 BRA 0x100 ;", "
        FFMA %r2, %r1, 0x3f000000, %r5 ;
        @%p100 MOV %r6, 0x1 ;
        MOV %r7, %r1 ;
        ISETP.EQ.AND %p101, PT, RZ, c[0x0][0x24], PT ;
        STL [0x0], %r2 ;
        BRA 0x10 ;", "
        EXIT ;"];
    // Nested loops: the constant of the inner loop (2, a loop on itself)
    // moves to the outer loop's (1, 2, 3) preheader 0, whose body holds
    // the inner loop's blocks.
    licm_nested: [hoist_invariants], ["
        S2R R1, SR_TID.X ;", "
        IADD3 R9, R1, 0x1, RZ ;", "
        MOV R3, 0x7 ;
        IMAD.U32 R4, R1, R3, RZ ;
        STL [0x0], R4 ;", "
        STL [0x4], R9 ;", "
        EXIT ;"], [(0, 1), (1, 2), (2, 2), (2, 3), (3, 1), (3, 4)] => ["
        S2R %r1, SR_TID.X ;
        MOV %r3, 0x7 ;", "
        IADD3 %r9, %r1, 0x1, RZ ;", "
        IMAD.U32 %r4, %r1, %r3, RZ ;
        STL [0x0], %r4 ;", "
        STL [0x4], %r9 ;", "
        EXIT ;"];
    // A loop (3, on itself) entered from two blocks (1 and 2) has no
    // preheader: its constant stays.
    licm_two_entries: [hoist_invariants], ["
        S2R R1, SR_TID.X ;", "
        STL [0x0], R1 ;", "
        STL [0x4], R1 ;", "
        MOV R8, 0x9 ;
        STL [0xc], R8 ;", "
        EXIT ;"], [(0, 1), (0, 2), (1, 3), (2, 3), (3, 3), (3, 4)] => ["
        S2R %r1, SR_TID.X ;", "
        STL [0x0], %r1 ;", "
        STL [0x4], %r1 ;", "
        MOV %r8, 0x9 ;
        STL [0xc], %r8 ;", "
        EXIT ;"];
    // Block 0 dominates 1 and 2: their copies of its product go; 1 does
    // not dominate 2, so the product both compute stays in each.
    cse_over_dominator_tree: [cse], ["
        S2R R1, SR_TID.X ;
        IMAD.U32 R2, R1, 0x4, RZ ;",
        "
        IMAD.U32 R3, R1, 0x4, RZ ;
        IMAD.U32 R4, R1, 0x8, RZ ;
        STL [0x0], R4 ;",
        "
        IMAD.U32 R5, R1, 0x8, RZ ;
        IADD3 R6, R3, R5, R2 ;
        STL [0x0], R6 ;
        EXIT ;"], [(0, 1), (0, 2), (1, 2)] => ["
        S2R %r1, SR_TID.X ;
        IMAD.U32 %r2, %r1, 0x4, RZ ;",
        "
        IMAD.U32 %r4, %r1, 0x8, RZ ;
        STL [0x0], %r4 ;",
        "
        IMAD.U32 %r5, %r1, 0x8, RZ ;
        IADD3 %r6, %r2, %r5, %r2 ;
        STL [0x0], %r6 ;
        EXIT ;"];
    imad_from_mul_and_add: [form_imad, dce], ["
        S2R R1, SR_TID.X ;
        S2R R2, SR_CTAID.X ;
        IMAD.U32 R3, R1, 0x4, RZ ;
        IADD3 R4, R2, R3, RZ ;
        STL [0x0], R4 ;
        EXIT ;"], [] => ["
        S2R %r1, SR_TID.X ;
        S2R %r2, SR_CTAID.X ;
        IMAD.U32 %r4, %r1, 0x4, %r2 ;
        STL [0x0], %r4 ;
        EXIT ;"];
    // The product is read twice: fusing would compute it twice, so it
    // stays, and the two adds merge into one IADD3 instead.
    imad_needs_single_use: [form_imad, dce], ["
        S2R R1, SR_TID.X ;
        S2R R2, SR_CTAID.X ;
        IMAD.U32 R3, R1, 0x4, RZ ;
        IADD3 R4, R2, R3, RZ ;
        IADD3 R5, R4, R3, RZ ;
        STL [0x0], R5 ;
        EXIT ;"], [] => ["
        S2R %r1, SR_TID.X ;
        S2R %r2, SR_CTAID.X ;
        IMAD.U32 %r3, %r1, 0x4, RZ ;
        IADD3 %r5, %r2, %r3, %r3 ;
        STL [0x0], %r5 ;
        EXIT ;"];
    iadd3_merge: [form_imad, dce], ["
        S2R R1, SR_TID.X ;
        S2R R2, SR_CTAID.X ;
        IADD3 R3, R1, -R2, RZ ;
        IADD3 R4, R3, 0x10, RZ ;
        STL [0x0], R4 ;
        EXIT ;"], [] => ["
        S2R %r1, SR_TID.X ;
        S2R %r2, SR_CTAID.X ;
        IADD3 %r4, %r1, -%r2, 0x10 ;
        STL [0x0], %r4 ;
        EXIT ;"];
    // (a & b) ^ c: 0xc0 composed with 0x3c is 0x6a.
    lop3_two_into_one: [fuse_lop3, dce], ["
        S2R R1, SR_TID.X ;
        S2R R2, SR_CTAID.X ;
        S2R R5, SR_LANEID ;
        LOP3.LUT R3, R1, R2, RZ, 0xc0, !PT ;
        LOP3.LUT R4, R3, R5, RZ, 0x3c, !PT ;
        STL [0x0], R4 ;
        EXIT ;"], [] => ["
        S2R %r1, SR_TID.X ;
        S2R %r2, SR_CTAID.X ;
        S2R %r5, SR_LANEID ;
        LOP3.LUT %r4, %r1, %r2, %r5, 0x6a, !PT ;
        STL [0x0], %r4 ;
        EXIT ;"];
    // ~(a | b): the NOT reads one source, the OR two.
    lop3_not_of_or: [fuse_lop3, dce], ["
        S2R R1, SR_TID.X ;
        S2R R2, SR_CTAID.X ;
        LOP3.LUT R3, R1, R2, RZ, 0xfc, !PT ;
        LOP3.LUT R4, R3, RZ, RZ, 0xf, !PT ;
        STL [0x0], R4 ;
        EXIT ;"], [] => ["
        S2R %r1, SR_TID.X ;
        S2R %r2, SR_CTAID.X ;
        LOP3.LUT %r4, %r1, %r2, RZ, 0x3, !PT ;
        STL [0x0], %r4 ;
        EXIT ;"];
    // Four distinct inputs do not fit one LOP3.
    lop3_four_inputs_stay: [fuse_lop3, dce], ["
        S2R R1, SR_TID.X ;
        S2R R2, SR_CTAID.X ;
        S2R R5, SR_LANEID ;
        LOP3.LUT R3, R1, R2, R5, 0x80, !PT ;
        LOP3.LUT R4, R3, R6, R7, 0xfe, !PT ;
        STL [0x0], R4 ;
        EXIT ;"], [] => ["
        S2R %r1, SR_TID.X ;
        S2R %r2, SR_CTAID.X ;
        S2R %r5, SR_LANEID ;
        LOP3.LUT %r3, %r1, %r2, %r5, 0x80, !PT ;
        LOP3.LUT %r4, %r3, %r6, %r7, 0xfe, !PT ;
        STL [0x0], %r4 ;
        EXIT ;"];
    ffma_from_mul_and_add: [form_ffma, dce], ["
        LDS R1, [0x0] ;
        LDS R2, [0x4] ;
        LDS R5, [0x8] ;
        FMUL R3, R1, R2 ;
        FADD R4, R5, -R3 ;
        STL [0x0], R4 ;
        EXIT ;"], [] => ["
        LDS %r1, [0x0] ;
        LDS %r2, [0x4] ;
        LDS %r5, [0x8] ;
        FFMA %r4, -%r1, %r2, %r5 ;
        STL [0x0], %r4 ;
        EXIT ;"];
    // Different rounding: no fusion.
    ffma_needs_same_rounding: [form_ffma, dce], ["
        LDS R1, [0x0] ;
        LDS R2, [0x4] ;
        FMUL.RZ R3, R1, R2 ;
        FADD R4, R3, R2 ;
        STL [0x0], R4 ;
        EXIT ;"], [] => ["
        LDS %r1, [0x0] ;
        LDS %r2, [0x4] ;
        FMUL.RZ %r3, %r1, %r2 ;
        FADD %r4, %r3, %r2 ;
        STL [0x0], %r4 ;
        EXIT ;"];
}

/// `print_passes` captures the IR after selection and after every pass of
/// the list, in order.
#[test]
fn print_passes_dumps_after_each_pass() {
    use crate::compile::{BackendOptions, compile, optimisations};
    use crate::frontend::{FrontendOptions, translate, words_from_bytes};
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/shaders/c_add_push.comp.spv"
    );
    let bytes = std::fs::read(path).expect("corpus shader");
    let words = words_from_bytes(&bytes).expect("SPIR-V words");
    let shader = translate(&words, &FrontendOptions::default()).expect("translates");
    let opts = BackendOptions {
        print_passes: true,
        ..BackendOptions::default()
    };
    let compiled = compile(&shader, &opts).expect("compiles");
    let names: Vec<&str> = compiled.pass_dumps.iter().map(|(n, _)| *n).collect();
    let mut want = vec!["select"];
    want.extend(optimisations(&opts).iter().map(|(n, _)| *n));
    want.extend(["order_blocks", "assign_regs", "layout", "calc_instr_deps"]);
    assert_eq!(names, want);
    // The LDC of the element count is folded into the comparison and
    // removed as dead.
    let dump = |name| {
        &compiled
            .pass_dumps
            .iter()
            .find(|(n, _)| *n == name)
            .expect("dumped")
            .1
    };
    let (select, dce) = (dump("select"), dump("dce"));
    assert!(select.contains("LDC %r"), "{select}");
    assert!(
        dce.contains("c[0x0][0x20]") && !dce.contains("LDC %r"),
        "{dce}"
    );
}
