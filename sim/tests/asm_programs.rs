//! Programs written in the assembler's syntax, run on the simulator: one
//! test per program (divergence and reconvergence, loops, warp-wide ops,
//! per-op edge cases). Each snippet leaves its result in R0; the harness
//! stores every lane's R0 to a global buffer whose address is in
//! c[0x0][0x0] and compares it with the expected value per lane.

use crate::common;

use spvsass_isa::asm::assemble;
use spvsass_sim::{Isbe, Launch, Program, Resources, SimError, SimOptions, run_workgroup};

/// R31 = lane, R28:R29 = &out[lane]; the snippet follows, then the store.
const PROLOGUE: &str = "
    S2R R31, SR_LANEID ;
    LDC.64 R28, c[0x0][0x0] ;
    IMAD.WIDE.U32 R28, R31, 0x4, R28 ;
";
const EPILOGUE: &str = "
    STG.E [R28.64], R0 ;
    EXIT ;
";

fn run(snippet: &str, lanes: u32) -> Result<Vec<u32>, SimError> {
    let src = format!("{PROLOGUE}{snippet}{EPILOGUE}");
    let asm = assemble(&src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let mut binary = asm.to_binary().expect("encodes");
    // The snippets carry no control bits: give them safe ones, which the
    // checker (on by default) then checks.
    common::with_safe_ctrl(&mut binary);
    let program = Program::decode(&binary.code, binary.arch)?;
    let mut res = Resources::default();
    let base = res.global.map(vec![0; lanes as usize * 4]);
    res.constants.set(0, base.to_le_bytes().to_vec());
    res.shared_bytes = 256;
    let launch = Launch {
        workgroup_size: [lanes, 1, 1],
        workgroup_id: [0; 3],
    };
    let options = SimOptions {
        max_steps: 10_000,
        ..SimOptions::default()
    };
    run_workgroup(
        &program,
        &launch,
        &mut Isbe::new(0, 4, 0),
        &mut res,
        &options,
    )?;
    let out = res.global.buffer(base).expect("mapped");
    Ok(out
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

macro_rules! programs {
    ($($name:ident($lanes:expr): $src:expr => $want:expr;)*) => {$(
        #[test]
        fn $name() {
            let got = run($src, $lanes).expect("runs");
            let want: &dyn Fn(u32) -> u32 = &$want;
            let want: Vec<u32> = (0..$lanes).map(want).collect();
            assert_eq!(got, want);
        }
    )*};
}

fn f(v: f32) -> u32 {
    v.to_bits()
}

programs! {
    if_else_reconverges(32): "
        ISETP.LT.U32.AND P0, PT, R31, 0x10, PT ;
        BSSY B0, join ;
    @!P0 BRA else ;
        IADD3 R0, R31, 0x64, RZ ;
        BRA join ;
    else:
        IMAD.U32 R0, R31, 0x2, RZ ;
    join:
        BSYNC B0 ;
        IADD3 R0, R0, 0x1000, RZ ;
    " => |l| if l < 16 { l + 100 } else { 2 * l } + 0x1000;

    loop_runs_lane_times(32): "
        MOV R0, RZ ;
        MOV R1, RZ ;
        BSSY B0, done ;
    top:
        ISETP.GE.U32.AND P0, PT, R1, R31, PT ;
    @P0 BRA done ;
        IADD3 R0, R0, R1, RZ ;
        IADD3 R1, R1, 0x1, RZ ;
        BRA top ;
    done:
        BSYNC B0 ;
    " => |l| l * l.saturating_sub(1) / 2;

    nested_divergence(32): "
        MOV R0, RZ ;
        LOP3.LUT R1, R31, 0x1, RZ, 0xc0, !PT ;
        ISETP.NE.U32.AND P0, PT, R1, RZ, PT ;
        BSSY B0, outer ;
    @!P0 BRA outer ;
        ISETP.LT.U32.AND P1, PT, R31, 0x8, PT ;
        BSSY B1, inner ;
    @!P1 BRA inner ;
        MOV R0, 0x7 ;
    inner:
        BSYNC B1 ;
        IADD3 R0, R0, 0x1, RZ ;
    outer:
        BSYNC B0 ;
    " => |l| if l % 2 == 1 { if l < 8 { 8 } else { 1 } } else { 0 };

    early_exit_does_not_block_reconvergence(32): "
        MOV R0, 0x5 ;
        ISETP.GE.U32.AND P0, PT, R31, 0x18, PT ;
        BSSY B0, join ;
    @!P0 BRA join ;
        STG.E [R28.64], R31 ;
        EXIT ;
    join:
        BSYNC B0 ;
    " => |l| if l >= 24 { l } else { 5 };

    shfl_bfly_sums_the_warp(32): "
        MOV R0, R31 ;
        SHFL.BFLY PT, R1, R0, 0x10, 0x1f ;
        IADD3 R0, R0, R1, RZ ;
        SHFL.BFLY PT, R1, R0, 0x8, 0x1f ;
        IADD3 R0, R0, R1, RZ ;
        SHFL.BFLY PT, R1, R0, 0x4, 0x1f ;
        IADD3 R0, R0, R1, RZ ;
        SHFL.BFLY PT, R1, R0, 0x2, 0x1f ;
        IADD3 R0, R0, R1, RZ ;
        SHFL.BFLY PT, R1, R0, 0x1, 0x1f ;
        IADD3 R0, R0, R1, RZ ;
    " => |_| 496;

    shfl_up_reports_range(32): "
        IMAD.U32 R1, R31, 0xa, RZ ;
        SHFL.UP P0, R0, R1, 0x3, 0x0 ;
    @!P0 MOV R0, 0xffffffff ;
    " => |l| if l >= 3 { (l - 3) * 10 } else { u32::MAX };

    shfl_idx_broadcasts(32): "
        IADD3 R1, R31, 0x100, RZ ;
        SHFL.IDX PT, R0, R1, 0x5, 0x1f ;
    " => |_| 0x105;

    shfl_down_in_segments_of_8(32): "
        MOV R1, R31 ;
        SHFL.DOWN PT, R0, R1, 0x1, 0x181f ;
    " => |l| if l % 8 == 7 { l } else { l + 1 };

    vote_ballot_and_all(32): "
        ISETP.LT.U32.AND P0, PT, R31, 0x4, PT ;
        VOTE.ANY R0, P1, P0 ;
        VOTE.ALL RZ, P2, P0 ;
    @P2 MOV R0, RZ ;
    " => |_| 0xf;

    match_any_groups_equal_values(32): "
        LOP3.LUT R1, R31, 0x3, RZ, 0xc0, !PT ;
        MATCH.ANY R0, R1 ;
    " => |l| 0x1111_1111 << (l % 4);

    redux_sum_and_signed_min(32): "
        REDUX.SUM R0, R31 ;
        IADD3 R1, R31, 0xfffffff0, RZ ;
        REDUX.MIN.S32 R2, R1 ;
        IADD3 R0, R0, R2, RZ ;
    " => |_| 496 - 16;

    warpsync_waits_for_diverged_lanes(32): "
        MOV R0, RZ ;
        ISETP.LT.U32.AND P0, PT, R31, 0x10, PT ;
    @P0 BRA sync ;
        MOV R0, 0x1 ;
    sync:
        WARPSYNC 0xffffffff ;
        REDUX.SUM R0, R0 ;
    " => |_| 16;

    shared_memory_and_atomics(32): "
        IMAD.U32 R1, R31, 0x4, RZ ;
        STS [R1], R31 ;
        BAR.SYNC.DEFER_BLOCKING 0x0 ;
        LOP3.LUT R2, R1, 0x4, RZ, 0x3c, !PT ;
        LDS R0, [R2] ;
        MOV R3, 0x1 ;
        ATOMS.ADD RZ, [0x80], R3 ;
        BAR.SYNC.DEFER_BLOCKING 0x0 ;
        LDS R3, [0x80] ;
        IMAD.U32 R0, R3, 0x100, R0 ;
    " => |l| 32 * 0x100 + (l ^ 1);

    add_64_with_carry(4): "
        MOV R2, 0xffffffff ;
        MOV R3, R31 ;
        IADD3 R4, P0, PT, R2, R31, RZ ;
        IADD3.X R5, PT, PT, R3, RZ, RZ, P0, !PT ;
        LEA R0, R5, R4, 0x8 ;
    " => |l| if l == 0 { 0xffff_ffff } else { (l + 1) * 256 + (l - 1) };

    // IMAD.HI adds the pair R4:R5 (l * 2^31 + 2^31) to the whole product
    // (docs/ISA.md): (l * 2^32 + 2^31) >> 32.
    imad_wide_and_hi(4): "
        MOV R2, 0x80000000 ;
        MOV R3, RZ ;
        IMAD.WIDE.U32 R4, R31, R2, R2 ;
        IMAD.HI.U32 R0, R31, 0x80000000, R4 ;
    " => |l| l;

    float_edge_cases(8): "
        I2F.U32 R1, R31 ;
        MUFU.RCP R2, R1 ;
        FADD.RZ R3, R2, R2 ;
        F2I.S32.TRUNC R0, R3 ;
    " => |l| if l == 0 { i32::MAX as u32 } else { (2.0f32 / l as f32) as i32 as u32 };

    // The H100 converts a NaN to 0x80000000, unsigned too (tests/op_truth.rs).
    f2i_of_nan_is_0x80000000(1): "
        MUFU.RSQ R1, -R31 ;
        MOV R1, 0xbf800000 ;
        MUFU.RSQ R1, R1 ;
        F2I.U32.TRUNC R0, R1 ;
    " => |_| 0x8000_0000;

    frnd_and_half_conversion(4): "
        I2F.S32 R1, R31 ;
        FMUL R1, R1, 0x3fc00000 ;
        FRND R2, R1 ;
        F2F.F16.F32 R3, R2 ;
        F2F.F32.F16 R0, R3 ;
    " => |l| f((l as f32 * 1.5).round_ties_even());

    shifts_of_32_and_more(1): "
        MOV R1, 0x1 ;
        SHF.L.U32 R2, R1, 0x20, RZ ;
        SHF.L.W.U32 R3, R1, 0x21, RZ ;
        IADD3 R0, R2, R3, RZ ;
    " => |_| 2;

    predicate_logic(8): "
        LOP3.LUT R1, R31, 0x1, RZ, 0xc0, !PT ;
        ISETP.NE.U32.AND P0, PT, R1, RZ, PT ;
        ISETP.LT.U32.AND P1, PT, R31, 0x4, PT ;
        PLOP3.LUT P2, PT, P0, P1, PT, 0x3c, 0x0 ;
        MOV R2, 0x1 ;
        SEL R0, R2, RZ, P2 ;
    " => |l| u32::from((l % 2 == 1) != (l < 4));
}

#[test]
fn shuffle_from_an_absent_lane_is_an_error() {
    let err = run("    SHFL.BFLY PT, R0, R31, 0x10, 0x1f ;\n", 16).expect_err("lane 16 is absent");
    assert_eq!(
        err,
        SimError::ShuffleFromInactive {
            pc: 0x30,
            lane: 0,
            from: 16
        }
    );
}

#[test]
fn warpsync_for_exited_lanes_is_released() {
    let got = run(
        "
        MOV R0, 0x3 ;
        ISETP.GE.U32.AND P0, PT, R31, 0x2, PT ;
    @P0 EXIT ;
        WARPSYNC 0xffffffff ;
    ",
        4,
    )
    .expect("runs");
    assert_eq!(got, [3, 3, 0, 0]);
}

#[test]
fn wide_constant_bank_operand_reads_two_words() {
    // c[0x0][0x0] holds the buffer base, 0x1_0000_0000 (both words):
    // out[lane] = the low word of base + lane*4 if the high word is right.
    let got = run(
        "
        MOV R6, 0x4 ;
        IMAD.WIDE.U32 R4, R31, R6, c[0x0][0x0] ;
        IADD3 R0, R4, RZ, RZ ;
        ISETP.EQ.U32.AND P0, PT, R5, c[0x0][0x4], PT ;
    @!P0 MOV R0, RZ ;
    ",
        4,
    )
    .expect("runs");
    assert_eq!(spvsass_sim::BUFFER_STRIDE, 1 << 32);
    assert_eq!(got, [0, 4, 8, 12]);
}
