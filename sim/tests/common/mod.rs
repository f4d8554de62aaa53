//! Builders for hand-written test programs: ISA structs with physical
//! registers, encoded with the backend's encoder, wrapped in a `Binary`.
#![allow(dead_code)] // each test binary uses a different subset

use spvsass_isa::binary::{Binary, MeshState, MeshTopology, Stage};
use spvsass_isa::isa::*;
use spvsass_isa::program::encode;
use spvsass_isa::target::Arch;
use spvsass_sim::{
    Isbe, IsbeRegion, Launch, Program, Resources, SimError, SimOptions, run_workgroup,
};

pub fn reg(n: u8) -> Src {
    Src::reg(Reg::Phys(n))
}

pub fn imm(v: u32) -> Src {
    Src::imm(v)
}

pub const RZ: Src = Src::ZERO;

pub fn dst(n: u8) -> Dst {
    Dst::Reg(Reg::Phys(n))
}

pub fn p(n: u8) -> PredSrc {
    PredSrc::reg(Reg::Phys(n))
}

pub fn not_p(n: u8) -> PredSrc {
    PredSrc {
        reg: Some(Reg::Phys(n)),
        neg: true,
    }
}

pub fn s2r(d: u8, sr: SpecialReg) -> Instr {
    Instr::new(Op::S2R(OpS2R { dst: dst(d), sr }))
}

pub fn mov(d: u8, src: Src) -> Instr {
    Instr::new(Op::Mov(OpMov { dst: dst(d), src }))
}

pub fn iadd3(d: u8, a: Src, b: Src, c: Src) -> Instr {
    Instr::new(Op::IAdd3(OpIAdd3 {
        dst: dst(d),
        srcs: [a, b, c],
    }))
}

pub fn imad(d: u8, a: Src, b: Src, c: Src) -> Instr {
    Instr::new(Op::IMad(OpIMad {
        dst: dst(d),
        srcs: [a, b, c],
        signed: false,
    }))
}

pub fn lop3(d: u8, a: Src, b: Src, c: Src, lut: u8) -> Instr {
    Instr::new(Op::Lop3(OpLop3 {
        dst: dst(d),
        srcs: [a, b, c],
        lut,
    }))
}

pub fn i2f(d: u8, src: Src) -> Instr {
    Instr::new(Op::Conv(OpConv {
        kind: ConvKind::IntToFloat,
        dst: dst(d),
        src,
        signed: false,
    }))
}

pub fn farith(kind: FloatArith, d: u8, a: Src, b: Src) -> Instr {
    Instr::new(Op::FArith(OpFArith {
        kind,
        dst: dst(d),
        srcs: [a, b, RZ],
        ftz: false,
        rnd: Round::Rn,
    }))
}

pub fn sel(d: u8, a: Src, b: Src, cond: PredSrc) -> Instr {
    Instr::new(Op::Sel(OpSel {
        dst: dst(d),
        srcs: [a, b],
        cond,
    }))
}

/// `ISETP.<cmp>.U32.AND Pn, PT, a, b, PT`
pub fn isetp(pn: u8, cmp: IntCmp, a: Src, b: Src) -> Instr {
    Instr::new(Op::ISetP(OpISetP {
        dst: dst(pn),
        cmp,
        signed: false,
        combine: PredCombine::And,
        srcs: [a, b],
        accum: PredSrc::TRUE,
    }))
}

pub fn isbewr(
    access: IsbeAccess,
    size: IsbeSize,
    skew: bool,
    addr: Src,
    imm: u32,
    data: Src,
) -> Instr {
    Instr::new(Op::IsbeWr(OpIsbeWr {
        addr,
        imm,
        data,
        access,
        size,
        skew,
    }))
}

/// `ISBEWR.O.ATTR.SKEW.32 [imm], data`: a lane writes its own slot.
pub fn attr_out(imm: u32, data: Src) -> Instr {
    isbewr(IsbeAccess::Attr, IsbeSize::B32, true, RZ, imm, data)
}

pub fn isberd(
    d: u8,
    output: bool,
    access: IsbeAccess,
    size: IsbeSize,
    skew: bool,
    addr: Src,
    imm: u32,
) -> Instr {
    Instr::new(Op::IsbeRd(OpIsbeRd {
        dst: dst(d),
        addr,
        imm,
        output,
        access,
        size,
        skew,
    }))
}

pub fn bra(target: u32) -> Instr {
    Instr::new(Op::Bra(OpBra {
        target: Target::Addr(target),
    }))
}

pub fn bssy(bar: u8, target: u32) -> Instr {
    Instr::new(Op::Bssy(OpBssy {
        bar,
        target: Target::Addr(target),
    }))
}

pub fn bsync(bar: u8) -> Instr {
    Instr::new(Op::Bsync(OpBsync { bar }))
}

pub fn exit() -> Instr {
    Instr::new(Op::Exit)
}

pub fn guarded(guard: PredSrc, ins: Instr) -> Instr {
    Instr { guard, ..ins }
}

pub fn f(v: f32) -> u32 {
    v.to_bits()
}

pub fn code(instrs: &[Instr]) -> Vec<u32> {
    let scheduled: Vec<Instr> = instrs.iter().map(safe_ctrl).collect();
    encode(&scheduled, Arch::DEFAULT).expect("test program encodes")
}

/// Gives the instructions of an assembled `binary` (whose text carried
/// no control bits) the bits of [`safe_ctrl`].
pub fn with_safe_ctrl(binary: &mut Binary) {
    let mut instrs = spvsass_isa::program::decode(&binary.code, binary.arch).expect("decodes");
    instrs.iter_mut().for_each(|i| *i = safe_ctrl(i));
    binary.code = encode(&instrs, binary.arch).expect("encodes");
}

/// `ins` with control bits no hazard slips through, unless the test set
/// its own: it waits on the two scoreboards these programs use and stalls
/// 15 cycles (more than any fixed latency), and a variable-latency op sets
/// SB0 for its results and SB1 for its late reads. The programs test
/// semantics; the hazard checker (on in `SimOptions::default()`) checks
/// these bits as it checks the compiler's.
pub fn safe_ctrl(ins: &Instr) -> Instr {
    let mut ins = *ins;
    if ins.ctrl == Ctrl::default() {
        ins.ctrl.stall = 15;
        ins.ctrl.wait = 0b11;
        if let Latency::Variable { reads_late } = ins.op.latency() {
            ins.ctrl.write_sb = 0;
            if reads_late {
                ins.ctrl.read_sb = 1;
            }
        }
    }
    ins
}

pub fn mesh_state(
    topology: MeshTopology,
    max_vertices: u32,
    max_primitives: u32,
    vertex_attrs: &[u16],
) -> MeshState {
    MeshState {
        topology,
        max_vertices,
        max_primitives,
        shared_mem_lines: 0,
        vertex_attrs: vertex_attrs.to_vec(),
        primitive_attrs: Vec::new(),
        clip_distances: 0,
    }
}

pub fn mesh_binary(instrs: &[Instr], workgroup_size: [u32; 3], mesh: MeshState) -> Binary {
    Binary {
        arch: Arch::Sm86,
        stage: Stage::Mesh,
        workgroup_size,
        num_gprs: 16,
        mesh: Some(mesh),
        task: None,
        compute: None,
        sph: None,
        code: code(instrs),
        gs_sph: None,
        resources: Vec::new(),
    }
}

/// Runs one workgroup of `lanes` lanes (workgroup 0) with an output ATTR
/// region of `attr_lines` lines and returns the ATTR bytes.
pub fn run_lanes(
    instrs: &[Instr],
    workgroup_size: [u32; 3],
    attr_lines: u32,
) -> (Isbe, spvsass_sim::Counters) {
    try_run_lanes(instrs, workgroup_size, attr_lines, &SimOptions::default()).expect("program runs")
}

pub fn try_run_lanes(
    instrs: &[Instr],
    workgroup_size: [u32; 3],
    attr_lines: u32,
    options: &SimOptions,
) -> Result<(Isbe, spvsass_sim::Counters), SimError> {
    let program = Program::decode(&code(instrs), Arch::DEFAULT)?;
    let mut isbe = Isbe::new(0, 4, attr_lines * 128);
    let launch = Launch {
        workgroup_size,
        workgroup_id: [0; 3],
    };
    let counters = run_workgroup(
        &program,
        &launch,
        &mut isbe,
        &mut Resources::default(),
        options,
    )?;
    Ok((isbe, counters))
}

/// Runs `instrs` as [`try_run_lanes`] does, but with the control bits
/// they carry (no [`safe_ctrl`]) and the checker on: for tests of the
/// checker.
pub fn try_run_as_scheduled(instrs: &[Instr], lanes: u32) -> Result<(), SimError> {
    let code = encode(instrs, Arch::DEFAULT).expect("test program encodes");
    let program = Program::decode(&code, Arch::DEFAULT)?;
    let mut isbe = Isbe::new(0, 4, 128);
    let launch = Launch {
        workgroup_size: [lanes, 1, 1],
        workgroup_id: [0; 3],
    };
    let options = SimOptions {
        check_ctrl: true,
        ..SimOptions::default()
    };
    run_workgroup(
        &program,
        &launch,
        &mut isbe,
        &mut Resources::default(),
        &options,
    )?;
    Ok(())
}

/// The 32-bit word lane `lane` wrote with `attr_out(line * 128, ..)`.
pub fn lane_word(isbe: &Isbe, line: u32, lane: u32) -> u32 {
    let o = (line * 128 + lane * 4) as usize;
    let b = isbe.bytes(IsbeRegion::OutputAttr);
    u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]])
}
