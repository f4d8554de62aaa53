//! Compute workgroups run in parallel (`compute_order`), and the result
//! must be the launch-order one whatever the thread count: each dispatch
//! here runs on rayon pools of 1, 2, 3 and 4 threads and must give the same
//! buffer bytes, or the same error, every time, and the values the
//! sequential order defines.

use crate::common;
use spvsass_isa::abi;

use spvsass_isa::asm::assemble;
use spvsass_isa::binary::{Binary, ComputeState};
use spvsass_sim::{
    BUFFER_STRIDE, ComputeInputs, ComputeRun, MemFault, SimError, SimOptions, Space, run_compute,
};

/// `body` after a prologue that sets R0 = workgroup x, R1 = invocation
/// x, R2:R3 = buffer 0, R4:R5 = buffer 1; workgroups of `lanes`.
fn binary(body: &str, lanes: u32) -> Binary {
    with_shared_memory(body, lanes, 0)
}

/// `binary` with `shared_bytes` of shared memory.
pub(crate) fn with_shared_memory(body: &str, lanes: u32, shared_bytes: u32) -> Binary {
    let b0 = abi::buffer_address(0).expect("binding 0");
    let b1 = abi::buffer_address(1).expect("binding 1");
    let src = format!(
        "
        S2R R0, SR_CTAID.X ;
        S2R R1, SR_TID.X ;
        LDC.64 R2, c[0x0][{b0:#x}] ;
        LDC.64 R4, c[0x0][{b1:#x}] ;
        {body}
        EXIT ;
        "
    );
    let asm = assemble(&src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let mut binary = asm.to_binary().expect("encodes");
    // The snippets carry no control bits: safe ones, which the checker
    // (on by default) checks.
    common::with_safe_ctrl(&mut binary);
    binary.workgroup_size = [lanes, 1, 1];
    binary.compute = Some(ComputeState {
        shared_bytes,
        local_bytes: 0,
    });
    binary
}

pub(crate) fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

pub(crate) fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Runs the dispatch on 1, 2, 3 and 4 threads (`SimOptions::threads`);
/// every run must give the same result, which is returned.
fn on_1_to_4_threads(
    binary: &Binary,
    groups: u32,
    buffers: &[Vec<u8>],
) -> Result<ComputeRun, SimError> {
    with_options_on_1_to_4_threads(binary, groups, buffers, SimOptions::default())
}

/// `on_1_to_4_threads` with `options`.
fn with_options_on_1_to_4_threads(
    binary: &Binary,
    groups: u32,
    buffers: &[Vec<u8>],
    options: SimOptions,
) -> Result<ComputeRun, SimError> {
    let inputs = ComputeInputs {
        buffers: (0..).zip(buffers.iter().cloned()).collect(),
        ..Default::default()
    };
    let results: Vec<_> = [1, 2, 3, 4]
        .into_iter()
        .map(|threads| {
            let options = SimOptions {
                threads: std::num::NonZeroUsize::new(threads),
                ..options
            };
            run_compute(binary, [groups, 1, 1], inputs.clone(), &options)
        })
        .collect();
    for (threads, other) in [2, 3, 4].into_iter().zip(&results[1..]) {
        assert_eq!(other, &results[0], "{threads} threads against 1");
    }
    results.into_iter().next().expect("four runs")
}

#[test]
fn disjoint_writes_into_shared_lines_run_in_parallel() {
    // Workgroups of 4 invocations: four workgroups write bytes of each
    // 64-byte line, word w * 4 + t = input * 3 + w.
    let program = binary(
        "
        IMAD R8, R0, 0x4, R1 ;
        IMAD.WIDE.U32 R10, R8, 0x4, R2 ;
        LDG.E R12, [R10.64] ;
        IMAD R12, R12, 0x3, R0 ;
        STG.E [R10.64], R12 ;
        ",
        4,
    );
    let groups = 300;
    let input: Vec<u32> = (0..groups * 4).map(|i| i * 7 + 1).collect();
    let run = on_1_to_4_threads(&program, groups, &[bytes(&input)]).expect("runs");
    let want: Vec<u32> = input
        .iter()
        .enumerate()
        .map(|(i, v)| v * 3 + i as u32 / 4)
        .collect();
    assert_eq!(words(&run.buffers[&0]), want);
    assert_eq!(run.workgroups, u64::from(groups));
}

#[test]
fn atomics_on_one_counter_return_the_launch_order_old_values() {
    // Every invocation adds 1 to buffer 0's word and stores the old value
    // at its index in buffer 1.
    let program = binary(
        "
        MOV R6, 0x1 ;
        ATOMG.E.ADD R7, [R2.64], R6 ;
        IMAD R8, R0, 0x20, R1 ;
        IMAD.WIDE.U32 R10, R8, 0x4, R4 ;
        STG.E [R10.64], R7 ;
        ",
        32,
    );
    let groups = 100;
    let n = groups * 32;
    let run =
        on_1_to_4_threads(&program, groups, &[vec![0; 4], vec![0; n as usize * 4]]).expect("runs");
    assert_eq!(words(&run.buffers[&0]), [n]);
    // Launch order: workgroup w's lane l is the (32 w + l)-th to add.
    assert_eq!(words(&run.buffers[&1]), (0..n).collect::<Vec<u32>>());
}

/// Workgroup w reads v = buffer0[w], writes v + 1 to buffer0[w + 1], then
/// reads buffer1[w ^ v]: in launch order v is w (workgroup w - 1 wrote
/// it), so that read is buffer1[0].
const CHAIN: &str = "
    IMAD.WIDE.U32 R6, R0, 0x4, R2 ;
    LDG.E R10, [R6.64] ;
    IADD3 R11, R10, 0x1, RZ ;
    STG.E [R6.64+0x4], R11 ;
    LOP3.LUT R12, R0, R10, RZ, 0x3c, !PT ;
    IMAD.WIDE.U32 R14, R12, 0x4, R4 ;
    LDG.E R13, [R14.64] ;
";

#[test]
fn a_workgroup_reading_what_an_earlier_one_wrote_sees_it() {
    let groups = 200;
    let run = on_1_to_4_threads(
        &binary(CHAIN, 32),
        groups,
        &[vec![0; (groups as usize + 1) * 4], vec![0; 4]],
    )
    .expect("runs");
    assert_eq!(words(&run.buffers[&0]), (0..=groups).collect::<Vec<u32>>());
}

#[test]
fn the_error_is_the_first_in_launch_order_after_conflicts() {
    // Buffer 0 has one word per workgroup, so the last one stores past
    // its end. Run on the memory they started with, workgroups 1.. would
    // read v = 0 and fail earlier, reading buffer1[w] past its one word:
    // the sequential run never does.
    let groups = 100;
    let err = on_1_to_4_threads(
        &binary(CHAIN, 32),
        groups,
        &[vec![0; groups as usize * 4], vec![0; 4]],
    )
    .expect_err("the last workgroup stores out of bounds");
    let SimError::InWorkgroup { workgroup, error } = &err else {
        panic!("{err}")
    };
    assert_eq!(*workgroup, [groups - 1, 0, 0], "{err}");
    let SimError::InWarp { warp: 0, error } = error.as_ref() else {
        panic!("{err}")
    };
    let SimError::Memory {
        lane,
        space,
        addr,
        fault,
        ..
    } = error.as_ref()
    else {
        panic!("{err}")
    };
    assert_eq!((*lane, *space), (0, Space::Global), "{err}");
    assert_eq!(*addr, BUFFER_STRIDE + u64::from(groups) * 4, "{err}");
    assert!(matches!(fault, MemFault::OutOfBounds { .. }), "{err}");
}

/// `on_1_to_4_threads` without the control-bit checker (under which a
/// workgroup's warps never run side by side: `warp_phases.rs`). The
/// dispatches that use it have fewer workgroups than four per thread at 2
/// threads, so that their warps run side by side from 2 threads on.
pub(crate) fn unchecked_on_1_to_4_threads(
    binary: &Binary,
    groups: u32,
    buffers: &[Vec<u8>],
    options: SimOptions,
) -> Result<ComputeRun, SimError> {
    let options = SimOptions {
        check_ctrl: false,
        ..options
    };
    with_options_on_1_to_4_threads(binary, groups, buffers, options)
}

/// Workgroups of three warps whose warps each read what the warp before
/// them (the same workgroup's, or the last of the workgroup before) wrote:
/// invocation i (over the dispatch) stores buffer0[i] + 1 at i + 32. Run
/// apart, the warps conflict and are run again in turn; the result is the
/// sequential one, buffer0[i] = i / 32.
#[test]
fn warps_reading_an_earlier_warps_writes_see_them() {
    let program = binary(
        "
        IMAD R8, R0, 0x60, R1 ;
        IMAD.WIDE.U32 R10, R8, 0x4, R2 ;
        LDG.E R12, [R10.64] ;
        IADD3 R12, R12, 0x1, RZ ;
        STG.E [R10.64+0x80], R12 ;
        ",
        96,
    );
    let groups = 3;
    let n = groups * 96 + 32;
    let run = unchecked_on_1_to_4_threads(
        &program,
        groups,
        &[vec![0; n as usize * 4]],
        SimOptions::default(),
    )
    .expect("runs");
    assert_eq!(
        words(&run.buffers[&0]),
        (0..n).map(|i| i / 32).collect::<Vec<u32>>()
    );
    assert_eq!(run.warps, 3);
}

/// Warps that write apart run apart, with the sequential counts.
#[test]
fn warps_writing_apart_give_the_sequential_counts() {
    let program = binary(
        "
        IMAD R8, R0, 0x50, R1 ;
        IMAD.WIDE.U32 R10, R8, 0x4, R2 ;
        IMAD R12, R8, 0x3, R1 ;
        STG.E [R10.64], R12 ;
        ",
        80,
    );
    let groups = 3;
    let run = unchecked_on_1_to_4_threads(
        &program,
        groups,
        &[vec![0; groups as usize * 80 * 4]],
        SimOptions::default(),
    )
    .expect("runs");
    let want: Vec<u32> = (0..groups * 80).map(|i| i * 3 + i % 80).collect();
    assert_eq!(words(&run.buffers[&0]), want);
    // Two full warps and one of 16 lanes per workgroup.
    assert_eq!(run.counters.thread_instructions % 80, 0);
}

/// A loop of 64 rounds per lane adding the round to R20, ending at
/// `label`.
pub(crate) fn rounds_to(label: &str) -> String {
    format!(
        "
    MOV R21, RZ ;
    BSSY B0, {label} ;
{label}_top:
    ISETP.GE.U32.AND P0, PT, R21, 0x40, PT ;
@P0 BRA {label} ;
    IADD3 R20, R20, R21, RZ ;
    IADD3 R21, R21, 0x1, RZ ;
    BRA {label}_top ;
{label}:
    BSYNC B0 ;
"
    )
}

/// A loop of `rounds_to`, then a store of each lane's sum at its index
/// of buffer 0 (workgroups of 96).
fn rounds() -> String {
    format!(
        "
    MOV R20, RZ ;
    {}
    IMAD R8, R0, 0x60, R1 ;
    IMAD.WIDE.U32 R10, R8, 0x4, R2 ;
    STG.E [R10.64], R20 ;
",
        rounds_to("done")
    )
}

/// The step budget is the workgroup's: with one that each warp's steps
/// fit but not the three warps' together, the run stops in warp 2 with the
/// sequential run's error (its pc and count), however many threads.
#[test]
fn the_step_budget_counts_a_workgroups_warps_together() {
    let program = binary(&rounds(), 96);
    let groups = 2;
    let buffers = [vec![0; groups as usize * 96 * 4]];
    let whole = unchecked_on_1_to_4_threads(&program, groups, &buffers, SimOptions::default())
        .expect("runs");
    let per_warp = whole.counters.warp_instructions / u64::from(groups) / 3;
    let budget = per_warp * 5 / 2;
    let err = unchecked_on_1_to_4_threads(
        &program,
        groups,
        &buffers,
        SimOptions {
            max_steps: budget,
            ..SimOptions::default()
        },
    )
    .expect_err("the third warp passes the budget");
    assert_step_limit_in_warp_2(&err, budget);
}

/// Asserts that `err` is the step limit `budget` reached in warp 2 of
/// workgroup 0.
pub(crate) fn assert_step_limit_in_warp_2(err: &SimError, budget: u64) {
    let SimError::InWorkgroup { workgroup, error } = err else {
        panic!("{err}")
    };
    assert_eq!(*workgroup, [0, 0, 0], "{err}");
    let SimError::InWarp { warp: 2, error } = error.as_ref() else {
        panic!("{err}")
    };
    assert!(
        matches!(error.as_ref(), SimError::StepLimit { steps, .. } if *steps == budget),
        "{err}"
    );
}

/// A program that reads the clock (the workgroup's step count) keeps its
/// warps in turns: warp k reads the count warps 0..k-1 left.
#[test]
fn warps_reading_the_clock_read_the_workgroups_count() {
    let program = binary(
        "
        S2R R12, SR_CLOCKLO ;
        IMAD R8, R0, 0x40, R1 ;
        IMAD.WIDE.U32 R10, R8, 0x4, R2 ;
        STG.E [R10.64], R12 ;
        ",
        64,
    );
    let groups = 3;
    let run = unchecked_on_1_to_4_threads(
        &program,
        groups,
        &[vec![0; groups as usize * 64 * 4]],
        SimOptions::default(),
    )
    .expect("runs");
    let clocks = words(&run.buffers[&0]);
    // Warp 1 of each workgroup read a later count than warp 0.
    for w in 0..groups as usize {
        assert!(
            clocks[w * 64 + 32] > clocks[w * 64],
            "workgroup {w}: {clocks:?}"
        );
    }
}
