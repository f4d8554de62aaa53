//! Divergence, reconvergence, loops and the lane-identity special
//! registers, checked per lane through SKEW writes to the output ATTR region.

use crate::common;

use common::*;
use spvsass_isa::isa::{FloatArith, IntCmp, OpLop3, SpecialReg};
use std::collections::BTreeMap;

/// `if (lane < 16) r = lane + 100; else r = lane * 2;` then `r | 0x10000`
/// after the join, in the usual layout (else block before the join).
#[test]
fn if_else_reconverges() {
    let program = vec![
        /* 0x00 */ s2r(0, SpecialReg::LaneId),
        /* 0x10 */ isetp(0, IntCmp::Lt, reg(0), imm(16)),
        /* 0x20 */ bssy(0, 0x70),
        /* 0x30 */ guarded(not_p(0), bra(0x60)),
        /* 0x40 */ iadd3(1, reg(0), imm(100), RZ),
        /* 0x50 */ bra(0x70),
        /* 0x60 */ imad(1, reg(0), imm(2), RZ),
        /* 0x70 */ bsync(0),
        /* 0x80 */ lop3(2, reg(1), imm(0x10000), RZ, OpLop3::A | OpLop3::B),
        /* 0x90 */ attr_out(0, reg(2)),
        /* 0xa0 */ exit(),
    ];
    let (isbe, counters) = run_lanes(&program, [32, 1, 1], 1);
    for lane in 0..32 {
        let r = if lane < 16 { lane + 100 } else { lane * 2 };
        assert_eq!(lane_word(&isbe, 0, lane), r | 0x10000, "lane {lane}");
    }
    let expected: BTreeMap<&str, u64> = [
        ("S2R", 1),
        ("ISETP", 1),
        ("BSSY", 1),
        ("BRA", 2),
        ("IADD3", 1),
        ("IMAD", 1),
        ("BSYNC", 1),
        ("LOP3", 1),
        ("ISBEWR", 1),
        ("EXIT", 1),
    ]
    .into_iter()
    .collect();
    assert_eq!(counters.per_op, expected);
    assert_eq!(counters.warp_instructions, 11);
    // 7 instructions with all 32 lanes, the guarded BRA, both arms and the
    // then-arm's BRA with 16.
    assert_eq!(counters.thread_instructions, 7 * 32 + 4 * 16);
}

/// The else block placed after the join: lanes 0-15 reach the BSYNC first
/// and must wait there for lanes 16-31, which come back from 0x90.
#[test]
fn bsync_waits_for_late_lanes() {
    let program = vec![
        /* 0x00 */ s2r(0, SpecialReg::LaneId),
        /* 0x10 */ isetp(0, IntCmp::Lt, reg(0), imm(16)),
        /* 0x20 */ bssy(3, 0x50),
        /* 0x30 */ guarded(not_p(0), bra(0x90)),
        /* 0x40 */ iadd3(1, reg(0), imm(100), RZ),
        /* 0x50 */ bsync(3),
        /* 0x60 */ lop3(2, reg(1), imm(0x10000), RZ, OpLop3::A | OpLop3::B),
        /* 0x70 */ attr_out(0, reg(2)),
        /* 0x80 */ exit(),
        /* 0x90 */ imad(1, reg(0), imm(2), RZ),
        /* 0xa0 */ bra(0x50),
    ];
    let (isbe, counters) = run_lanes(&program, [32, 1, 1], 1);
    for lane in 0..32 {
        let r = if lane < 16 { lane + 100 } else { lane * 2 };
        assert_eq!(lane_word(&isbe, 0, lane), r | 0x10000, "lane {lane}");
    }
    // Each half arrives at the BSYNC on its own; after it, one warp-wide
    // instruction each.
    assert_eq!(counters.per_op["BSYNC"], 2);
    assert_eq!(counters.per_op["LOP3"], 1);
    assert_eq!(counters.per_op["ISBEWR"], 1);
    assert_eq!(counters.per_op["EXIT"], 1);
    assert_eq!(counters.thread_instructions, 6 * 32 + 6 * 16);
}

/// A lane that exits inside the region no longer holds the others at the
/// BSYNC.
#[test]
fn exited_lanes_do_not_block_bsync() {
    let program = vec![
        /* 0x00 */ s2r(0, SpecialReg::LaneId),
        /* 0x10 */ isetp(0, IntCmp::Eq, reg(0), imm(31)),
        /* 0x20 */ bssy(0, 0x50),
        /* 0x30 */ guarded(p(0), exit()),
        /* 0x40 */ iadd3(1, reg(0), imm(7), RZ),
        /* 0x50 */ bsync(0),
        /* 0x60 */ attr_out(0, reg(1)),
        /* 0x70 */ exit(),
    ];
    let (isbe, counters) = run_lanes(&program, [32, 1, 1], 1);
    for lane in 0..31 {
        assert_eq!(lane_word(&isbe, 0, lane), lane + 7, "lane {lane}");
    }
    assert_eq!(lane_word(&isbe, 0, 31), 0, "lane 31 exited before writing");
    assert_eq!(counters.per_op["ISBEWR"], 1);
    assert_eq!(counters.thread_instructions, 3 * 32 + 1 + 4 * 31);
}

/// `acc = 0; for (i = 0; i <= lane; i++) acc += i;`: lane L loops L + 1
/// times; the lanes meet again after the loop without a barrier, because
/// the scheduler runs the lowest pc first.
#[test]
fn loop_with_per_lane_trip_counts() {
    let program = vec![
        /* 0x00 */ s2r(0, SpecialReg::LaneId),
        /* 0x10 */ mov(1, RZ),
        /* 0x20 */ mov(2, RZ),
        /* 0x30 */ iadd3(1, reg(1), reg(2), RZ),
        /* 0x40 */ iadd3(2, reg(2), imm(1), RZ),
        /* 0x50 */ isetp(0, IntCmp::Le, reg(2), reg(0)),
        /* 0x60 */ guarded(p(0), bra(0x30)),
        /* 0x70 */ attr_out(0, reg(1)),
        /* 0x80 */ attr_out(0x80, reg(2)),
        /* 0x90 */ exit(),
    ];
    let (isbe, counters) = run_lanes(&program, [32, 1, 1], 2);
    for lane in 0..32 {
        assert_eq!(
            lane_word(&isbe, 0, lane),
            lane * (lane + 1) / 2,
            "sum, lane {lane}"
        );
        assert_eq!(
            lane_word(&isbe, 1, lane),
            lane + 1,
            "trip count, lane {lane}"
        );
    }
    // 32 iterations of the 4-instruction body (lane 31 runs them all).
    assert_eq!(counters.per_op["BRA"], 32);
    assert_eq!(counters.per_op["IADD3"], 64);
    assert_eq!(counters.per_op["ISBEWR"], 2);
    assert_eq!(counters.warp_instructions, 3 + 32 * 4 + 3);
    // Body: lane L runs 4 instructions L + 1 times; the BRA's guard fails
    // on each lane's last iteration.
    let body: u64 = (0..32u64).map(|l| 4 * (l + 1)).sum();
    assert_eq!(counters.thread_instructions, 3 * 32 + body - 32 + 3 * 32);
}

/// SR_TID.X/Y/Z unpack the lane over a 4x2x2 workgroup; the lane masks.
#[test]
fn thread_ids_and_lane_masks() {
    let program = vec![
        s2r(0, SpecialReg::TidX),
        s2r(1, SpecialReg::TidY),
        s2r(2, SpecialReg::TidZ),
        s2r(3, SpecialReg::EqMask),
        s2r(4, SpecialReg::LtMask),
        s2r(5, SpecialReg::LeMask),
        s2r(6, SpecialReg::GtMask),
        s2r(7, SpecialReg::GeMask),
        s2r(8, SpecialReg::LaneId),
        attr_out(0x000, reg(0)),
        attr_out(0x080, reg(1)),
        attr_out(0x100, reg(2)),
        attr_out(0x180, reg(3)),
        attr_out(0x200, reg(4)),
        attr_out(0x280, reg(5)),
        attr_out(0x300, reg(6)),
        attr_out(0x380, reg(7)),
        attr_out(0x400, reg(8)),
        exit(),
    ];
    let (isbe, counters) = run_lanes(&program, [4, 2, 2], 9);
    for lane in 0..16u32 {
        assert_eq!(lane_word(&isbe, 0, lane), lane % 4, "x, lane {lane}");
        assert_eq!(lane_word(&isbe, 1, lane), lane / 4 % 2, "y, lane {lane}");
        assert_eq!(lane_word(&isbe, 2, lane), lane / 8, "z, lane {lane}");
        let eq = 1u32 << lane;
        assert_eq!(lane_word(&isbe, 3, lane), eq);
        assert_eq!(lane_word(&isbe, 4, lane), eq - 1);
        assert_eq!(lane_word(&isbe, 5, lane), (eq << 1).wrapping_sub(1));
        assert_eq!(lane_word(&isbe, 6, lane), !((eq << 1).wrapping_sub(1)));
        assert_eq!(lane_word(&isbe, 7, lane), !(eq - 1));
        assert_eq!(lane_word(&isbe, 8, lane), lane);
    }
    // Lanes 16-31 are not launched: their slots stay zero.
    assert!((16..32).all(|lane| lane_word(&isbe, 8, lane) == 0 && lane_word(&isbe, 3, lane) == 0));
    assert_eq!(counters.thread_instructions, 19 * 16);
}

/// Float arithmetic, I2F and SEL through the ISA's eval: each lane
/// computes lane * 0.5 + 1 and picks it or 0 by a predicate.
#[test]
fn float_ops_and_sel() {
    let program = vec![
        s2r(0, SpecialReg::LaneId),
        i2f(1, reg(0)),
        farith(FloatArith::Mul, 2, reg(1), imm(f(0.5))),
        farith(FloatArith::Add, 2, reg(2), imm(f(1.0))),
        isetp(1, IntCmp::Ge, reg(0), imm(4)),
        sel(3, reg(2), RZ, not_p(1)),
        attr_out(0, reg(3)),
        exit(),
    ];
    let (isbe, _) = run_lanes(&program, [8, 1, 1], 1);
    for lane in 0..8u32 {
        let expected = if lane < 4 {
            lane as f32 * 0.5 + 1.0
        } else {
            0.0
        };
        assert_eq!(
            f32::from_bits(lane_word(&isbe, 0, lane)),
            expected,
            "lane {lane}"
        );
    }
}
