//! Every way a run can fail ends in a `SimError` that says what and where,
//! never in a panic.

use crate::common;

use common::*;
use spvsass_isa::binary::MeshTopology;
use spvsass_isa::isa::{DecodeError, IntCmp, IsbeAccess, IsbeSize, SpecialReg};
use spvsass_isa::target::Arch;
use spvsass_sim::{IsbeRegion, Program, SimError, SimOptions, run_mesh};

const POSITION: [u16; 4] = [0x70, 0x74, 0x78, 0x7c];

fn run_err(instrs: &[spvsass_isa::isa::Instr], lanes: u32, options: &SimOptions) -> SimError {
    try_run_lanes(instrs, [lanes, 1, 1], 1, options).expect_err("the run fails")
}

#[test]
fn isbewr_out_of_bounds_names_pc_lane_and_address() {
    // Position only: the ATTR region is 4 lines (0x200 bytes); lane 4's
    // SKEW slot of 0x1f0 is 0x200.
    let program = vec![mov(1, imm(7)), attr_out(0x1f0, reg(1)), exit()];
    let binary = mesh_binary(
        &program,
        [32, 1, 1],
        mesh_state(MeshTopology::Points, 1, 1, &POSITION),
    );
    let err = run_mesh(&binary, [2, 1, 1], &SimOptions::default()).unwrap_err();
    let SimError::InWorkgroup { workgroup, error } = &err else {
        panic!("not wrapped: {err:?}")
    };
    assert_eq!(*workgroup, [0, 0, 0]);
    assert_eq!(
        **error,
        SimError::IsbeOutOfBounds {
            pc: 0x10,
            lane: 4,
            region: IsbeRegion::OutputAttr,
            addr: 0x200,
            bytes: 4,
            region_size: 0x200
        }
    );
    assert_eq!(
        err.to_string(),
        "workgroup (0, 0, 0): /*0010*/ lane 4: 4-byte access at 0x200 is outside the output ATTR region (0x200 bytes)"
    );
}

#[test]
fn map_write_past_the_indices_is_out_of_bounds() {
    // One point: the MAP region is the count word and one index byte.
    let program = vec![
        isbewr(IsbeAccess::Map, IsbeSize::U8, false, RZ, 0x5, RZ),
        exit(),
    ];
    let binary = mesh_binary(
        &program,
        [1, 1, 1],
        mesh_state(MeshTopology::Points, 1, 1, &POSITION),
    );
    let err = run_mesh(&binary, [1, 1, 1], &SimOptions::default()).unwrap_err();
    let SimError::InWorkgroup { error, .. } = err else {
        panic!()
    };
    assert_eq!(
        *error,
        SimError::IsbeOutOfBounds {
            pc: 0,
            lane: 0,
            region: IsbeRegion::OutputMap,
            addr: 5,
            bytes: 1,
            region_size: 5
        }
    );
}

#[test]
fn unaligned_isbe_accesses() {
    let attr = vec![
        isbewr(IsbeAccess::Attr, IsbeSize::B32, false, RZ, 0x2, RZ),
        exit(),
    ];
    assert_eq!(
        run_err(&attr, 1, &SimOptions::default()),
        SimError::IsbeUnaligned {
            pc: 0,
            lane: 0,
            region: IsbeRegion::OutputAttr,
            addr: 2,
            bytes: 4
        }
    );
    // The MAP region takes writes in reverse: a 32-bit write must end on a
    // word's last byte (0x3, 0x7, ...), so 0x0 is unaligned.
    let map = vec![
        isbewr(IsbeAccess::Map, IsbeSize::B32, false, RZ, 0x0, RZ),
        exit(),
    ];
    assert_eq!(
        run_err(&map, 1, &SimOptions::default()),
        SimError::IsbeUnaligned {
            pc: 0,
            lane: 0,
            region: IsbeRegion::OutputMap,
            addr: 0,
            bytes: 4
        }
    );
}

#[test]
fn infinite_loop_hits_the_step_limit() {
    let program = vec![mov(1, imm(1)), bra(0x10)];
    let err = run_err(
        &program,
        32,
        &SimOptions {
            max_steps: 1000,
            ..SimOptions::default()
        },
    );
    assert_eq!(
        err,
        SimError::StepLimit {
            pc: 0x10,
            steps: 1000
        }
    );
    assert!(
        err.to_string()
            .starts_with("/*0010*/: step limit reached after 1000 warp-instructions")
    );
}

#[test]
fn bsync_that_cannot_complete_is_a_deadlock() {
    // Lanes 16-31 wait at 0x40 for lanes 0-15, which wait at 0x50.
    let program = vec![
        /* 0x00 */ s2r(0, SpecialReg::LaneId),
        /* 0x10 */ isetp(0, IntCmp::Lt, reg(0), imm(16)),
        /* 0x20 */ bssy(0, 0x50),
        /* 0x30 */ guarded(p(0), bra(0x50)),
        /* 0x40 */ bsync(0),
        /* 0x50 */ bsync(0),
        /* 0x60 */ exit(),
    ];
    let err = run_err(&program, 32, &SimOptions::default());
    assert_eq!(
        err,
        SimError::BarrierDeadlock {
            pc: 0x40,
            bar: 0,
            waiting: 0xffff_0000,
            missing: 0x0000_ffff
        }
    );
    assert_eq!(
        err.to_string(),
        "/*0040*/: barrier deadlock: lanes 16-31 wait at BSYNC B0 for lanes 0-15, which can never arrive"
    );
}

#[test]
fn workgroup_over_128_invocations() {
    let binary = mesh_binary(
        &[exit()],
        [8, 8, 4],
        mesh_state(MeshTopology::Points, 1, 1, &POSITION),
    );
    let err = run_mesh(&binary, [1, 1, 1], &SimOptions::default()).unwrap_err();
    assert_eq!(
        err,
        SimError::WorkgroupSize {
            size: [8, 8, 4],
            lanes: 256
        }
    );
    assert!(
        err.to_string()
            .starts_with("workgroup size 8x8x4 (256 invocations) does not fit one warp")
    );
}

#[test]
fn empty_workgroup_is_rejected() {
    let binary = mesh_binary(
        &[exit()],
        [0, 1, 1],
        mesh_state(MeshTopology::Points, 1, 1, &POSITION),
    );
    let err = run_mesh(&binary, [1, 1, 1], &SimOptions::default()).unwrap_err();
    assert_eq!(
        err,
        SimError::WorkgroupSize {
            size: [0, 1, 1],
            lanes: 0
        }
    );
}

#[test]
fn unknown_opcode_is_a_decode_error() {
    let mut words = code(&[mov(1, imm(1)), mov(2, imm(2)), exit()]);
    // Opcode 0x1ff in the second instruction: no op has it.
    words[4] = (words[4] & !0xfff) | 0x1ff;
    let err = Program::decode(&words, Arch::DEFAULT).unwrap_err();
    assert_eq!(
        err,
        SimError::Decode {
            pc: 0x10,
            error: DecodeError::UnknownOpcode { opcode: 0x1ff }
        }
    );
    assert_eq!(
        err.to_string(),
        "/*0010*/: cannot decode the instruction: unknown opcode 0x1ff"
    );
}

#[test]
fn corrupt_code_in_a_mesh_binary() {
    let mut binary = mesh_binary(
        &[exit()],
        [1, 1, 1],
        mesh_state(MeshTopology::Points, 1, 1, &POSITION),
    );
    binary.code[0] = 0x1ff;
    let err = run_mesh(&binary, [1, 1, 1], &SimOptions::default()).unwrap_err();
    assert!(matches!(err, SimError::Decode { pc: 0, .. }), "{err:?}");
}

#[test]
fn branch_target_outside_the_program() {
    let words = code(&[bra(0x100), exit()]);
    assert_eq!(
        Program::decode(&words, Arch::DEFAULT).unwrap_err(),
        SimError::TargetOutside {
            pc: 0,
            target: 0x100,
            end: 0x20
        }
    );
}

#[test]
fn bssy_target_not_on_an_instruction() {
    let words = code(&[bssy(1, 0x18), exit()]);
    assert_eq!(
        Program::decode(&words, Arch::DEFAULT).unwrap_err(),
        SimError::TargetUnaligned {
            pc: 0,
            target: 0x18
        }
    );
}

#[test]
fn running_off_the_end() {
    let err = run_err(&[mov(1, imm(1))], 3, &SimOptions::default());
    assert_eq!(
        err,
        SimError::PcOutOfRange {
            pc: 0x10,
            lanes: 0b111
        }
    );
    assert_eq!(
        err.to_string(),
        "/*0010*/: lanes 0-2 ran off the end of the program (no EXIT)"
    );
}

#[test]
fn constant_bank_source() {
    use spvsass_isa::isa::{Src, SrcRef};
    let cbuf = Src {
        src: SrcRef::CBuf {
            bank: 0,
            offset: 0x10,
        },
        neg: false,
        abs: false,
    };
    let err = run_err(
        &[mov(1, imm(1)), mov(2, cbuf), exit()],
        1,
        &SimOptions::default(),
    );
    assert_eq!(
        err,
        SimError::Memory {
            pc: 0x10,
            lane: 0,
            space: spvsass_sim::Space::Constant(0),
            addr: 0x10,
            bytes: 4,
            fault: spvsass_sim::MemFault::OutOfBounds { base: 0, size: 0 },
        }
    );
    assert_eq!(
        err.to_string(),
        "/*0010*/ lane 0: 4-byte constant bank 0 access at 0x10: it runs past the end of its \
         0x0-byte range (which starts at 0x0)"
    );
}

#[test]
fn unsupported_special_register() {
    let err = run_err(
        &[s2r(0, SpecialReg::VirtCfg), exit()],
        1,
        &SimOptions::default(),
    );
    assert_eq!(
        err,
        SimError::UnsupportedSpecialReg {
            pc: 0,
            name: "SR_VIRTCFG"
        }
    );
}

#[test]
fn too_many_primitives() {
    let program = vec![
        mov(1, imm(2)),
        isbewr(IsbeAccess::Map, IsbeSize::B32, false, RZ, 0x3, reg(1)),
        exit(),
    ];
    let binary = mesh_binary(
        &program,
        [1, 1, 1],
        mesh_state(MeshTopology::Points, 1, 1, &POSITION),
    );
    let err = run_mesh(&binary, [1, 2, 1], &SimOptions::default()).unwrap_err();
    assert_eq!(
        err,
        SimError::TooManyPrimitives {
            workgroup: [0, 0, 0],
            count: 2,
            max: 1
        }
    );
    assert_eq!(
        err.to_string(),
        "workgroup (0, 0, 0): primitive count 2 exceeds max_primitives 1"
    );
}

#[test]
fn index_beyond_max_vertices() {
    // Workgroup (1, 0, 0) writes vertex index 3 for its second triangle.
    let program = vec![
        /* 0x00 */ mov(1, imm(2)),
        /* 0x10 */ isbewr(IsbeAccess::Map, IsbeSize::B32, false, RZ, 0x3, reg(1)),
        /* 0x20 */ s2r(2, SpecialReg::CtaIdX),
        /* 0x30 */ iadd3(2, reg(2), imm(2), RZ),
        /* 0x40 */ isbewr(IsbeAccess::Map, IsbeSize::U8, false, RZ, 0x8, reg(2)),
        /* 0x50 */ exit(),
    ];
    let binary = mesh_binary(
        &program,
        [1, 1, 1],
        mesh_state(MeshTopology::Triangles, 3, 2, &POSITION),
    );
    let err = run_mesh(&binary, [2, 1, 1], &SimOptions::default()).unwrap_err();
    assert_eq!(
        err,
        SimError::IndexOutOfRange {
            workgroup: [1, 0, 0],
            primitive: 1,
            index: 3,
            max: 3
        }
    );
}

#[test]
fn binary_without_mesh_state() {
    let mut binary = mesh_binary(
        &[exit()],
        [1, 1, 1],
        mesh_state(MeshTopology::Points, 1, 1, &POSITION),
    );
    binary.mesh = None;
    binary.stage = spvsass_isa::binary::Stage::Compute;
    let err = run_mesh(&binary, [1, 1, 1], &SimOptions::default()).unwrap_err();
    assert_eq!(err, SimError::NotMesh { stage: "compute" });
}

#[test]
fn isbe_read_of_an_unmodelled_region() {
    let program = vec![
        isberd(1, false, IsbeAccess::Prim, IsbeSize::B32, false, RZ, 0),
        exit(),
    ];
    let err = run_err(&program, 1, &SimOptions::default());
    assert_eq!(
        err,
        SimError::UnsupportedIsbe {
            pc: 0,
            what: "ISBERD from an input region other than ATTR"
        }
    );
}

#[test]
fn workgroup_barrier_in_a_diverged_warp() {
    // Lanes 0-15 branch past the other half's BAR.SYNC to their own: the
    // hardware counts a warp once at an aligned barrier (docs/HARDWARE.md,
    // "Barriers"), so a warp must arrive converged.
    use spvsass_isa::isa::{Instr, Op, OpBar};
    let bar = || Instr::new(Op::Bar(OpBar));
    let program = vec![
        /* 0x00 */ s2r(0, SpecialReg::LaneId),
        /* 0x10 */ isetp(0, IntCmp::Lt, reg(0), imm(16)),
        /* 0x20 */ guarded(p(0), bra(0x50)),
        /* 0x30 */ bar(),
        /* 0x40 */ exit(),
        /* 0x50 */ bar(),
        /* 0x60 */ exit(),
    ];
    let err = run_err(&program, 32, &SimOptions::default());
    assert!(
        matches!(err, SimError::DivergentBarrier { lanes, elsewhere, .. }
            if lanes.count_ones() == 16 && elsewhere == !lanes),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .contains("a warp must reach a workgroup barrier converged"),
        "{err}"
    );
    // Converged again (the same halves meet at a BSYNC first): no error.
    let program = vec![
        /* 0x00 */ s2r(0, SpecialReg::LaneId),
        /* 0x10 */ isetp(0, IntCmp::Lt, reg(0), imm(16)),
        /* 0x20 */ bssy(0, 0x50),
        /* 0x30 */ guarded(p(0), bra(0x50)),
        /* 0x40 */ mov(1, imm(7)),
        /* 0x50 */ bsync(0),
        /* 0x60 */ bar(),
        /* 0x70 */ exit(),
    ];
    try_run_lanes(&program, [32, 1, 1], 1, &SimOptions::default()).expect("converged barrier");
}
