//! Control bits computed by `calc_instr_deps` on small programs: a
//! consumer of a scoreboarded result waits on its scoreboard, fixed
//! latencies become stall counts, late reads protect their registers,
//! scoreboards are reused when all six are taken, and nothing is
//! outstanding across control flow.

use crate::asm::assemble;
use crate::calc_instr_deps::calc_instr_deps;
use crate::isa::Instr;
use crate::target::Arch;

fn deps(src: &str) -> Vec<Instr> {
    deps_on(src, Arch::DEFAULT)
}

fn deps_on(src: &str, arch: Arch) -> Vec<Instr> {
    let mut instrs = assemble(src).expect("assembles").instrs;
    calc_instr_deps(&mut instrs, arch);
    instrs
}

/// The control bits as the listing prints them.
fn ctrl(instrs: &[Instr]) -> Vec<String> {
    instrs.iter().map(|i| i.ctrl.to_string()).collect()
}

#[test]
fn consumer_of_a_load_waits_on_its_scoreboard() {
    let p = deps(
        "LDG.E R4, [R2.64] ;
         IADD3 R6, R4, 0x1, RZ ;
         EXIT ;",
    );
    assert_eq!(p[0].ctrl.write_sb, 0);
    assert_eq!(p[1].ctrl.wait, 1 << 0);
    assert_eq!(
        ctrl(&p),
        [
            "[B------:R-:W0:-:S01]",
            "[B0-----:R-:W-:-:S01]",
            // EXIT stalls 5 cycles, as branches do (docs/ISA.md).
            "[B------:R-:W-:-:S05]"
        ]
    );
}

#[test]
fn independent_work_does_not_wait() {
    let p = deps(
        "S2R R0, SR_TID.X ;
         MOV R1, 0x5 ;
         IADD3 R2, R1, R1, RZ ;
         IADD3 R3, R0, R2, RZ ;
         EXIT ;",
    );
    // MOV and the first IADD3 do not read R0; the second IADD3 does.
    assert_eq!(p[1].ctrl.wait, 0);
    assert_eq!(p[2].ctrl.wait, 0);
    assert_eq!(p[3].ctrl.wait, 1 << p[0].ctrl.write_sb);
}

#[test]
fn fixed_latency_becomes_a_stall() {
    let p = deps(
        "FADD R1, R2, R3 ;
         FMUL R4, R1, R1 ;
         EXIT ;",
    );
    assert_eq!(
        p[0].ctrl.stall, 5,
        "FADD's result is ready 4 cycles later, plus the hardware margin"
    );
    assert_eq!(p[0].ctrl.write_sb, 7, "fixed-latency ops use no scoreboard");
    // One independent instruction in between covers one cycle.
    let p = deps(
        "IMAD R1, R2, R3, RZ ;
         MOV R5, 0x1 ;
         IADD3 R4, R1, RZ, RZ ;
         EXIT ;",
    );
    assert_eq!(
        (p[0].ctrl.stall, p[1].ctrl.stall),
        (1, 5),
        "IMAD: 5 cycles plus the margin"
    );
}

#[test]
fn store_data_register_is_protected_until_read() {
    let p = deps(
        "STG.E [R2.64], R4 ;
         MOV R4, 0x1 ;
         MOV R5, 0x2 ;
         EXIT ;",
    );
    let sb = p[0].ctrl.read_sb;
    assert!(sb < 6, "the store sets a read scoreboard");
    assert_eq!(p[0].ctrl.write_sb, 7, "a store writes no register");
    assert_eq!(p[1].ctrl.wait, 1 << sb, "overwriting R4 waits for the read");
    assert_eq!(p[2].ctrl.wait, 0, "R5 was not read by the store");
}

#[test]
fn atomic_sets_both_scoreboards() {
    let p = deps(
        "ATOMG.E.ADD R0, [R2.64], R5 ;
         MOV R5, RZ ;
         IADD3 R1, R0, RZ, RZ ;
         EXIT ;",
    );
    let (rd, wr) = (p[0].ctrl.read_sb, p[0].ctrl.write_sb);
    assert!(rd < 6 && wr < 6 && rd != wr);
    assert_eq!(p[1].ctrl.wait, 1 << rd);
    assert_eq!(p[2].ctrl.wait, 1 << wr);
}

#[test]
fn seventh_load_reuses_the_oldest_scoreboard() {
    let p = deps(
        "LDS R0, [0x0] ;
         LDS R1, [0x4] ;
         LDS R2, [0x8] ;
         LDS R3, [0xc] ;
         LDS R4, [0x10] ;
         LDS R5, [0x14] ;
         LDS R6, [0x18] ;
         IADD3 R7, R0, R6, RZ ;
         EXIT ;",
    );
    let sbs: Vec<u8> = p[..7].iter().map(|i| i.ctrl.write_sb).collect();
    assert_eq!(sbs, [0, 1, 2, 3, 4, 5, 0]);
    assert_eq!(
        p[6].ctrl.wait,
        1 << 0,
        "waits for R0's load before reusing SB0"
    );
    // R0 is ready (waited for); R6 is on SB0 again.
    assert_eq!(p[7].ctrl.wait, 1 << 0);
}

#[test]
fn nothing_is_outstanding_across_control_flow() {
    let p = deps(
        "top:
         MUFU.RCP R1, R0 ;
         FADD R2, R3, R3 ;
         ISETP.LT.AND P0, PT, R2, R3, PT ;
    @P0 BRA top ;
         EXIT ;",
    );
    let mufu_sb = p[0].ctrl.write_sb;
    assert_eq!(p[3].ctrl.wait, 1 << mufu_sb, "the branch waits on MUFU");
    assert!(p[3].ctrl.yield_, "a loop back edge yields");
    assert_eq!(
        p[2].ctrl.stall, 13,
        "the branch reads P0 13 cycles after ISETP (docs/ISA.md)"
    );
    assert_eq!(p[1].ctrl.stall, 5, "ISETP reads R2 from FADD (4 + margin)");
    assert_eq!(p[4].ctrl.wait, 0, "nothing left at EXIT");
}

#[test]
fn branch_target_waits_for_fall_through_results() {
    let p = deps(
        "BSSY B0, join ;
         LDG.E R4, [R2.64] ;
    join:
         BSYNC B0 ;
         EXIT ;",
    );
    assert_eq!(p[2].ctrl.wait, 1 << p[1].ctrl.write_sb);
}

/// Double precision: a scoreboard before SM90, a fixed latency from SM90 on
/// (the H100 ignores a scoreboard on DMUL: its consumer read a stale
/// value), with a DSETP's predicate read 14 cycles after it.
#[test]
fn double_precision_latency_depends_on_the_architecture() {
    let src = "DMUL R0, R2, R4 ;\nDADD R6, R0, R2 ;\nDSETP.GT.AND P0, PT, R6, R2, PT ;\n@P0 EXIT ;\nEXIT ;\n";
    let sm86 = ctrl(&deps_on(src, Arch::Sm86));
    assert_eq!(
        &sm86[..2],
        ["[B------:R-:W0:-:S01]", "[B0-----:R-:W0:-:S01]"],
        "{sm86:?}"
    );
    let sm90 = deps_on(src, Arch::Sm90);
    let c = ctrl(&sm90);
    // No scoreboard; the DMUL stalls until its result is ready (8 cycles
    // and the margin), the DSETP until its predicate is (14 and the margin).
    assert_eq!(c[0], "[B------:R-:W-:-:S09]", "{c:?}");
    assert_eq!(c[1], "[B------:R-:W-:-:S09]", "{c:?}");
    assert_eq!(c[2], "[B------:R-:W-:-:S15]", "{c:?}");
}

/// On SM90 a fixed-latency result crossing between the double-precision
/// pipe and the ALU takes a cycle more than within either (ptxas: ALU to
/// DMUL 6 cycles, DMUL to ALU 10): our MOV read by a DMUL 5 cycles later
/// gave the H100 a stale register (tests/runs/half_and_double.json). Within
/// one pipe nothing changes, and before SM90 double precision has a
/// scoreboard and reads late.
#[test]
fn results_crossing_into_and_out_of_the_fp64_pipe_take_a_cycle_more() {
    let src = "MOV R3, R1 ;\nDMUL R0, R0, R2 ;\nMOV R4, R1 ;\nIADD3 R5, R4, 0x1, RZ ;\nEXIT ;\n";
    let c = ctrl(&deps_on(src, Arch::Sm90));
    // MOV -> DMUL: 4 cycles, the margin and the crossing.
    assert_eq!(c[0], "[B------:R-:W-:-:S06]", "{c:?}");
    // DMUL -> MOV: 8 cycles, the margin and the crossing.
    assert_eq!(c[1], "[B------:R-:W-:-:S10]", "{c:?}");
    // MOV -> IADD3 within the ALU: 4 and the margin.
    assert_eq!(c[2], "[B------:R-:W-:-:S05]", "{c:?}");
    // On SM86 the DMUL has a scoreboard and reads a cycle late, as a
    // variable-latency op does; no crossing is added to that.
    let sm86 = ctrl(&deps_on(src, Arch::Sm86));
    assert_eq!(sm86[0], "[B------:R-:W-:-:S06]", "{sm86:?}");
    assert_eq!(sm86[1], "[B------:R-:W0:-:S01]", "{sm86:?}");
}

/// A DSETP's predicate has its own latency and no crossing cycle: its
/// reader stays within the 15 cycles one stall count can give.
#[test]
fn a_dsetp_predicate_read_by_sel_needs_no_crossing_cycle() {
    let src = "DSETP.GT.AND P0, PT, R0, R2, PT ;\nSEL R4, R1, RZ, P0 ;\nEXIT ;\n";
    let c = ctrl(&deps_on(src, Arch::Sm90));
    assert_eq!(c[0], "[B------:R-:W-:-:S15]", "{c:?}");
}

#[test]
fn a_load_address_overwritten_after_it_waits_for_the_read() {
    // Loads read their address after issue, as every variable-latency op
    // does (docs/ISA.md, "Control bits"): the MOV into R2 waits.
    let p = deps(
        "LDG.E R4, [R2.64] ;
         MOV R2, 0x5 ;
         EXIT ;",
    );
    assert_ne!(p[0].ctrl.read_sb, 7, "the load sets a read scoreboard");
    assert_eq!(p[1].ctrl.wait, 1 << p[0].ctrl.read_sb);
}

#[test]
fn a_barrier_stalls_and_yields() {
    let p = deps(
        "BAR.SYNC.DEFER_BLOCKING 0x0 ;
         LDS R0, [0x0] ;
         EXIT ;",
    );
    assert_eq!(p[0].ctrl.stall, spvsass_isa::timing::BAR_STALL);
    assert!(p[0].ctrl.yield_);
}
