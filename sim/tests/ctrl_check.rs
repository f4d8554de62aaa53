//! The control-bit hazard checker (`SimOptions::check_ctrl`): hand-written
//! programs with exact stall counts and scoreboards, one hazard each, and
//! the same programs with the bits that make them safe.

use crate::common;

use common::*;
use spvsass_isa::isa::{Ctrl, Instr, IntCmp, SpecialReg};
use spvsass_sim::{CtrlHazard, SimError};

/// `ins` with stall `stall`, write/read scoreboards and a wait mask.
fn bits(ins: Instr, stall: u8, write_sb: u8, read_sb: u8, wait: u8) -> Instr {
    Instr {
        ctrl: Ctrl {
            stall,
            write_sb,
            read_sb,
            wait,
            ..Ctrl::default()
        },
        ..ins
    }
}

fn stall(ins: Instr, n: u8) -> Instr {
    bits(ins, n, 7, 7, 0)
}

fn hazard(r: Result<(), SimError>) -> CtrlHazard {
    match r {
        Err(SimError::Ctrl(h)) => *h,
        other => panic!("expected a control-bit hazard, got {other:?}"),
    }
}

#[test]
fn an_alu_result_is_readable_after_its_latency_and_margin() {
    // MOV is fixed(4) plus the one-cycle margin: 5 cycles.
    let program = |n| {
        vec![
            stall(mov(1, imm(7)), n),
            stall(iadd3(2, reg(1), imm(1), RZ), 1),
            stall(exit(), 5),
        ]
    };
    assert_eq!(try_run_as_scheduled(&program(5), 32), Ok(()));
    let h = hazard(try_run_as_scheduled(&program(4), 32));
    let CtrlHazard::ReadBeforeLatency {
        pc,
        ref reg,
        short,
        producer_pc,
        ref text,
        ref producer_text,
        ..
    } = h
    else {
        panic!("{h:?}")
    };
    assert_eq!((pc, producer_pc, reg.as_str(), short), (0x10, 0, "R1", 1));
    assert!(text.starts_with("IADD3 R2") && producer_text.starts_with("MOV R1"));
    let message = SimError::Ctrl(Box::new(h.clone())).to_string();
    assert!(
        message.contains("/*0010*/") && message.contains("/*0000*/"),
        "{message}"
    );
}

#[test]
fn stalls_add_up_across_instructions() {
    // Two 2-cycle stalls and the consumer's turn: 1 + 2 + 2 = 5 cycles.
    let program = vec![
        stall(mov(1, imm(7)), 1),
        stall(mov(3, imm(1)), 2),
        stall(mov(4, imm(1)), 2),
        stall(iadd3(2, reg(1), imm(1), RZ), 1),
        stall(exit(), 5),
    ];
    assert_eq!(try_run_as_scheduled(&program, 32), Ok(()));
}

#[test]
fn a_predicate_of_a_setp_is_read_13_cycles_later_by_a_guard() {
    let program = |n| {
        vec![
            stall(isetp(0, IntCmp::Eq, RZ, RZ), n),
            stall(guarded(p(0), mov(1, imm(1))), 1),
            stall(exit(), 5),
        ]
    };
    assert_eq!(try_run_as_scheduled(&program(13), 32), Ok(()));
    let h = hazard(try_run_as_scheduled(&program(12), 32));
    assert!(
        matches!(&h, CtrlHazard::ReadBeforeLatency { reg, short: 1, .. } if reg == "P0"),
        "{h:?}"
    );
}

#[test]
fn a_variable_latency_result_needs_its_scoreboard_waited_on() {
    let program = |wait| {
        vec![
            bits(s2r(1, SpecialReg::LaneId), 1, 2, 7, 0),
            bits(iadd3(2, reg(1), imm(1), RZ), 1, 7, 7, wait),
            stall(exit(), 5),
        ]
    };
    assert_eq!(try_run_as_scheduled(&program(1 << 2), 32), Ok(()));
    let h = hazard(try_run_as_scheduled(&program(1 << 3), 32));
    assert!(
        matches!(&h, CtrlHazard::ReadBeforeScoreboard { reg, sb: 2, pc: 0x10, producer_pc: 0, .. } if reg == "R1"),
        "{h:?}"
    );
    assert!(
        SimError::Ctrl(Box::new(h))
            .to_string()
            .contains("write scoreboard SB2"),
    );
}

#[test]
fn a_variable_latency_result_without_a_scoreboard_is_never_safe() {
    let program = vec![
        bits(s2r(1, SpecialReg::LaneId), 15, 7, 7, 0),
        bits(iadd3(2, reg(1), imm(1), RZ), 1, 7, 7, 0b11_1111),
        stall(exit(), 5),
    ];
    let h = hazard(try_run_as_scheduled(&program, 32));
    assert!(
        matches!(h, CtrlHazard::ReadBeforeScoreboard { sb: 7, .. }),
        "{h:?}"
    );
}

#[test]
fn a_late_reader_s_register_is_not_overwritten_before_its_read_scoreboard() {
    let program = |wait| {
        vec![
            stall(mov(1, imm(5)), 6),
            bits(attr_out(0, reg(1)), 1, 7, 4, 0),
            bits(mov(1, imm(6)), 1, 7, 7, wait),
            stall(exit(), 5),
        ]
    };
    assert_eq!(try_run_as_scheduled(&program(1 << 4), 32), Ok(()));
    let h = hazard(try_run_as_scheduled(&program(0), 32));
    assert!(
        matches!(&h, CtrlHazard::WriteBeforeRead { reg, sb: 4, pc: 0x20, reader_pc: 0x10, .. } if reg == "R1"),
        "{h:?}"
    );
}

#[test]
fn a_pending_variable_write_is_not_overwritten_before_its_scoreboard() {
    let program = vec![
        bits(s2r(1, SpecialReg::LaneId), 1, 0, 7, 0),
        stall(mov(1, imm(6)), 1),
        stall(exit(), 5),
    ];
    let h = hazard(try_run_as_scheduled(&program, 32));
    assert!(
        matches!(
            h,
            CtrlHazard::WriteBeforeWrite {
                sb: 0,
                pc: 0x10,
                ..
            }
        ),
        "{h:?}"
    );
}

#[test]
fn lanes_that_skip_a_path_do_not_count_its_stalls() {
    // Lanes 0..15 branch over a 15-cycle stall straight to the consumer of
    // R1; lanes 16..31 run it. The two groups meet at the IADD3 and issue
    // it together, but on the lanes that jumped only the MOV's and the
    // BRA's stalls lie between the MOV and the IADD3.
    let program = |mov_stall| {
        vec![
            bits(s2r(3, SpecialReg::LaneId), 1, 0, 7, 0),
            bits(isetp(0, IntCmp::Lt, reg(3), imm(16)), 13, 7, 7, 1),
            stall(mov(1, imm(9)), mov_stall),
            stall(guarded(p(0), bra(0x50)), 1),
            stall(mov(4, imm(1)), 15),
            stall(iadd3(2, reg(1), imm(1), RZ), 1),
            stall(exit(), 5),
        ]
    };
    assert_eq!(try_run_as_scheduled(&program(4), 32), Ok(()));
    let h = hazard(try_run_as_scheduled(&program(3), 32));
    assert!(
        matches!(&h, CtrlHazard::ReadBeforeLatency { reg, pc: 0x50, producer_pc: 0x20, lane, short: 1, .. } if reg == "R1" && *lane < 16),
        "{h:?}"
    );
}

#[test]
fn a_barrier_stalls_long_enough_for_the_warp_to_stop_at_it() {
    use spvsass_isa::isa::{Op, OpBar};
    let program = |n| {
        vec![
            stall(Instr::new(Op::Bar(OpBar)), n),
            stall(mov(1, imm(6)), 1),
            stall(exit(), 5),
        ]
    };
    let min = spvsass_isa::timing::BAR_STALL;
    assert_eq!(try_run_as_scheduled(&program(min), 32), Ok(()));
    let h = hazard(try_run_as_scheduled(&program(min - 1), 32));
    assert!(
        matches!(h, CtrlHazard::BarrierStall { pc: 0, stall, .. } if stall == min - 1),
        "{h:?}"
    );
}

#[test]
fn every_variable_latency_op_reads_its_sources_late() {
    // I2F's source, overwritten right after it: a hazard unless its read
    // scoreboard, or its write scoreboard (a result written means the
    // source was read), was waited on.
    let program = |read_sb, wait| {
        vec![
            stall(mov(2, imm(7)), 6),
            bits(i2f(3, reg(2)), 1, 1, read_sb, 0),
            bits(mov(2, imm(6)), 1, 7, 7, wait),
            stall(exit(), 5),
        ]
    };
    assert_eq!(try_run_as_scheduled(&program(2, 1 << 2), 32), Ok(()));
    assert_eq!(try_run_as_scheduled(&program(7, 1 << 1), 32), Ok(()));
    let h = hazard(try_run_as_scheduled(&program(2, 0), 32));
    assert!(
        matches!(&h, CtrlHazard::WriteBeforeRead { reg, sb: 2, pc: 0x20, reader_pc: 0x10, .. } if reg == "R2"),
        "{h:?}"
    );
}
