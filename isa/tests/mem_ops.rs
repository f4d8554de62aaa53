//! Memory ops through the ISA definition: text form, encode → decode
//! identity, and the errors for misaligned register groups and offsets.

use spvsass_isa::isa::*;

fn r(n: u8) -> Src {
    Src::reg(Reg::Phys(n))
}

fn d(n: u8) -> Dst {
    Dst::Reg(Reg::Phys(n))
}

/// The op's text, after checking that it decodes back to itself.
fn roundtrip(op: Op) -> String {
    let ins = Instr::new(op);
    let w = ins.encode(0).expect("encodes");
    assert_eq!(Instr::decode(&w, 0).expect("decodes"), ins);
    ins.to_string()
}

macro_rules! text_cases {
    ($($name:ident: $op:expr => $text:expr;)*) => {$(
        #[test]
        fn $name() {
            assert_eq!(roundtrip($op), $text);
        }
    )*};
}

text_cases! {
    ldg_64: Op::Ld(OpLd { dst: d(4), addr: r(2), offset: 0x10, space: MemSpace::Global, size: MemSize::B64 })
        => "LDG.E.64 R4, [R2.64+0x10] ;";
    ldg_s8_negative_offset: Op::Ld(OpLd { dst: d(5), addr: r(2), offset: -8, space: MemSpace::Global, size: MemSize::S8 })
        => "LDG.E.S8 R5, [R2.64-0x8] ;";
    lds_u16_absolute: Op::Ld(OpLd { dst: d(5), addr: Src::ZERO, offset: 0x40, space: MemSpace::Shared, size: MemSize::U16 })
        => "LDS.U16 R5, [0x40] ;";
    ldl_128: Op::Ld(OpLd { dst: d(8), addr: r(1), offset: 0, space: MemSpace::Local, size: MemSize::B128 })
        => "LDL.128 R8, [R1] ;";
    stg_32: Op::St(OpSt { addr: r(2), offset: 4, data: r(7), space: MemSpace::Global, size: MemSize::B32 })
        => "STG.E [R2.64+0x4], R7 ;";
    sts_u8: Op::St(OpSt { addr: r(3), offset: 0, data: r(7), space: MemSpace::Shared, size: MemSize::U8 })
        => "STS.U8 [R3], R7 ;";
    stl_64: Op::St(OpSt { addr: Src::ZERO, offset: 8, data: r(6), space: MemSpace::Local, size: MemSize::B64 })
        => "STL.64 [0x8], R6 ;";
    atomg_add: Op::Atom(OpAtom { dst: d(0), addr: r(2), offset: 0, data: r(5), cmp: Src::ZERO, op: AtomOp::Add, ty: AtomType::U32, space: MemSpace::Global })
        => "ATOMG.E.ADD R0, [R2.64], R5 ;";
    atomg_cas_64: Op::Atom(OpAtom { dst: d(0), addr: r(2), offset: 8, data: r(6), cmp: r(4), op: AtomOp::CmpExch, ty: AtomType::U64, space: MemSpace::Global })
        => "ATOMG.E.CAS.64 R0, [R2.64+0x8], R4, R6 ;";
    atoms_min_s32: Op::Atom(OpAtom { dst: Dst::None, addr: r(3), offset: 0, data: r(5), cmp: Src::ZERO, op: AtomOp::Min, ty: AtomType::S32, space: MemSpace::Shared })
        => "ATOMS.MIN.S32 RZ, [R3], R5 ;";
    red_f32_add: Op::Red(OpRed { addr: r(2), offset: 0, data: r(5), op: AtomOp::Add, ty: AtomType::F32 })
        => "RED.E.ADD.F32.FTZ.RN [R2.64], R5 ;";
    ldc_register_offset: Op::Ldc(OpLdc { dst: d(3), bank: 0, addr: r(1), offset: 0x160, size: MemSize::B32 })
        => "LDC R3, c[0x0][R1+0x160] ;";
    ldc_64: Op::Ldc(OpLdc { dst: d(2), bank: 2, addr: Src::ZERO, offset: 8, size: MemSize::B64 })
        => "LDC.64 R2, c[0x2][0x8] ;";
    cs2r_zero_pair: Op::Cs2r(OpCs2r { dst: d(4), sr: SpecialReg::Zero, wide: true })
        => "CS2R R4, SRZ ;";
    cs2r_clock_32: Op::Cs2r(OpCs2r { dst: d(4), sr: SpecialReg::ClockLo, wide: false })
        => "CS2R.32 R4, SR_CLOCKLO ;";
    bar_sync: Op::Bar(OpBar) => "BAR.SYNC.DEFER_BLOCKING 0x0 ;";
    membar_gpu: Op::Membar(OpMembar { scope: MemScope::Gpu }) => "MEMBAR.SC.GPU ;";
}

#[test]
fn misaligned_pair_is_an_encode_error() {
    let op = Op::Ld(OpLd {
        dst: d(5),
        addr: r(2),
        offset: 0,
        space: MemSpace::Global,
        size: MemSize::B64,
    });
    assert_eq!(
        Instr::new(op).encode(0),
        Err(EncodeError::UnalignedGroup { reg: 5, width: 2 })
    );
    let op = Op::Ld(OpLd {
        dst: d(4),
        addr: r(3),
        offset: 0,
        space: MemSpace::Global,
        size: MemSize::B32,
    });
    assert_eq!(
        Instr::new(op).encode(0),
        Err(EncodeError::UnalignedGroup { reg: 3, width: 2 })
    );
}

#[test]
fn shared_offset_beyond_24_bits_is_an_encode_error() {
    let op = Op::St(OpSt {
        addr: r(2),
        offset: 1 << 23,
        data: r(3),
        space: MemSpace::Shared,
        size: MemSize::B32,
    });
    assert!(matches!(
        Instr::new(op).encode(0),
        Err(EncodeError::ImmediateRange {
            what: "address offset",
            ..
        })
    ));
}

#[test]
fn visitor_reports_group_widths() {
    let mut ins = Instr::new(Op::Atom(OpAtom {
        dst: d(0),
        addr: r(2),
        offset: 0,
        data: r(6),
        cmp: r(4),
        op: AtomOp::CmpExch,
        ty: AtomType::U64,
        space: MemSpace::Global,
    }));
    let mut seen = Vec::new();
    ins.visit_regs(&mut |reg, _, kind, width| seen.push((*reg, kind, width)));
    use OperandKind::{Def, Use};
    assert_eq!(
        seen,
        [
            (Reg::Phys(2), Use, 2),
            (Reg::Phys(4), Use, 2),
            (Reg::Phys(6), Use, 2),
            (Reg::Phys(0), Def, 2),
        ]
    );
}

#[test]
fn load_extends_and_store_truncates() {
    assert_eq!(MemSize::S8.load(&[0xfe]), [0xffff_fffe, 0, 0, 0]);
    assert_eq!(MemSize::U16.load(&[0x34, 0x92]), [0x9234, 0, 0, 0]);
    let stored = MemSize::S16.store([0x1234_5678, 0, 0, 0]);
    assert_eq!(&stored[..MemSize::S16.bytes() as usize], [0x78, 0x56]);
}

#[test]
fn atomic_semantics_edge_cases() {
    use AtomOp::*;
    assert_eq!(AtomType::U32.apply(Add, 0xffff_ffff, 1, 0), 0);
    assert_eq!(AtomType::S32.apply(Min, 5, 0xffff_fffb, 0), 0xffff_fffb);
    assert_eq!(AtomType::U32.apply(Min, 5, 0xffff_fffb, 0), 5);
    assert_eq!(AtomType::U32.apply(Inc, 7, 7, 0), 0);
    assert_eq!(AtomType::U32.apply(Inc, 6, 7, 0), 7);
    assert_eq!(AtomType::U32.apply(Dec, 0, 7, 0), 7);
    assert_eq!(AtomType::U32.apply(Dec, 9, 7, 0), 7);
    assert_eq!(AtomType::U32.apply(Dec, 3, 7, 0), 2);
    assert_eq!(AtomType::U64.apply(CmpExch, 1 << 40, 9, 1 << 40), 9);
    assert_eq!(AtomType::U64.apply(CmpExch, 1 << 40, 9, 0), 1 << 40);
    let f = |v: f32| u64::from(v.to_bits());
    assert_eq!(AtomType::F32.apply(Add, f(1.5), f(2.25), 0), f(3.75));
    // Denormals flush (.FTZ): 1e-40 + 0 is +0.
    assert_eq!(AtomType::F32.apply(Add, f(1e-40), f(0.0), 0), f(0.0));
}
