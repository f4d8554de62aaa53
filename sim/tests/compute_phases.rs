//! A few large workgroups run their warps side by side between barriers
//! (`warp_phases.rs`), and the result must be that of running the warps in
//! turns: each dispatch here runs on 1, 2, 3 and 4 threads (at 1 in turns,
//! from 2 on side by side: three workgroups are fewer than four per
//! thread) and must give the same bytes or the same error every time, and
//! the values the turn order defines. Workgroups of 128 invocations, four
//! warps; R0 = workgroup x, R1 = invocation x, R2:R3 and R4:R5 = buffers 0
//! and 1 (`compute_parallel::with_shared_memory`).

use crate::compute_parallel::{
    assert_step_limit_in_warp_2, bytes, rounds_to, unchecked_on_1_to_4_threads, with_shared_memory,
    words,
};
use spvsass_isa::binary::Binary;
use spvsass_sim::{ComputeInputs, SimError, SimOptions, Space, Tier, run_compute};

const GROUPS: u32 = 3;
const LANES: u32 = 128;

/// Sets P1 for each warp's lane 0 and R13 = 4 × the warp's index.
const LANE_0: &str = "
    LOP3.LUT R9, R1, 0x1f, RZ, 0xc0, !PT ;
    ISETP.EQ.U32.AND P1, PT, R9, RZ, PT ;
    SHF.R.U32.HI R13, RZ, 0x3, R1 ;
";

/// Each workgroup adds its 128 words of buffer 0 in a tree in shared
/// memory, a barrier after each level, and stores the sum at buffer1[x].
/// Every round's warps read only what earlier rounds wrote: all are kept
/// side by side.
#[test]
fn a_tree_in_shared_memory_sums_each_workgroup() {
    let (program, buffers) = tree();
    let run = unchecked_on_1_to_4_threads(&program, GROUPS, &buffers, SimOptions::default())
        .expect("runs");
    let want: Vec<u32> = words(&buffers[0])
        .chunks(LANES as usize)
        .map(|c| c.iter().fold(0u32, |a, &v| a.wrapping_add(v)))
        .collect();
    assert_eq!(words(&run.buffers[&1]), want);
}

/// The tree of `a_tree_in_shared_memory_sums_each_workgroup`, and its
/// buffers.
fn tree() -> (Binary, [Vec<u8>; 2]) {
    let mut body = String::from(
        "
        IMAD R8, R0, 0x80, R1 ;
        IMAD.WIDE.U32 R10, R8, 0x4, R2 ;
        LDG.E R12, [R10.64] ;
        IMAD R7, R1, 0x4, RZ ;
        STS [R7], R12 ;
        BAR.SYNC.DEFER_BLOCKING 0x0 ;
        ",
    );
    for s in [64, 32, 16, 8, 4, 2, 1] {
        body += &format!(
            "
            ISETP.LT.U32.AND P0, PT, R1, {s:#x}, PT ;
        @P0 LDS R14, [R7] ;
        @P0 LDS R15, [R7+{:#x}] ;
        @P0 IADD3 R14, R14, R15, RZ ;
        @P0 STS [R7], R14 ;
            BAR.SYNC.DEFER_BLOCKING 0x0 ;
            ",
            s * 4
        );
    }
    body += "
        ISETP.EQ.U32.AND P0, PT, R1, RZ, PT ;
    @P0 LDS R14, [RZ] ;
        IMAD.WIDE.U32 R10, R0, 0x4, R4 ;
    @P0 STG.E [R10.64], R14 ;
    ";
    let input: Vec<u32> = (0..GROUPS * LANES)
        .map(|i| i.wrapping_mul(2_654_435_761))
        .collect();
    (
        with_shared_memory(&body, LANES, LANES * 4),
        [bytes(&input), vec![0; GROUPS as usize * 4]],
    )
}

/// In one round, lane 0 of warp k reads shared[k] and writes it plus one
/// at shared[k + 1]: in turns warp k reads what warp k - 1 wrote just
/// before. Side by side warps 1.. read 0 and are run again in turns.
#[test]
fn a_warp_reading_an_earlier_warps_shared_write_of_the_round_sees_it() {
    let body = format!(
        "
        {LANE_0}
    @P1 LDS R14, [R13] ;
    @P1 IADD3 R14, R14, 0x1, RZ ;
    @P1 STS [R13+0x4], R14 ;
        BAR.SYNC.DEFER_BLOCKING 0x0 ;
        ISETP.LT.U32.AND P0, PT, R1, 0x5, PT ;
        IMAD R7, R1, 0x4, RZ ;
    @P0 LDS R14, [R7] ;
        IMAD R8, R0, 0x8, R1 ;
        IMAD.WIDE.U32 R10, R8, 0x4, R4 ;
    @P0 STG.E [R10.64], R14 ;
        "
    );
    let run = unchecked_on_1_to_4_threads(
        &with_shared_memory(&body, LANES, 32),
        GROUPS,
        &[vec![], vec![0; GROUPS as usize * 32]],
        SimOptions::default(),
    )
    .expect("runs");
    let want: Vec<u32> = (0..GROUPS).flat_map(|_| [0, 1, 2, 3, 4, 0, 0, 0]).collect();
    assert_eq!(words(&run.buffers[&1]), want);
}

/// Every invocation adds 1 to one shared word and stores the old value at
/// its index: in turns, warp by warp and lane by lane, 0..128.
#[test]
fn shared_atomics_return_the_turn_orders_old_values() {
    let body = "
        MOV R6, 0x1 ;
        ATOMS.ADD R7, [RZ], R6 ;
        BAR.SYNC.DEFER_BLOCKING 0x0 ;
        IMAD R8, R0, 0x80, R1 ;
        IMAD.WIDE.U32 R10, R8, 0x4, R4 ;
        STG.E [R10.64], R7 ;
    ";
    let run = unchecked_on_1_to_4_threads(
        &with_shared_memory(body, LANES, 4),
        GROUPS,
        &[vec![], vec![0; (GROUPS * LANES) as usize * 4]],
        SimOptions::default(),
    )
    .expect("runs");
    let want: Vec<u32> = (0..GROUPS * LANES).map(|i| i % LANES).collect();
    assert_eq!(words(&run.buffers[&1]), want);
}

/// In the first round every invocation doubles its word of buffer 0; after
/// the barrier it reads the word of the invocation 32 away (another
/// warp's, written a round before) into buffer 1. In a parallel attempt a
/// round's copies of global memory do not hold the workgroup's earlier
/// writes: such a read is run again in turn.
#[test]
fn a_warp_reading_global_bytes_written_in_an_earlier_round_sees_them() {
    let body = "
        IMAD R8, R0, 0x80, R1 ;
        IMAD.WIDE.U32 R10, R8, 0x4, R2 ;
        LDG.E R12, [R10.64] ;
        IADD3 R12, R12, R12, RZ ;
        STG.E [R10.64], R12 ;
        BAR.SYNC.DEFER_BLOCKING 0x0 ;
        LOP3.LUT R9, R8, 0x20, RZ, 0x3c, !PT ;
        IMAD.WIDE.U32 R10, R9, 0x4, R2 ;
        LDG.E R12, [R10.64] ;
        IMAD.WIDE.U32 R10, R8, 0x4, R4 ;
        STG.E [R10.64], R12 ;
    ";
    let n = GROUPS * LANES;
    let input: Vec<u32> = (0..n).map(|i| i + 1).collect();
    let run = unchecked_on_1_to_4_threads(
        &with_shared_memory(body, LANES, 0),
        GROUPS,
        &[bytes(&input), vec![0; n as usize * 4]],
        SimOptions::default(),
    )
    .expect("runs");
    let want: Vec<u32> = (0..n).map(|i| ((i ^ 32) + 1) * 2).collect();
    assert_eq!(words(&run.buffers[&1]), want);
}

/// One workgroup (run outside a parallel attempt, on the real memory):
/// in one round, invocation i reads buffer0[i] and stores it plus one at
/// buffer0[i + 32], which the next warp reads in its turn. Side by side
/// warps 1.. read the words as they were and are run again in turns.
#[test]
fn a_warp_reading_an_earlier_warps_global_write_of_the_round_sees_it() {
    let body = "
        IMAD.WIDE.U32 R10, R1, 0x4, R2 ;
        LDG.E R12, [R10.64] ;
        IADD3 R12, R12, 0x1, RZ ;
        STG.E [R10.64+0x80], R12 ;
        BAR.SYNC.DEFER_BLOCKING 0x0 ;
    ";
    let n = LANES + 32;
    let run = unchecked_on_1_to_4_threads(
        &with_shared_memory(body, LANES, 0),
        1,
        &[vec![0; n as usize * 4]],
        SimOptions::default(),
    )
    .expect("runs");
    let want: Vec<u32> = (0..n).map(|i| i / 32).collect();
    assert_eq!(words(&run.buffers[&0]), want);
}

/// Lane 0 of warp k loads shared[k] and then from shared address
/// (4k - shared[k]) × 0x10000, after warp k - 1 stored 4k at shared[k] in
/// the same round: in turns that address is 0; side by side warps 1.. read
/// 0 and fault out of bounds, which must not be the dispatch's result.
#[test]
fn a_warp_failing_only_side_by_side_is_run_in_turn() {
    let body = format!(
        "
        {LANE_0}
    @P1 LDS R14, [R13] ;
    @P1 IADD3 R15, R13, 0x4, RZ ;
    @P1 STS [R13+0x4], R15 ;
    @P1 IADD3 R15, R13, -R14, RZ ;
    @P1 IMAD R15, R15, 0x10000, RZ ;
    @P1 LDS R16, [R15] ;
        BAR.SYNC.DEFER_BLOCKING 0x0 ;
        IMAD R8, R0, 0x80, R1 ;
        IMAD.WIDE.U32 R10, R8, 0x4, R4 ;
    @P1 STG.E [R10.64], R14 ;
        "
    );
    let n = GROUPS * LANES;
    let run = unchecked_on_1_to_4_threads(
        &with_shared_memory(&body, LANES, 32),
        GROUPS,
        &[vec![], vec![0; n as usize * 4]],
        SimOptions::default(),
    )
    .expect("runs in turns");
    let want: Vec<u32> = (0..n)
        .map(|i| if i % 32 == 0 { (i % LANES) / 8 } else { 0 })
        .collect();
    assert_eq!(words(&run.buffers[&1]), want);
}

/// Lanes of warp 2 read past the shared memory in the second round; warp
/// 3 would too, and so would every warp in the third: the error is warp
/// 2's, in workgroup 0, at its first lane.
#[test]
fn an_error_in_a_later_round_is_the_turn_orders() {
    let body = "
        IMAD R7, R1, 0x4, RZ ;
        STS [R7], R1 ;
        BAR.SYNC.DEFER_BLOCKING 0x0 ;
        ISETP.GE.U32.AND P0, PT, R1, 0x40, PT ;
    @P0 LDS R14, [R7+0x100] ;
        BAR.SYNC.DEFER_BLOCKING 0x0 ;
        LDS R14, [R7+0x200] ;
    ";
    let err = unchecked_on_1_to_4_threads(
        &with_shared_memory(body, LANES, LANES * 4),
        GROUPS,
        &[vec![], vec![]],
        SimOptions::default(),
    )
    .expect_err("warp 2 reads out of bounds");
    let SimError::InWorkgroup { workgroup, error } = &err else {
        panic!("{err}")
    };
    assert_eq!(*workgroup, [0, 0, 0], "{err}");
    let SimError::InWarp { warp: 2, error } = error.as_ref() else {
        panic!("{err}")
    };
    let SimError::Memory {
        lane, space, addr, ..
    } = error.as_ref()
    else {
        panic!("{err}")
    };
    assert_eq!((*lane, *space, *addr), (0, Space::Shared, 0x200), "{err}");
}

/// Two loops of `rounds_to` with a barrier between, then each lane's sum
/// stored at its index of buffer 0.
fn two_loops() -> Binary {
    let body = format!(
        "
    MOV R20, RZ ;
    {}
    BAR.SYNC.DEFER_BLOCKING 0x0 ;
    {}
    IMAD R8, R0, 0x80, R1 ;
    IMAD.WIDE.U32 R10, R8, 0x4, R2 ;
    STG.E [R10.64], R20 ;
",
        rounds_to("first"),
        rounds_to("second")
    );
    with_shared_memory(&body, LANES, 4)
}

/// The step budget is the workgroup's, counted in turn order: with one
/// that the first round of all four warps and the second of two fit, but
/// not the third's second round, the run stops in warp 2 at the budget,
/// however many threads.
#[test]
fn the_step_budget_counts_rounds_in_turn_order() {
    let program = two_loops();
    let buffers = [vec![0; (GROUPS * LANES) as usize * 4]];
    let whole = unchecked_on_1_to_4_threads(&program, GROUPS, &buffers, SimOptions::default())
        .expect("runs");
    assert_eq!(words(&whole.buffers[&0])[0], 2 * (0..64).sum::<u32>());
    let per_warp = whole.counters.warp_instructions / u64::from(GROUPS) / 4;
    // Rounds of about half a warp's steps each: 4 + 2.5 halves.
    let budget = per_warp * 13 / 4;
    let err = unchecked_on_1_to_4_threads(
        &program,
        GROUPS,
        &buffers,
        SimOptions {
            max_steps: budget,
            ..SimOptions::default()
        },
    )
    .expect_err("warp 2's second round passes the budget");
    assert_step_limit_in_warp_2(&err, budget);
}

/// The native tier's runs through a round side by side give the
/// interpreter's result in turns: the tree, and the two loops (which run
/// natively) also with a step budget that a warp's second round passes,
/// on 1 to 4 threads.
#[test]
fn native_runs_side_by_side_are_the_interpreters_in_turns() {
    let loops = two_loops();
    let loop_buffers = [vec![0; (GROUPS * LANES) as usize * 4]];
    let (tree, tree_buffers) = tree();
    let budget = SimOptions {
        max_steps: 2_000,
        ..SimOptions::default()
    };
    for (binary, buffers, options) in [
        (&tree, &tree_buffers[..], SimOptions::default()),
        (&loops, &loop_buffers[..], SimOptions::default()),
        (&loops, &loop_buffers[..], budget),
    ] {
        let run = |tier, threads| {
            let inputs = ComputeInputs {
                buffers: (0..).zip(buffers.iter().cloned()).collect(),
                ..Default::default()
            };
            let options = SimOptions {
                tier,
                check_ctrl: false,
                threads: std::num::NonZeroUsize::new(threads),
                ..options
            };
            run_compute(binary, [GROUPS, 1, 1], inputs, &options).map(|mut run| {
                let native = std::mem::take(&mut run.counters.native_warp_instructions);
                ((run.buffers, run.counters), native)
            })
        };
        let interp = run(Tier::Interp, 1).map(|(run, _)| run);
        for threads in 1..=4 {
            let native = run(Tier::Native, threads);
            if let Ok((_, ran)) = &native {
                assert!(*ran > 0, "natively on {threads} threads");
            }
            assert_eq!(native.map(|(run, _)| run), interp, "{threads} threads");
        }
    }
}
