//! Double-op semantics (`eval` in isa/float64.rs and MUFU's 64-bit seeds)
//! on their edge cases: rounding modes, signed zeros, NaN, infinities,
//! subnormals (never flushed), immediates as high words, saturation.

use spvsass_isa::isa::*;

fn r(n: u8) -> Src {
    Src::reg(Reg::Phys(n))
}
fn d(n: u8) -> Dst {
    Dst::Reg(Reg::Phys(n))
}
fn b(v: f64) -> u64 {
    v.to_bits()
}

fn darith(kind: FloatArith, rnd: Round, x: [f64; 3]) -> u64 {
    OpDArith {
        kind,
        dst: d(0),
        srcs: [r(2), r(4), r(6)],
        rnd,
    }
    .eval(x.map(b))
}

fn f2f(widen: bool, rnd: Round, a: u64) -> u64 {
    OpF2F64 {
        dst: d(0),
        src: r(2),
        widen,
        rnd,
    }
    .eval(a)
}

fn conv(kind: ConvKind, signed: bool, int64: bool, rnd: Round, a: u64) -> u64 {
    OpConv64 {
        kind,
        dst: d(0),
        src: r(2),
        signed,
        int64,
        rnd,
    }
    .eval(a)
}

fn mufu(op: MufuOp, a: u32) -> u32 {
    OpMufu {
        dst: d(0),
        src: r(1),
        op,
    }
    .eval(a)
}

const ULP1: f64 = f64::EPSILON;

macro_rules! cases {
    ($($name:ident: $got:expr => $want:expr;)*) => {$(
        #[test]
        fn $name() {
            assert_eq!($got, $want);
        }
    )*};
}

cases! {
    dadd_rn: darith(FloatArith::Add, Round::Rn, [1.0, ULP1 / 2.0, 0.0]) => b(1.0);
    dadd_rp_steps_up: darith(FloatArith::Add, Round::Rp, [1.0, ULP1 / 4.0, 0.0]) => b(1.0 + ULP1);
    dadd_rz_negative: darith(FloatArith::Add, Round::Rz, [-1.0, -ULP1 / 4.0, 0.0]) => b(-1.0);
    dadd_rm_exact_zero_is_negative: darith(FloatArith::Add, Round::Rm, [1.5, -1.5, 0.0]) => b(-0.0);
    dadd_rn_exact_zero_is_positive: darith(FloatArith::Add, Round::Rn, [1.5, -1.5, 0.0]) => b(0.0);
    dadd_inf_minus_inf_is_canonical_nan: darith(FloatArith::Add, Round::Rn, [f64::INFINITY, f64::NEG_INFINITY, 0.0]) => NAN64;
    dadd_subnormals_not_flushed: darith(FloatArith::Add, Round::Rn, [5e-324, 5e-324, 0.0]) => b(1e-323);
    dmul_rz_overflow_stops_at_max: darith(FloatArith::Mul, Round::Rz, [f64::MAX, 2.0, 0.0]) => b(f64::MAX);
    dmul_rp_of_third: darith(FloatArith::Mul, Round::Rp, [1.0 / 3.0, 3.0, 0.0]) => b(1.0);
    dmul_rm_of_third: darith(FloatArith::Mul, Round::Rm, [1.0 / 3.0, 3.0, 0.0]) => b(1.0 - ULP1 / 2.0);
    dfma_single_rounding: darith(FloatArith::Fma, Round::Rn, [1.0 + ULP1, 1.0 - ULP1, -1.0]) => b(-ULP1 * ULP1);
    dfma_rm_zero_sign: darith(FloatArith::Fma, Round::Rm, [2.0, 3.0, -6.0]) => b(-0.0);
    f2f_widens_exactly: f2f(true, Round::Rn, u64::from(1e-40f32.to_bits())) => b(f64::from(1e-40f32));
    f2f_narrows_rz: f2f(false, Round::Rz, b(1.0 + ULP1)) => u64::from(1f32.to_bits());
    f2f_narrows_rp: f2f(false, Round::Rp, b(1.0 + ULP1)) => u64::from(1f32.next_up().to_bits());
    f2f_nan_is_canonical: f2f(false, Round::Rn, b(f64::NAN)) => 0x7fff_ffff;
    i2f_s32: conv(ConvKind::IntToFloat, true, false, Round::Rn, 0xffff_fffe) => b(-2.0);
    i2f_u32: conv(ConvKind::IntToFloat, false, false, Round::Rn, 0xffff_fffe) => b(4294967294.0);
    i2f_u64_rounds_to_nearest: conv(ConvKind::IntToFloat, false, true, Round::Rn, (1 << 53) + 1) => b(9007199254740992.0);
    i2f_u64_rp_steps_up: conv(ConvKind::IntToFloat, false, true, Round::Rp, (1 << 53) + 1) => b(9007199254740994.0);
    f2i_s32_saturates: conv(ConvKind::FloatToInt, true, false, Round::Rz, b(-1e20)) => 0x8000_0000;
    f2i_u32_of_negative_is_zero: conv(ConvKind::FloatToInt, false, false, Round::Rz, b(-3.5)) => 0;
    f2i_nan_is_zero: conv(ConvKind::FloatToInt, true, true, Round::Rz, b(f64::NAN)) => 0;
    f2i_s64_truncates: conv(ConvKind::FloatToInt, true, true, Round::Rz, b(-1e15 - 0.75)) => (-1_000_000_000_000_000i64) as u64;
    rcp64h_of_two: mufu(MufuOp::Rcp64h, 0x4000_0000) => 0x3fe0_0000;
    rcp64h_of_zero_is_inf: mufu(MufuOp::Rcp64h, 0x8000_0000) => 0xfff0_0000;
    rcp64h_of_inf_is_zero: mufu(MufuOp::Rcp64h, 0x7ff0_0000) => 0;
    rsq64h_of_four: mufu(MufuOp::Rsq64h, 0x4010_0000) => 0x3fe0_0000;
    rsq64h_of_negative_is_nan: mufu(MufuOp::Rsq64h, 0xbff0_0000) => 0x7fff_ffff;
}

#[test]
fn an_immediate_is_the_high_word() {
    let op = OpDArith {
        kind: FloatArith::Mul,
        dst: d(0),
        srcs: [r(2), Src::imm(0x4000_0000), Src::ZERO],
        rnd: Round::Rn,
    };
    assert_eq!(op.eval([b(1.25), 0x4000_0000, 0]), b(2.5));
}

#[test]
fn dsetp_orders_and_nan() {
    let cmp = |c: FloatCmp, x: f64, y: f64| {
        OpDSetP {
            dst: d(0),
            cmp: c,
            combine: PredCombine::And,
            srcs: [r(2), r(4)],
            accum: PredSrc::TRUE,
        }
        .eval(b(x), b(y), true)
    };
    assert!(cmp(FloatCmp::OrdLt, -0.0, 1e-320));
    assert!(!cmp(FloatCmp::OrdLt, -0.0, 0.0));
    assert!(cmp(FloatCmp::OrdEq, -0.0, 0.0));
    assert!(!cmp(FloatCmp::OrdNe, f64::NAN, 1.0));
    assert!(cmp(FloatCmp::UnordNe, f64::NAN, f64::NAN));
    assert!(cmp(FloatCmp::UnordGe, f64::NAN, 1.0));
}

#[test]
fn frnd64_modes() {
    let frnd = |rnd: Round, x: f64| {
        OpFrnd64 {
            dst: d(0),
            src: r(2),
            rnd,
        }
        .eval(b(x))
    };
    assert_eq!(frnd(Round::Rn, 2.5), b(2.0));
    assert_eq!(frnd(Round::Rm, -0.5), b(-1.0));
    assert_eq!(frnd(Round::Rp, -0.5), b(-0.0));
    assert_eq!(frnd(Round::Rz, 4503599627370495.5), b(4503599627370495.0));
}
