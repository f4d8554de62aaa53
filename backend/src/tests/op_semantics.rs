//! Per-op semantics (`eval`, shared by the constant folder and the
//! simulator) on their edge cases: IEEE-754 NaN, infinities, signed zero,
//! denormals and rounding modes; integer carries, shifts and extremes.

use crate::fold::{Folded, fold};
use crate::isa::*;

fn r(n: u8) -> Src {
    Src::reg(Reg::Phys(n))
}
fn d(n: u8) -> Dst {
    Dst::Reg(Reg::Phys(n))
}
fn k(v: u32) -> Src {
    Src::imm(v)
}
fn f(v: f32) -> u32 {
    v.to_bits()
}

const NAN: u32 = 0x7fff_ffff;
const DENORM: f32 = 1e-40;

fn farith(kind: FloatArith, rnd: Round, ftz: bool) -> OpFArith {
    OpFArith {
        kind,
        dst: d(0),
        srcs: [r(1), r(2), r(3)],
        ftz,
        rnd,
    }
}

macro_rules! cases {
    ($($name:ident: $got:expr => $want:expr;)*) => {$(
        #[test]
        fn $name() {
            assert_eq!($got, $want);
        }
    )*};
}

cases! {
    fadd_rounds_to_nearest_even: farith(FloatArith::Add, Round::Rn, false).eval([f(1.0), f(f32::EPSILON / 2.0), 0]) => f(1.0);
    fadd_rp_rounds_up: farith(FloatArith::Add, Round::Rp, false).eval([f(1.0), f(f32::EPSILON / 4.0), 0]) => f(1.0 + f32::EPSILON);
    fadd_rm_rounds_down_negative: farith(FloatArith::Add, Round::Rm, false).eval([f(-1.0), f(-f32::EPSILON / 4.0), 0]) => f(-1.0 - f32::EPSILON);
    fadd_rz_truncates: farith(FloatArith::Add, Round::Rz, false).eval([f(1.0), f(f32::EPSILON * 0.75), 0]) => f(1.0);
    fadd_rz_overflow_stops_at_max: farith(FloatArith::Add, Round::Rz, false).eval([f(f32::MAX), f(f32::MAX), 0]) => f(f32::MAX);
    fadd_rn_overflow_is_infinite: farith(FloatArith::Add, Round::Rn, false).eval([f(f32::MAX), f(f32::MAX), 0]) => f(f32::INFINITY);
    fadd_cancellation_is_plus_zero: farith(FloatArith::Add, Round::Rn, false).eval([f(3.0), f(-3.0), 0]) => f(0.0);
    fadd_rm_cancellation_is_minus_zero: farith(FloatArith::Add, Round::Rm, false).eval([f(3.0), f(-3.0), 0]) => f(-0.0);
    fadd_minus_zeros_stay_minus: farith(FloatArith::Add, Round::Rn, false).eval([f(-0.0), f(-0.0), 0]) => f(-0.0);
    fadd_inf_minus_inf_is_canonical_nan: farith(FloatArith::Add, Round::Rn, false).eval([f(f32::INFINITY), f(f32::NEG_INFINITY), 0]) => NAN;
    fadd_nan_payload_is_canonical: farith(FloatArith::Add, Round::Rn, false).eval([0x7fc0_1234, f(1.0), 0]) => NAN;
    fadd_ftz_flushes_denormal_inputs: farith(FloatArith::Add, Round::Rn, true).eval([f(DENORM), f(0.0), 0]) => f(0.0);
    fadd_keeps_denormals_without_ftz: farith(FloatArith::Add, Round::Rn, false).eval([f(DENORM), f(0.0), 0]) => f(DENORM);
    fmul_zero_times_inf_is_nan: farith(FloatArith::Mul, Round::Rn, false).eval([f(0.0), f(f32::INFINITY), 0]) => NAN;
    fmul_sign_of_zero: farith(FloatArith::Mul, Round::Rz, false).eval([f(-0.0), f(5.0), 0]) => f(-0.0);
    // f32(1/3) is slightly above 1/3, so the product is slightly above 1.
    fmul_rp_of_third: farith(FloatArith::Mul, Round::Rp, false).eval([f(1.0 / 3.0), f(3.0), 0]) => f(1.0 + f32::EPSILON);
    fmul_rz_of_third: farith(FloatArith::Mul, Round::Rz, false).eval([f(1.0 / 3.0), f(3.0), 0]) => f(1.0);
    ffma_is_fused: farith(FloatArith::Fma, Round::Rn, false).eval([f(1.0 + f32::EPSILON), f(1.0 - f32::EPSILON), f(-1.0)]) => f(-f32::EPSILON * f32::EPSILON);
    ffma_rz_matches_truncation: farith(FloatArith::Fma, Round::Rz, false).eval([f(1.0 + f32::EPSILON), f(1.0 + f32::EPSILON), f(0.0)]) => f(1.0 + 2.0 * f32::EPSILON);
    fneg_abs_modifiers: OpFArith { srcs: [Src { abs: true, neg: true, ..r(1) }, r(2), r(3)], ..farith(FloatArith::Add, Round::Rn, false) }.eval([f(2.0), f(0.5), 0]) => f(-1.5);

    fmnmx_ignores_one_nan: OpFMnMx { dst: d(0), srcs: [r(1), r(2)], ftz: false, min: PredSrc::TRUE }.eval(0x7fc0_0000, f(2.0), true) => f(2.0);
    fmnmx_two_nans_give_nan: OpFMnMx { dst: d(0), srcs: [r(1), r(2)], ftz: false, min: PredSrc::TRUE }.eval(0x7fc0_0000, 0xffc0_0000, true) => NAN;
    fmnmx_min_of_zeros_is_minus: OpFMnMx { dst: d(0), srcs: [r(1), r(2)], ftz: false, min: PredSrc::TRUE }.eval(f(0.0), f(-0.0), true) => f(-0.0);
    fmnmx_max_of_zeros_is_plus: OpFMnMx { dst: d(0), srcs: [r(1), r(2)], ftz: false, min: PredSrc::TRUE }.eval(f(-0.0), f(0.0), false) => f(0.0);

    mufu_rcp_of_minus_zero: mufu(MufuOp::Rcp, f(-0.0)) => f(f32::NEG_INFINITY);
    mufu_rcp_of_inf: mufu(MufuOp::Rcp, f(f32::INFINITY)) => f(0.0);
    mufu_rcp_flushes_denormal_input: mufu(MufuOp::Rcp, f(DENORM)) => f(f32::INFINITY);
    mufu_rsq_of_negative_is_nan: mufu(MufuOp::Rsq, f(-4.0)) => NAN;
    mufu_rsq_of_four: mufu(MufuOp::Rsq, f(4.0)) => f(0.5);
    mufu_sqrt_of_minus_zero: mufu(MufuOp::Sqrt, f(-0.0)) => f(-0.0);
    mufu_ex2_of_minus_inf: mufu(MufuOp::Ex2, f(f32::NEG_INFINITY)) => f(0.0);
    mufu_ex2_exact_power: mufu(MufuOp::Ex2, f(10.0)) => f(1024.0);
    mufu_lg2_of_zero: mufu(MufuOp::Lg2, f(0.0)) => f(f32::NEG_INFINITY);
    mufu_lg2_of_negative: mufu(MufuOp::Lg2, f(-1.0)) => NAN;
    mufu_sin_quarter_turn: mufu(MufuOp::Sin, f(0.25)) => f(1.0);
    mufu_cos_half_turn: mufu(MufuOp::Cos, f(0.5)) => f(-1.0);
    mufu_sin_of_inf: mufu(MufuOp::Sin, f(f32::INFINITY)) => NAN;

    frnd_ties_to_even: frnd(Round::Rn, f(2.5)) => f(2.0);
    frnd_floor_negative: frnd(Round::Rm, f(-2.5)) => f(-3.0);
    frnd_ceil_keeps_minus_zero: frnd(Round::Rp, f(-0.5)) => f(-0.0);
    frnd_trunc: frnd(Round::Rz, f(-2.7)) => f(-2.0);

    f2f_to_half_rounds_nearest: f2f(FloatFmt::F16, FloatFmt::F32, Round::Rn, f(1.0 + 1.0 / 4096.0)) => 0x3c00;
    f2f_to_half_rp: f2f(FloatFmt::F16, FloatFmt::F32, Round::Rp, f(1.0 + 1.0 / 4096.0)) => 0x3c01;
    f2f_to_half_rz_overflow: f2f(FloatFmt::F16, FloatFmt::F32, Round::Rz, f(1e6)) => 0x7bff;
    f2f_to_half_rn_overflow: f2f(FloatFmt::F16, FloatFmt::F32, Round::Rn, f(1e6)) => 0x7c00;
    f2f_to_half_rm_small_negative: f2f(FloatFmt::F16, FloatFmt::F32, Round::Rm, f(-1e-10)) => 0x8001;
    f2f_from_half: f2f(FloatFmt::F32, FloatFmt::F16, Round::Rn, 0xc000) => f(-2.0);
    f2f_nan_to_half: f2f(FloatFmt::F16, FloatFmt::F32, Round::Rn, NAN) => 0x7fff;

    iadd3x_carry_out: iadd3x(false, [false; 3]).eval([0xffff_ffff, 1, 0], false) => (0, true);
    iadd3x_subtract_no_borrow_carries: iadd3x(false, [false, true, false]).eval([5, 3, 0], false) => (2, true);
    iadd3x_subtract_with_borrow: iadd3x(false, [false, true, false]).eval([3, 5, 0], false) => (0xffff_fffe, false);
    iadd3x_high_half_takes_carry: iadd3x(true, [false; 3]).eval([1, 2, 0], true) => (4, false);
    iadd3x_high_half_not_is_bitwise: iadd3x(true, [false, true, false]).eval([7, 0, 0], true) => (7, true);

    imad_wide_signed: imad_wide(true).eval_wide(0xffff_ffff, 2, 10) => 8;
    imad_wide_unsigned: imad_wide(false).eval_wide(0xffff_ffff, 2, 10) => 0x2_0000_0008;
    imad_hi_signed_negative: OpIMadWide { hi: true, ..imad_wide(true) }.eval_hi(0x8000_0000, 2, 0) => 0xffff_ffff;
    imad_hi_unsigned: OpIMadWide { hi: true, ..imad_wide(false) }.eval_hi(0x8000_0000, 4, 0) => 2;
    // The pair c is added to the whole product: its low word carries into
    // the high word, its high word adds to it (ptxas's division adds its
    // estimate this way).
    imad_hi_pair_high_word_adds: OpIMadWide { hi: true, ..imad_wide(false) }.eval_hi(0x8000_0000, 4, 7 << 32) => 9;
    imad_hi_pair_low_word_carries: OpIMadWide { hi: true, ..imad_wide(false) }.eval_hi(0xffff_ffff, 0xffff_ffff, 0xffff_ffff) => 0xffff_ffff;

    shf_left_by_32_clamps: shf(false, false, false).eval([1, 32, 0]) => 0;
    shf_left_by_32_wraps_with_w: shf(false, true, false).eval([1, 32, 0]) => 1;
    shf_right_hi_funnel: shf(true, false, true).eval([0, 4, 0x80]) => 0x8;
    shf_right_low_takes_high_bits: shf(true, false, false).eval([0, 4, 0xf]) => 0xf000_0000;

    imnmx_signed_min: OpIMnMx { dst: d(0), srcs: [r(1), r(2)], signed: true, min: PredSrc::TRUE }.eval(0x8000_0000, 1, true) => 0x8000_0000;
    imnmx_unsigned_max: OpIMnMx { dst: d(0), srcs: [r(1), r(2)], signed: false, min: FALSE }.eval(0x8000_0000, 1, false) => 0x8000_0000;

    popc: bit(BitOp::Popc, 0xf0f0_0001) => 9;
    brev: bit(BitOp::Brev, 1) => 0x8000_0000;
    flo_of_zero: bit(BitOp::Flo { signed: false, shift: false }, 0) => 0xffff_ffff;
    flo_unsigned: bit(BitOp::Flo { signed: false, shift: false }, 0x0001_0000) => 16;
    flo_shift_amount: bit(BitOp::Flo { signed: false, shift: true }, 0x0001_0000) => 15;
    flo_signed_negative: bit(BitOp::Flo { signed: true, shift: false }, 0xffff_fff0) => 3;
    flo_signed_minus_one: bit(BitOp::Flo { signed: true, shift: false }, 0xffff_ffff) => 0xffff_ffff;

    bmsk_clamps: OpBmsk { dst: d(0), srcs: [r(1), r(2)], wrap: false }.eval(28, 40) => 0xf000_0000;
    bmsk_wraps: OpBmsk { dst: d(0), srcs: [r(1), r(2)], wrap: true }.eval(33, 3) => 0xe;
    bmsk_full_width: OpBmsk { dst: d(0), srcs: [r(1), r(2)], wrap: false }.eval(0, 32) => 0xffff_ffff;

    sgxt_signed: OpSgxt { dst: d(0), srcs: [r(1), r(2)], signed: true }.eval(0x80, 8) => 0xffff_ff80;
    sgxt_unsigned: OpSgxt { dst: d(0), srcs: [r(1), r(2)], signed: false }.eval(0x1ff, 8) => 0xff;
    sgxt_zero_bits: OpSgxt { dst: d(0), srcs: [r(1), r(2)], signed: true }.eval(0xff, 0) => 0;
    sgxt_clamps_at_32: OpSgxt { dst: d(0), srcs: [r(1), r(2)], signed: true }.eval(0x8000_0000, 40) => 0x8000_0000;

    prmt_byte_select: prmt().eval([0x4433_2211, 0x0123, 0x8877_6655]) => 0x1122_3344;
    prmt_sign_replicate: prmt().eval([0x0000_0080, 0x8888, 0]) => 0xffff_ffff;
    lea_scales_and_adds: lea(false, 2).eval([3, 100, 0]) => 112;
    lea_hi_takes_high_bits: lea(true, 4).eval([0xf000_0000, 1, 0x1]) => 0x20;

    plop3_and: OpPLop3 { dst: d(0), srcs: [PredSrc::TRUE; 3], lut: 0x80 }.eval(true, true, false) => false;
    plop3_or: OpPLop3 { dst: d(0), srcs: [PredSrc::TRUE; 3], lut: 0xfe }.eval(false, false, true) => true;

    redux_sum_wraps: redux(ReduxOp::Sum, false).eval([0xffff_ffff, 2].into_iter()) => 1;
    redux_min_signed: redux(ReduxOp::Min, true).eval([5, 0xffff_ffff, 3].into_iter()) => 0xffff_ffff;
    redux_min_unsigned: redux(ReduxOp::Min, false).eval([5, 0xffff_ffff, 3].into_iter()) => 3;
    vote_eq_all_false: OpVote { dst: d(0), pdst: d(0), src: PredSrc::TRUE, mode: VoteMode::Eq }.eval(0, 0xff) => true;
    vote_all_partial: OpVote { dst: d(0), pdst: d(0), src: PredSrc::TRUE, mode: VoteMode::All }.eval(0x7f, 0xff) => false;

    shfl_bfly_in_range: shfl(ShflMode::Bfly).source(5, 1, 0x1f) => (4, true);
    shfl_down_out_of_range_keeps_own: shfl(ShflMode::Down).source(30, 4, 0x1f) => (30, false);
    shfl_up_below_zero_keeps_own: shfl(ShflMode::Up).source(1, 2, 0) => (1, false);
    shfl_idx_segmented: shfl(ShflMode::Idx).source(13, 2, 0x181f) => (10, true);

    fold_uses_eval: fold(&Op::Bit(OpBit { dst: d(0), src: k(0xff), op: BitOp::Popc })) => Some(Folded::Word(8));
    fold_needs_constant_predicates: fold(&Op::IMnMx(OpIMnMx { dst: d(0), srcs: [k(1), k(2)], signed: true, min: PredSrc::reg(Reg::Phys(0)) })) => None;
}

fn mufu(op: MufuOp, a: u32) -> u32 {
    OpMufu {
        dst: d(0),
        src: r(1),
        op,
    }
    .eval(a)
}

fn frnd(rnd: Round, a: u32) -> u32 {
    OpFrnd {
        dst: d(0),
        src: r(1),
        rnd,
        ftz: false,
    }
    .eval(a)
}

fn f2f(dst_fmt: FloatFmt, src_fmt: FloatFmt, rnd: Round, a: u32) -> u32 {
    OpF2F {
        dst: d(0),
        src: r(1),
        dst_fmt,
        src_fmt,
        rnd,
        ftz: false,
    }
    .eval(a)
}

fn iadd3x(x: bool, neg: [bool; 3]) -> OpIAdd3X {
    OpIAdd3X {
        dst: d(0),
        carry_out: d(0),
        srcs: [0, 1, 2].map(|i| Src {
            neg: neg[i],
            ..r(i as u8 + 1)
        }),
        x,
        carry_in: PredSrc::reg(Reg::Phys(1)),
    }
}

fn imad_wide(signed: bool) -> OpIMadWide {
    OpIMadWide {
        dst: d(0),
        srcs: [r(2), r(3), r(4)],
        signed,
        hi: false,
    }
}

fn shf(right: bool, wrap: bool, high: bool) -> OpShf {
    OpShf {
        dst: d(0),
        srcs: [r(1), r(2), r(3)],
        right,
        wrap,
        high,
    }
}

fn bit(op: BitOp, a: u32) -> u32 {
    OpBit {
        dst: d(0),
        src: r(1),
        op,
    }
    .eval(a)
}

fn prmt() -> OpPrmt {
    OpPrmt {
        dst: d(0),
        srcs: [r(1), r(2), r(3)],
    }
}

fn lea(hi: bool, shift: u8) -> OpLea {
    OpLea {
        dst: d(0),
        srcs: [r(1), r(2), if hi { r(3) } else { Src::ZERO }],
        shift,
        hi,
    }
}

fn redux(op: ReduxOp, signed: bool) -> OpRedux {
    OpRedux {
        dst: d(0),
        src: r(1),
        op,
        signed,
    }
}

fn shfl(mode: ShflMode) -> OpShfl {
    OpShfl {
        dst: d(0),
        in_bounds: Dst::None,
        src: r(1),
        lane: r(2),
        c: r(3),
        mode,
    }
}

#[test]
fn shfl_uses_the_low_five_bits_of_b() {
    assert_eq!(shfl(ShflMode::Down).source(3, 0x21, 0x1f), (4, true));
}
