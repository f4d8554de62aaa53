//! Compute dispatches of hand-written programs: warps of one workgroup
//! meeting at BAR.SYNC through shared memory, partial last warps, and
//! errors that name the workgroup, the warp, the pc and the lanes.

use crate::common;

use common::*;
use spvsass_isa::abi;
use spvsass_isa::binary::{Binary, ComputeState, Stage};
use spvsass_isa::isa::*;
use spvsass_isa::target::Arch;
use spvsass_sim::{ComputeInputs, SimError, SimOptions, run_compute};

fn compute_binary(instrs: &[Instr], workgroup_size: [u32; 3], shared_bytes: u32) -> Binary {
    Binary {
        arch: Arch::Sm86,
        stage: Stage::Compute,
        workgroup_size,
        num_gprs: 16,
        mesh: None,
        task: None,
        compute: Some(ComputeState {
            shared_bytes,
            local_bytes: 0,
        }),
        sph: None,
        code: code(instrs),
        gs_sph: None,
        resources: Vec::new(),
    }
}

fn ld(space: MemSpace, d: u8, addr: Src, offset: i32) -> Instr {
    Instr::new(Op::Ld(OpLd {
        dst: dst(d),
        addr,
        offset,
        space,
        size: MemSize::B32,
    }))
}

fn st(space: MemSpace, addr: Src, offset: i32, data: Src) -> Instr {
    Instr::new(Op::St(OpSt {
        addr,
        offset,
        data,
        space,
        size: MemSize::B32,
    }))
}

/// Each invocation t of a workgroup of `n` writes t + 1 to shared[t],
/// waits at BAR.SYNC, then stores shared[n - 1 - t] to buffer 0 at t:
/// the result is reversed only if every warp wrote before any read.
fn reverse_program(n: u32) -> Vec<Instr> {
    let buf = abi::buffer_address(0).unwrap();
    vec![
        s2r(0, SpecialReg::TidX),
        imad(1, reg(0), imm(4), RZ),
        iadd3(2, reg(0), imm(1), RZ),
        st(MemSpace::Shared, reg(1), 0, reg(2)),
        Instr::new(Op::Bar(OpBar)),
        // (n - 1 - t) * 4 = (n - 1) * 4 - t * 4
        iadd3(3, reg(1).negated(), imm((n - 1) * 4), RZ),
        ld(MemSpace::Shared, 4, reg(3), 0),
        Instr::new(Op::Ldc(OpLdc {
            dst: dst(6),
            bank: abi::ROOT_BANK,
            addr: RZ,
            offset: buf,
            size: MemSize::B64,
        })),
        // Buffers are 4 GiB apart, so adding t * 4 to the low word alone
        // cannot carry.
        iadd3(6, reg(6), reg(1), RZ),
        st(MemSpace::Global, reg(6), 0, reg(4)),
        exit(),
    ]
}

#[test]
fn warps_meet_at_the_workgroup_barrier() {
    // 80 invocations: warps of 32, 32 and 16 lanes.
    let n = 80;
    let binary = compute_binary(&reverse_program(n), [n, 1, 1], 4 * n);
    let inputs = ComputeInputs {
        buffers: [(0, vec![0; 4 * n as usize])].into_iter().collect(),
        ..Default::default()
    };
    let run = run_compute(&binary, [1, 1, 1], inputs, &SimOptions::default()).unwrap();
    assert_eq!(run.warps, 3);
    let out: Vec<u32> = run.buffers[&0]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let expected: Vec<u32> = (0..n).map(|t| n - t).collect();
    assert_eq!(out, expected);
}

#[test]
fn a_warp_that_exits_early_does_not_hold_the_barrier() {
    // Warp 0 (invocations 0..32) exits before the barrier; warp 1 still
    // passes it.
    let mut program = vec![
        s2r(0, SpecialReg::TidX),
        isetp(0, IntCmp::Lt, reg(0), imm(32)),
        guarded(p(0), exit()),
    ];
    // Invocation t of warp 1 reads shared[95 - t], which warp 1 wrote.
    program.extend(reverse_program(96).into_iter().skip(1));
    let binary = compute_binary(&program, [64, 1, 1], 256);
    let inputs = ComputeInputs {
        buffers: [(0, vec![0; 256])].into_iter().collect(),
        ..Default::default()
    };
    let run = run_compute(&binary, [1, 1, 1], inputs, &SimOptions::default()).unwrap();
    let out: Vec<u32> = run.buffers[&0]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert!(out[..32].iter().all(|&w| w == 0), "warp 0 stored nothing");
    let expected: Vec<u32> = (32..64).map(|t| 96 - t).collect();
    assert_eq!(out[32..], expected);
}

#[test]
fn a_deadlock_inside_one_warp_names_the_workgroup_warp_pc_and_lanes() {
    // Lanes with tid < 48 wait at the BSYNC at 0x40, the others at the one
    // at 0x60: in warp 1 neither group can complete barrier B0.
    let program = vec![
        s2r(0, SpecialReg::TidX),
        isetp(0, IntCmp::Lt, reg(0), imm(48)),
        bssy(0, 0x40),
        guarded(not_p(0), bra(0x60)),
        bsync(0),
        exit(),
        bsync(0),
        exit(),
    ];
    let binary = compute_binary(&program, [64, 1, 1], 0);
    let err = run_compute(
        &binary,
        [2, 1, 1],
        ComputeInputs::default(),
        &SimOptions::default(),
    )
    .expect_err("warp 1 deadlocks");
    let SimError::InWorkgroup { workgroup, error } = &err else {
        panic!("{err}")
    };
    assert_eq!(*workgroup, [0, 0, 0]);
    let SimError::InWarp { warp: 1, error } = error.as_ref() else {
        panic!("{err}")
    };
    assert_eq!(
        **error,
        SimError::BarrierDeadlock {
            pc: 0x40,
            bar: 0,
            waiting: 0x0000_ffff,
            missing: 0xffff_0000,
        }
    );
    let text = err.to_string();
    assert!(
        text.contains("warp 1 (invocations 32..63)") && text.contains("/*0040*/"),
        "{text}"
    );
}

#[test]
fn workgroups_over_1024_invocations_and_non_compute_binaries_are_rejected() {
    let big = compute_binary(&[exit()], [1025, 1, 1], 0);
    let err = run_compute(
        &big,
        [1, 1, 1],
        ComputeInputs::default(),
        &SimOptions::default(),
    );
    assert!(
        matches!(
            err,
            Err(SimError::ComputeWorkgroupSize {
                invocations: 1025,
                ..
            })
        ),
        "{err:?}"
    );
    let mut mesh = compute_binary(&[exit()], [1, 1, 1], 0);
    mesh.stage = Stage::Mesh;
    let err = run_compute(
        &mesh,
        [1, 1, 1],
        ComputeInputs::default(),
        &SimOptions::default(),
    );
    assert!(
        matches!(err, Err(SimError::NotCompute { stage: "mesh" })),
        "{err:?}"
    );
}

/// Push constants take at most 256 bytes (NVIDIA's maxPushConstantsSize,
/// docs/ABI.md); 256 are accepted.
#[test]
fn push_constants_over_256_bytes_are_rejected() {
    let binary = compute_binary(&[exit()], [1, 1, 1], 0);
    let inputs = |n: usize| ComputeInputs {
        push_constants: vec![0; n],
        ..Default::default()
    };
    let err = run_compute(&binary, [1, 1, 1], inputs(260), &SimOptions::default());
    assert!(
        matches!(
            err,
            Err(SimError::Abi(abi::AbiError::PushConstantsTooLarge(260)))
        ),
        "{err:?}"
    );
    assert!(run_compute(&binary, [1, 1, 1], inputs(256), &SimOptions::default()).is_ok());
}
