//! Memory ops in the simulator: global buffers (sizes, bounds, alignment),
//! shared and local memory, atomics, constant banks, CS2R and BAR.SYNC.

use crate::common;

use common::*;
use spvsass_isa::isa::*;
use spvsass_isa::target::Arch;
use spvsass_sim::{
    BUFFER_STRIDE, Isbe, Launch, MemFault, Program, Resources, SimError, SimOptions, Space,
    run_workgroup,
};

fn ld(space: MemSpace, size: MemSize, d: u8, addr: Src, offset: i32) -> Instr {
    Instr::new(Op::Ld(OpLd {
        dst: dst(d),
        addr,
        offset,
        space,
        size,
    }))
}

fn st(space: MemSpace, size: MemSize, addr: Src, offset: i32, data: Src) -> Instr {
    Instr::new(Op::St(OpSt {
        addr,
        offset,
        data,
        space,
        size,
    }))
}

fn atom(space: MemSpace, op: AtomOp, ty: AtomType, d: u8, addr: Src, data: Src, cmp: Src) -> Instr {
    Instr::new(Op::Atom(OpAtom {
        dst: dst(d),
        addr,
        offset: 0,
        data,
        cmp,
        op,
        ty,
        space,
    }))
}

/// Puts the 64-bit base address `base` in R2:R3.
fn base_in_r2(base: u64) -> [Instr; 2] {
    [mov(2, imm(base as u32)), mov(3, imm((base >> 32) as u32))]
}

/// R4 = lane, R5 = lane * 4.
fn lane_offsets() -> [Instr; 2] {
    [s2r(4, SpecialReg::LaneId), imad(5, reg(4), imm(4), RZ)]
}

/// Runs `instrs` on `lanes` lanes with `resources`.
fn run(instrs: &[Instr], lanes: u32, resources: &mut Resources) -> Result<(), SimError> {
    let program = Program::decode(&code(instrs), Arch::DEFAULT)?;
    let launch = Launch {
        workgroup_size: [lanes, 1, 1],
        workgroup_id: [0; 3],
    };
    run_workgroup(
        &program,
        &launch,
        &mut Isbe::new(0, 4, 0),
        resources,
        &SimOptions::default(),
    )?;
    Ok(())
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// A global buffer of `n` zero words, and the resources holding it.
fn with_buffer(bytes: Vec<u8>) -> (Resources, u64) {
    let mut r = Resources::default();
    let base = r.global.map(bytes);
    (r, base)
}

#[test]
fn each_lane_stores_and_loads_its_global_word() {
    let (mut res, base) = with_buffer(vec![0; 32 * 4]);
    let mut p = Vec::new();
    p.extend(base_in_r2(base));
    p.extend(lane_offsets());
    p.extend([
        // R2:R3 += lane * 4 (IADD3 without a carry: the buffer does not
        // cross a 4 GiB boundary).
        iadd3(2, reg(2), reg(5), RZ),
        iadd3(6, reg(4), imm(1000), RZ),
        st(MemSpace::Global, MemSize::B32, reg(2), 0, reg(6)),
        ld(MemSpace::Global, MemSize::B32, 7, reg(2), 0),
        iadd3(7, reg(7), reg(7), RZ),
        st(MemSpace::Global, MemSize::B32, reg(2), 0, reg(7)),
        exit(),
    ]);
    run(&p, 32, &mut res).expect("runs");
    let out = words(res.global.buffer(base).expect("mapped"));
    let want: Vec<u32> = (0..32).map(|l| 2 * (l + 1000)).collect();
    assert_eq!(out, want);
}

#[test]
fn sub_word_loads_extend_and_wide_loads_fill_groups() {
    let mut bytes = vec![0u8; 64];
    bytes[0] = 0x80; // S8 -128
    bytes[2..4].copy_from_slice(&0x8001u16.to_le_bytes());
    for i in 0..4 {
        bytes[16 + 4 * i..20 + 4 * i].copy_from_slice(&(0x11 * (i as u32 + 1)).to_le_bytes());
    }
    let (mut res, base) = with_buffer(bytes);
    let mut p = Vec::new();
    p.extend(base_in_r2(base));
    p.extend([
        ld(MemSpace::Global, MemSize::U8, 8, reg(2), 0),
        ld(MemSpace::Global, MemSize::S8, 9, reg(2), 0),
        ld(MemSpace::Global, MemSize::U16, 10, reg(2), 2),
        ld(MemSpace::Global, MemSize::S16, 11, reg(2), 2),
        ld(MemSpace::Global, MemSize::B128, 12, reg(2), 16),
        ld(MemSpace::Global, MemSize::B64, 16, reg(2), 24),
        st(MemSpace::Global, MemSize::B128, reg(2), 32, reg(8)),
        st(MemSpace::Global, MemSize::B128, reg(2), 48, reg(12)),
        exit(),
    ]);
    run(&p, 1, &mut res).expect("runs");
    let out = words(res.global.buffer(base).expect("mapped"));
    assert_eq!(out[8..12], [0x80, 0xffff_ff80, 0x8001, 0xffff_8001]);
    assert_eq!(out[12..16], [0x11, 0x22, 0x33, 0x44]);
}

#[test]
fn sub_word_stores_write_only_their_bytes() {
    let (mut res, base) = with_buffer(vec![0xff; 8]);
    let mut p = Vec::new();
    p.extend(base_in_r2(base));
    p.extend([
        mov(8, imm(0x1234_5678)),
        st(MemSpace::Global, MemSize::U8, reg(2), 1, reg(8)),
        st(MemSpace::Global, MemSize::U16, reg(2), 6, reg(8)),
        exit(),
    ]);
    run(&p, 1, &mut res).expect("runs");
    assert_eq!(
        res.global.buffer(base).expect("mapped"),
        &[0xff, 0x78, 0xff, 0xff, 0xff, 0xff, 0x78, 0x56]
    );
}

#[test]
fn global_access_past_the_end_names_pc_lane_and_address() {
    let (mut res, base) = with_buffer(vec![0; 16]);
    let mut p = Vec::new();
    p.extend(base_in_r2(base));
    p.extend(lane_offsets());
    p.extend([
        iadd3(2, reg(2), reg(5), RZ),
        ld(MemSpace::Global, MemSize::B32, 7, reg(2), 0),
        exit(),
    ]);
    let err = run(&p, 8, &mut res).expect_err("lane 4 is out of bounds");
    assert_eq!(
        err,
        SimError::Memory {
            pc: 0x50,
            lane: 4,
            space: Space::Global,
            addr: base + 16,
            bytes: 4,
            fault: MemFault::OutOfBounds { base, size: 16 },
        }
    );
    assert_eq!(
        err.to_string(),
        "/*0050*/ lane 4: 4-byte global access at 0x100000010: it runs past the end of its \
         0x10-byte range (which starts at 0x100000000)"
    );
}

#[test]
fn unaligned_and_unmapped_global_accesses_are_errors() {
    let (mut res, base) = with_buffer(vec![0; 16]);
    let mut p = base_in_r2(base).to_vec();
    p.extend([ld(MemSpace::Global, MemSize::B64, 8, reg(2), 4), exit()]);
    let err = run(&p, 1, &mut res).expect_err("unaligned");
    assert!(matches!(
        err,
        SimError::Memory {
            pc: 0x20,
            fault: MemFault::Unaligned,
            ..
        }
    ));
    // A lost carry: the address wraps below the buffer's base.
    let mut p = base_in_r2(base).to_vec();
    p.extend([ld(MemSpace::Global, MemSize::B32, 8, reg(2), -4), exit()]);
    let err = run(&p, 1, &mut res).expect_err("unmapped");
    assert_eq!(
        err,
        SimError::Memory {
            pc: 0x20,
            lane: 0,
            space: Space::Global,
            addr: BUFFER_STRIDE - 4,
            bytes: 4,
            fault: MemFault::Unmapped,
        }
    );
}

#[test]
fn shared_memory_is_seen_by_every_lane_after_a_barrier() {
    let (mut res, base) = with_buffer(vec![0; 32 * 4]);
    res.shared_bytes = 32 * 4;
    let mut p = Vec::new();
    p.extend(base_in_r2(base));
    p.extend(lane_offsets());
    p.extend([
        // shared[lane] = lane * 3; BAR; R9 = shared[31 - lane]
        imad(6, reg(4), imm(3), RZ),
        st(MemSpace::Shared, MemSize::B32, reg(5), 0, reg(6)),
        Instr::new(Op::Bar(OpBar)),
        iadd3(7, reg(5).negated(), imm(31 * 4), RZ),
        ld(MemSpace::Shared, MemSize::B32, 9, reg(7), 0),
        iadd3(2, reg(2), reg(5), RZ),
        st(MemSpace::Global, MemSize::B32, reg(2), 0, reg(9)),
        exit(),
    ]);
    run(&p, 32, &mut res).expect("runs");
    let out = words(res.global.buffer(base).expect("mapped"));
    let want: Vec<u32> = (0..32).map(|l| (31 - l) * 3).collect();
    assert_eq!(out, want);
}

#[test]
fn local_memory_is_private_to_each_lane() {
    let (mut res, base) = with_buffer(vec![0; 32 * 4]);
    res.local_bytes = 16;
    let mut p = Vec::new();
    p.extend(base_in_r2(base));
    p.extend(lane_offsets());
    p.extend([
        st(MemSpace::Local, MemSize::B32, RZ, 8, reg(4)),
        ld(MemSpace::Local, MemSize::B32, 9, RZ, 8),
        iadd3(2, reg(2), reg(5), RZ),
        st(MemSpace::Global, MemSize::B32, reg(2), 0, reg(9)),
        exit(),
    ]);
    run(&p, 32, &mut res).expect("runs");
    let out = words(res.global.buffer(base).expect("mapped"));
    assert_eq!(out, (0..32).collect::<Vec<u32>>());
}

#[test]
fn local_access_below_zero_is_out_of_bounds() {
    let mut res = Resources {
        local_bytes: 16,
        ..Resources::default()
    };
    let p = [ld(MemSpace::Local, MemSize::B32, 9, RZ, -4), exit()];
    let err = run(&p, 1, &mut res).expect_err("negative offset");
    assert!(matches!(
        err,
        SimError::Memory {
            space: Space::Local,
            fault: MemFault::OutOfBounds { .. },
            ..
        }
    ));
}

#[test]
fn global_atomic_add_returns_distinct_old_values() {
    let (mut res, base) = with_buffer(vec![0; 4 + 32 * 4]);
    let mut p = Vec::new();
    p.extend(base_in_r2(base));
    p.extend(lane_offsets());
    p.extend([
        mov(9, imm(2)),
        atom(
            MemSpace::Global,
            AtomOp::Add,
            AtomType::U32,
            8,
            reg(2),
            reg(9),
            RZ,
        ),
        // out[1 + lane] = old
        iadd3(2, reg(2), reg(5), RZ),
        st(MemSpace::Global, MemSize::B32, reg(2), 4, reg(8)),
        exit(),
    ]);
    run(&p, 32, &mut res).expect("runs");
    let out = words(res.global.buffer(base).expect("mapped"));
    assert_eq!(out[0], 64);
    let want: Vec<u32> = (0..32).map(|l| 2 * l).collect();
    assert_eq!(out[1..], want[..]);
}

#[test]
fn shared_compare_and_swap_lets_one_lane_win() {
    let (mut res, base) = with_buffer(vec![0; 32 * 4]);
    res.shared_bytes = 4;
    let mut p = Vec::new();
    p.extend(base_in_r2(base));
    p.extend(lane_offsets());
    p.extend([
        iadd3(6, reg(4), imm(100), RZ),
        // Every lane tries shared[0]: 0 -> lane + 100; lane 0 wins.
        atom(
            MemSpace::Shared,
            AtomOp::CmpExch,
            AtomType::U32,
            8,
            RZ,
            reg(6),
            RZ,
        ),
        Instr::new(Op::Bar(OpBar)),
        ld(MemSpace::Shared, MemSize::B32, 9, RZ, 0),
        iadd3(10, reg(8), reg(9), RZ),
        iadd3(2, reg(2), reg(5), RZ),
        st(MemSpace::Global, MemSize::B32, reg(2), 0, reg(10)),
        exit(),
    ]);
    run(&p, 32, &mut res).expect("runs");
    let out = words(res.global.buffer(base).expect("mapped"));
    // old + final: lane 0 saw 0, the others saw 100.
    assert_eq!(out[0], 100);
    assert!(out[1..].iter().all(|&v| v == 200), "{out:?}");
}

#[test]
fn red_accumulates_without_a_result() {
    let (mut res, base) = with_buffer(vec![0; 8]);
    let mut p = Vec::new();
    p.extend(base_in_r2(base));
    p.extend(lane_offsets());
    p.extend([
        Instr::new(Op::Red(OpRed {
            addr: reg(2),
            offset: 0,
            data: reg(4),
            op: AtomOp::Max,
            ty: AtomType::S32,
        })),
        mov(6, imm(1)),
        mov(7, imm(0)),
        Instr::new(Op::Red(OpRed {
            addr: reg(2),
            offset: 0,
            data: reg(6),
            op: AtomOp::Add,
            ty: AtomType::U64,
        })),
        exit(),
    ]);
    run(&p, 32, &mut res).expect("runs");
    let out = words(res.global.buffer(base).expect("mapped"));
    // max over lanes is 31, then 32 64-bit adds of 1 carry nothing.
    assert_eq!(out, [31 + 32, 0]);
}

#[test]
fn constant_banks_feed_ldc_and_alu_operands() {
    let (mut res, base) = with_buffer(vec![0; 32 * 4]);
    let bank: Vec<u8> = (0..64u32).flat_map(|i| (i * 10).to_le_bytes()).collect();
    res.constants.set(3, bank);
    let mut p = Vec::new();
    p.extend(base_in_r2(base));
    p.extend(lane_offsets());
    p.extend([
        Instr::new(Op::Ldc(OpLdc {
            dst: dst(8),
            bank: 3,
            addr: reg(5),
            offset: 8,
            size: MemSize::B32,
        })),
        iadd3(
            8,
            reg(8),
            Src {
                src: SrcRef::CBuf { bank: 3, offset: 4 },
                neg: false,
                abs: false,
            },
            RZ,
        ),
        iadd3(2, reg(2), reg(5), RZ),
        st(MemSpace::Global, MemSize::B32, reg(2), 0, reg(8)),
        exit(),
    ]);
    run(&p, 32, &mut res).expect("runs");
    let out = words(res.global.buffer(base).expect("mapped"));
    let want: Vec<u32> = (0..32).map(|l| (l + 2) * 10 + 10).collect();
    assert_eq!(out, want);
}

#[test]
fn ldc_past_the_bank_is_an_error() {
    let mut res = Resources::default();
    res.constants.set(0, vec![0; 16]);
    let p = [
        Instr::new(Op::Ldc(OpLdc {
            dst: dst(8),
            bank: 0,
            addr: RZ,
            offset: 16,
            size: MemSize::B32,
        })),
        exit(),
    ];
    let err = run(&p, 1, &mut res).expect_err("past the bank");
    assert_eq!(
        err.to_string(),
        "/*0000*/ lane 0: 4-byte constant bank 0 access at 0x10: it runs past the end of its \
         0x10-byte range (which starts at 0x0)"
    );
}

#[test]
fn cs2r_srz_zeroes_a_pair() {
    let (mut res, base) = with_buffer(vec![0xff; 8]);
    let mut p = Vec::new();
    p.extend(base_in_r2(base));
    p.extend([
        mov(8, imm(5)),
        mov(9, imm(6)),
        Instr::new(Op::Cs2r(OpCs2r {
            dst: dst(8),
            sr: SpecialReg::Zero,
            wide: true,
        })),
        st(MemSpace::Global, MemSize::B64, reg(2), 0, reg(8)),
        exit(),
    ]);
    run(&p, 1, &mut res).expect("runs");
    assert_eq!(res.global.buffer(base).expect("mapped"), &[0; 8]);
}

#[test]
fn barrier_in_divergent_code_is_refused() {
    // if (lane < 16) BAR else BAR: the two halves would wait at different
    // BARs; the hardware counts a warp once at an aligned barrier, so a
    // diverged warp at BAR.SYNC is an error (docs/HARDWARE.md, "Barriers").
    let p = [
        /* 0x00 */ s2r(0, SpecialReg::LaneId),
        /* 0x10 */ isetp(0, IntCmp::Lt, reg(0), imm(16)),
        /* 0x20 */ guarded(not_p(0), bra(0x50)),
        /* 0x30 */ Instr::new(Op::Bar(OpBar)),
        /* 0x40 */ exit(),
        /* 0x50 */ Instr::new(Op::Bar(OpBar)),
        /* 0x60 */ exit(),
    ];
    let err = run(&p, 32, &mut Resources::default()).expect_err("diverged");
    assert_eq!(
        err,
        SimError::DivergentBarrier {
            pc: 0x30,
            lanes: 0xffff,
            elsewhere: 0xffff_0000,
        }
    );
}

#[test]
fn barrier_after_some_lanes_exit_releases_the_rest() {
    let (mut res, base) = with_buffer(vec![0; 4]);
    let mut p = vec![
        s2r(0, SpecialReg::LaneId),
        isetp(0, IntCmp::Lt, reg(0), imm(16)),
        guarded(not_p(0), exit()),
        Instr::new(Op::Bar(OpBar)),
    ];
    p.extend(base_in_r2(base));
    p.extend([
        mov(6, imm(1)),
        Instr::new(Op::Red(OpRed {
            addr: reg(2),
            offset: 0,
            data: reg(6),
            op: AtomOp::Add,
            ty: AtomType::U32,
        })),
        exit(),
    ]);
    run(&p, 32, &mut res).expect("runs");
    assert_eq!(words(res.global.buffer(base).expect("mapped")), [16]);
}

/// Lanes 0..16 set P0; the group stays whole, so a guarded ALU op below
/// runs on the converged path with its guard splitting the group, and a
/// guarded memory op on the general step.
fn split_by_p0() -> Vec<Instr> {
    let mut prog = lane_offsets().to_vec();
    prog.push(isetp(0, IntCmp::Lt, reg(4), imm(16)));
    prog
}

#[test]
fn a_guard_that_splits_the_group_runs_alu_and_shared_ops_for_its_lanes_only() {
    let (mut res, base) = with_buffer(vec![0; 32 * 4]);
    res.shared_bytes = 32 * 4;
    let mut prog = split_by_p0();
    prog.extend(base_in_r2(base));
    prog.extend([
        mov(6, imm(7)),
        guarded(p(0), iadd3(6, reg(4), imm(100), RZ)),
        guarded(
            not_p(0),
            st(MemSpace::Shared, MemSize::B32, reg(5), 0, reg(6)),
        ),
        guarded(p(0), st(MemSpace::Shared, MemSize::B32, reg(5), 0, reg(4))),
        // Lanes 0..16 overwrite their word with R6 and read it back into R9;
        // the other lanes' R9 stays 5.
        mov(9, imm(5)),
        guarded(p(0), st(MemSpace::Shared, MemSize::B32, reg(5), 0, reg(6))),
        guarded(p(0), ld(MemSpace::Shared, MemSize::B32, 9, reg(5), 0)),
        ld(MemSpace::Shared, MemSize::B32, 10, reg(5), 0),
        iadd3(9, reg(9), reg(10), RZ),
        iadd3(2, reg(2), reg(5), RZ),
        st(MemSpace::Global, MemSize::B32, reg(2), 0, reg(9)),
        exit(),
    ]);
    run(&prog, 32, &mut res).expect("runs");
    let want: Vec<u32> = (0..32)
        .map(|l| if l < 16 { 2 * (l + 100) } else { 5 + 7 })
        .collect();
    assert_eq!(words(res.global.buffer(base).expect("mapped")), want);
}

#[test]
fn a_shared_store_under_a_split_guard_names_its_first_lane_out_of_bounds() {
    let mut res = Resources {
        shared_bytes: 16 * 4,
        ..Resources::default()
    };
    let mut prog = split_by_p0();
    prog.extend([
        /* 0x30 */ guarded(p(0), st(MemSpace::Shared, MemSize::B32, reg(5), 0, reg(4))),
        /* 0x40 */
        guarded(
            not_p(0),
            st(MemSpace::Shared, MemSize::B32, reg(5), 0, reg(4)),
        ),
        exit(),
    ]);
    let err = run(&prog, 32, &mut res).expect_err("lanes 16.. are out of bounds");
    assert_eq!(
        err,
        SimError::Memory {
            pc: 0x40,
            lane: 16,
            space: Space::Shared,
            addr: 64,
            bytes: 4,
            fault: MemFault::OutOfBounds { base: 0, size: 64 },
        }
    );
}
