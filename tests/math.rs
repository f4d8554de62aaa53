//! The float functions' lowerings (backend/src/from_ir/math.rs) run in the
//! simulator on edge-case inputs: c_math_edges.comp applies 40 functions to
//! one (a, b) pair per invocation, and every slot is checked against an f64
//! reference within the bound docs/ISA.md gives ("Float functions"). One
//! test per input pair.

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::sim::ComputeInputs;
use std::collections::BTreeMap;

const SLOTS: usize = 40;

/// How close a result must be to the reference.
#[derive(Clone, Copy)]
enum Tol {
    /// The same bits (any NaN for a NaN).
    Exact,
    /// Within n units in the last place of the f32 reference.
    Ulps(u32),
    /// |got - want| <= abs + rel·|want|.
    Near { abs: f64, rel: f64 },
}

/// The reference of one slot: f64 arithmetic on the f32 inputs.
type Reference = fn(f32, f32) -> f64;

struct Slot {
    name: &'static str,
    want: Reference,
    tol: Tol,
    /// Whether the function is defined (by GLSL) at these inputs; NaN
    /// inputs are defined only where `nan` is set.
    defined: fn(f32, f32) -> bool,
    nan: bool,
    /// MUFU flushes denormal inputs (docs/ISA.md): the reference sees them
    /// as zeros.
    flushes: bool,
}

fn always(_: f32, _: f32) -> bool {
    true
}

fn flush(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

fn d(x: f32) -> f64 {
    f64::from(x)
}

const NEAR: Tol = Tol::Near {
    abs: 2e-6,
    rel: 2e-6,
};
const NEAR_EXP: Tol = Tol::Near {
    abs: 1e-6,
    rel: 1e-5,
};

/// The slots of c_math_edges.comp, in order.
fn slots() -> [Slot; SLOTS] {
    let s = |name, want: Reference, tol, defined: fn(f32, f32) -> bool, nan, flushes| Slot {
        name,
        want,
        tol,
        defined,
        nan,
        flushes,
    };
    [
        s("a / b", divide, Tol::Ulps(1), always, true, false),
        // x - y·floor(x/y), the quotient correctly rounded to f32 first.
        s(
            "mod",
            |a, b| d(a) - d(b) * d((a / b).floor()),
            Tol::Ulps(2),
            // A denormal divisor is flushed by the division (MUFU.RCP).
            |a, b| a.is_finite() && b.is_normal(),
            true,
            false,
        ),
        s(
            "floor",
            |a, _| d(a.floor()),
            Tol::Exact,
            always,
            true,
            false,
        ),
        s("ceil", |a, _| d(a.ceil()), Tol::Exact, always, true, false),
        s(
            "fract",
            |a, _| d(a - a.floor()),
            Tol::Exact,
            always,
            true,
            false,
        ),
        s(
            "trunc",
            |a, _| d(a.trunc()),
            Tol::Exact,
            always,
            true,
            false,
        ),
        s(
            "roundEven",
            |a, _| d(a.round_ties_even()),
            Tol::Exact,
            always,
            true,
            false,
        ),
        s(
            "sign",
            |a, _| {
                d(if a > 0.0 {
                    1.0
                } else if a < 0.0 {
                    -1.0
                } else {
                    a
                })
            },
            Tol::Exact,
            always,
            false,
            false,
        ),
        // minNum / maxNum: a NaN operand is ignored (as Rust's min/max).
        s("min", |a, b| d(a.min(b)), Tol::Exact, always, true, false),
        s("max", |a, b| d(a.max(b)), Tol::Exact, always, true, false),
        s(
            "clamp",
            |a, _| d(min_max(a, -1.0, 1.0)),
            Tol::Exact,
            always,
            true,
            false,
        ),
        s("sqrt", |a, _| d(a).sqrt(), Tol::Ulps(1), always, true, true),
        s(
            "inversesqrt",
            |a, _| 1.0 / d(a).sqrt(),
            Tol::Ulps(1),
            always,
            true,
            true,
        ),
        s("exp2", |a, _| d(a).exp2(), Tol::Ulps(1), always, true, true),
        // The H100's LG2 (docs/ISA.md, "MUFU results") errs by up to about
        // 2^-23 absolute near 1, where that is many ULPs.
        s(
            "log2",
            |a, _| d(a).log2(),
            Tol::Near {
                abs: 2f64.powi(-22),
                rel: 2f64.powi(-22),
            },
            always,
            true,
            true,
        ),
        s("sin", |a, _| d(a).sin(), NEAR, small, true, true),
        s("cos", |a, _| d(a).cos(), NEAR, small, true, true),
        s("tan", |a, _| d(a).tan(), NEAR_EXP, small, false, true),
        // Undefined for |x| > 1 (GLSL).
        s("asin", |a, _| d(a).asin(), NEAR, unit, false, true),
        s("acos", |a, _| d(a).acos(), NEAR, unit, false, true),
        s("atan", |a, _| d(a).atan(), NEAR, always, false, true),
        s(
            "atan2",
            |a, b| d(a).atan2(d(b)),
            NEAR,
            |a, b| !((a == 0.0 && b == 0.0) || (a.is_infinite() && b.is_infinite())),
            false,
            true,
        ),
        s("sinh", |a, _| d(a).sinh(), NEAR_EXP, moderate, false, true),
        s("cosh", |a, _| d(a).cosh(), NEAR_EXP, moderate, false, true),
        s("tanh", |a, _| d(a).tanh(), NEAR_EXP, always, false, true),
        s(
            "asinh",
            |a, _| d(a).asinh(),
            NEAR_EXP,
            moderate,
            false,
            true,
        ),
        s(
            "acosh",
            |a, _| d(a).acosh(),
            NEAR_EXP,
            moderate,
            false,
            true,
        ),
        // Undefined for |x| >= 1 (GLSL).
        s(
            "atanh",
            |a, _| d(a).atanh(),
            NEAR_EXP,
            |a, _| a.abs() < 1.0,
            false,
            true,
        ),
        s(
            "pow",
            |a, b| d(a).powf(d(b)),
            NEAR_EXP,
            // Undefined for x < 0, or x = 0 and y <= 0; an infinite y is
            // left out too (1^inf is NaN here: inf·0 in the exponent).
            |a, b| a > 0.0 && b.is_finite() && (a != 1.0 || b == 0.0) && b.abs() < 64.0,
            false,
            true,
        ),
        s("exp", |a, _| d(a).exp(), NEAR_EXP, always, true, true),
        s("log", |a, _| d(a).ln(), NEAR_EXP, always, true, true),
        s(
            "mix",
            |a, b| d(a) * 0.75 + d(b) * 0.25,
            Tol::Ulps(2),
            always,
            false,
            false,
        ),
        s(
            "step",
            |a, b| if a < b { 0.0 } else { 1.0 },
            Tol::Exact,
            always,
            false,
            false,
        ),
        s(
            "smoothstep",
            |a, _| {
                let t = ((d(a) + 1.0) / 3.0).clamp(0.0, 1.0);
                t * t * (3.0 - 2.0 * t)
            },
            NEAR,
            always,
            false,
            false,
        ),
        s(
            "fma",
            |a, b| d(a.mul_add(b, 0.5)),
            Tol::Exact,
            always,
            true,
            false,
        ),
        s(
            "radians + degrees",
            |a, b| d(a) * std::f64::consts::PI / 180.0 + d(b) * 180.0 / std::f64::consts::PI,
            Tol::Ulps(4),
            |a, b| a.is_finite() && b.is_finite() && b.abs() < 1e30,
            false,
            false,
        ),
        s(
            "ldexp",
            |a, b| d(a) * 2f64.powi(b as i32),
            Tol::Exact,
            |_, b| b.is_finite() && b.abs() < 64.0,
            false,
            false,
        ),
        s(
            "frexp significand",
            |a, _| frexp(a).0,
            Tol::Exact,
            finite,
            false,
            false,
        ),
        s(
            "modf fraction",
            |a, _| d((a - a.trunc()).copysign(a)),
            Tol::Exact,
            finite,
            false,
            false,
        ),
        s(
            "modf whole",
            |a, _| d(a.trunc()),
            Tol::Exact,
            finite,
            false,
            false,
        ),
    ]
}

/// a / b as the refined division computes it: a denormal divisor is
/// flushed (MUFU.RCP), and one of magnitude 2^126 or more has a reciprocal
/// below the normal range, flushed too, so the quotient is ±0 (as CUDA's
/// __fdividef documents for its MUFU.RCP-based division).
fn divide(a: f32, b: f32) -> f64 {
    let b = flush(b);
    if b.is_finite() && b.abs() >= 2f32.powi(126) && a.is_finite() {
        return d(0.0f32.copysign(a) * b.signum());
    }
    d(a / b)
}

/// clamp as max then min with IEEE maxNum/minNum: a NaN input gives `lo`
/// (f32::clamp would keep the NaN).
#[allow(clippy::manual_clamp)]
fn min_max(x: f32, lo: f32, hi: f32) -> f32 {
    x.max(lo).min(hi)
}

fn unit(a: f32, _: f32) -> bool {
    a.abs() <= 1.0
}

fn finite(a: f32, _: f32) -> bool {
    a.is_finite()
}

/// sin, cos and tan are specified on [-π, π] only.
fn small(a: f32, _: f32) -> bool {
    a.abs() <= std::f32::consts::PI || a.is_infinite()
}

/// Away from f32 overflow of e^x or x².
fn moderate(a: f32, _: f32) -> bool {
    a.abs() < 80.0 || a.is_infinite()
}

/// (significand in [0.5, 1), exponent), zero for zero.
fn frexp(a: f32) -> (f64, i32) {
    if a == 0.0 {
        return (d(a), 0);
    }
    let mut e = 0;
    let mut m = d(a);
    while m.abs() >= 1.0 {
        m /= 2.0;
        e += 1;
    }
    while m.abs() < 0.5 {
        m *= 2.0;
        e -= 1;
    }
    (m, e)
}

fn ulps_apart(got: f32, want: f32) -> u64 {
    let key = |x: f32| {
        let b = x.to_bits() as i32;
        i64::from(if b < 0 { i32::MIN - b } else { b })
    };
    key(got).abs_diff(key(want))
}

fn check_slot(slot: &Slot, a: f32, b: f32, got: f32) -> Result<(), String> {
    let (ra, rb) = if slot.flushes {
        (flush(a), flush(b))
    } else {
        (a, b)
    };
    let want = (slot.want)(ra, rb);
    let want32 = want as f32;
    let fail = || {
        Err(format!(
            "{}({a:e}, {b:e}) = {got:e}, want {want:e}",
            slot.name
        ))
    };
    if want.is_nan() {
        return if got.is_nan() { Ok(()) } else { fail() };
    }
    if want.is_infinite() || want32.is_infinite() {
        return if got == want32 { Ok(()) } else { fail() };
    }
    let ok = match slot.tol {
        Tol::Exact => got.to_bits() == want32.to_bits(),
        Tol::Ulps(n) => ulps_apart(got, want32) <= u64::from(n),
        Tol::Near { abs, rel } => (d(got) - want).abs() <= abs + rel * want.abs(),
    };
    if ok { Ok(()) } else { fail() }
}

/// Runs the pair through every slot and checks what is defined.
fn check_pair(a: f32, b: f32) {
    let pairs: Vec<u8> = [a, b, 0.0, 0.0]
        .iter()
        .cycle()
        .take(64)
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let inputs = ComputeInputs {
        buffers: BTreeMap::from([
            (0, pairs),
            (1, vec![0; 32 * SLOTS * 4]),
            (2, vec![0; 32 * 4]),
        ]),
        ..Default::default()
    };
    let compiled = common::compile("c_math_edges.comp", Arch::Sm86);
    let run = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let r: Vec<f32> = run.buffers[&1]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let e = i32::from_le_bytes(run.buffers[&2][..4].try_into().expect("4 bytes"));
    let mut errors = Vec::new();
    for (i, slot) in slots().iter().enumerate() {
        let nan_in = a.is_nan() || b.is_nan();
        if !(slot.defined)(a, b) || (nan_in && !slot.nan) {
            continue;
        }
        if let Err(msg) = check_slot(slot, a, b, r[i]) {
            errors.push(msg);
        }
    }
    if a.is_finite() {
        let want = frexp(a).1;
        if e != want {
            errors.push(format!("frexp exponent({a:e}) = {e}, want {want}"));
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

macro_rules! pairs {
    ($($name:ident: $a:expr, $b:expr;)*) => {
        $(#[test] fn $name() { check_pair($a, $b); })*
    };
}

const INF: f32 = f32::INFINITY;
const NAN: f32 = f32::NAN;
/// The smallest positive denormal and a larger one.
const DENORM_MIN: f32 = 1e-45;
const DENORM: f32 = 3.0e-39;

pairs! {
    plain_positive: 1.5, 0.5;
    plain_negative: -2.75, 1.25;
    negative_divisor: 7.0, -3.0;
    fractions: 0.3, 0.7;
    thirds: 100.0, 3.0;
    small_negative: -0.5, 2.0;
    near_one: 0.999_999_9, 1.000_000_1;
    ties_to_even: 2.5, -0.1;
    odd_tie: -3.5, 6.0;
    large: 3.0e38, 0.5;
    quotient_overflow: 3.0e38, 1.0e-3;
    tiny_quotient: 1.0e-30, 1.0e10;
    positive_zero: 0.0, 1.0;
    negative_zero: -0.0, 1.0;
    divide_by_zero: 1.0, 0.0;
    divide_by_negative_zero: -1.0, -0.0;
    zero_by_zero: 0.0, 0.0;
    plus_infinity: INF, 2.0;
    minus_infinity: -INF, 2.0;
    divide_by_infinity: 1.0, INF;
    both_infinite: INF, INF;
    nan_first: NAN, 1.0;
    nan_second: 1.0, NAN;
    denormal_numerator: DENORM, 2.0;
    smallest_denormal: DENORM_MIN, 1.0;
    denormal_divisor_is_flushed: 1.0, DENORM;
    negative_denormal: -DENORM, 3.0;
    huge_divisor: 1.0, 1.0e38;
    two_pi: std::f32::consts::TAU, 0.25;
    minus_pi: -std::f32::consts::PI, 4.0;
}
