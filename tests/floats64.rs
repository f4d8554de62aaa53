//! Doubles (backend/src/from_ir/float64.rs, float64_div.rs) in the
//! simulator: tests/data/doubles.comp runs on special operands (zeros,
//! infinities, NaN, subnormals, extremes) and on pseudo-random pairs over
//! the whole exponent range; every result is checked bit for bit against
//! Rust's f64 arithmetic (IEEE-754, correctly rounded), division and
//! square root included.

use spvsass::backend::target::Arch;
use spvsass::sim::ComputeInputs;

const GROUPS: usize = 64;

/// Operands that take every special path.
const SPECIAL: [(f64, f64); 32] = [
    (0.0, 0.0),
    (-0.0, 0.0),
    (1.0, 0.0),
    (-1.0, -0.0),
    (0.0, 5.0),
    (-0.0, -5.0),
    (f64::INFINITY, 2.0),
    (2.0, f64::INFINITY),
    (f64::INFINITY, f64::INFINITY),
    (f64::NEG_INFINITY, -3.0),
    (f64::NAN, 1.0),
    (1.0, f64::NAN),
    (-4.0, 2.0),
    (f64::MIN_POSITIVE, 3.0),
    (5e-324, 1.0),
    (1.0, 5e-324),
    (2.2e-308, 1e10),
    (f64::MAX, 0.5),
    (f64::MAX, f64::MAX),
    (1e300, 1e-300),
    (1e-300, 1e300),
    (3.0, 1.0 / 3.0),
    (1.5, 2.5),
    (-1.5, -2.5),
    (0.5, -0.5),
    (2.5, 2.0),
    (-2.5, 1.0),
    (4503599627370497.0, 7.0),
    (1e20, -1e20),
    (123456.789, 3e9),
    (-7.0e-310, 2.0),
    (1.0, 1.0),
];

/// xorshift64*: deterministic operands.
fn next(s: &mut u64) -> u64 {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    s.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

/// A random double: any sign and mantissa, with an exponent anywhere in
/// the range (every fourth one near 1, where most arithmetic happens).
fn random(s: &mut u64, k: usize) -> f64 {
    let bits = next(s);
    let mantissa = bits & 0x000f_ffff_ffff_ffff;
    let sign = bits & (1 << 63);
    let exp = if k.is_multiple_of(4) {
        1023 - 8 + (next(s) % 16)
    } else {
        next(s) % 2047
    };
    f64::from_bits(sign | exp << 52 | mantissa)
}

fn operands() -> Vec<(f64, f64)> {
    let mut s = 0x9e37_79b9_7f4a_7c15;
    let mut v = SPECIAL.to_vec();
    for k in 0..32 * GROUPS - SPECIAL.len() {
        v.push((random(&mut s, k), random(&mut s, k + 1)));
    }
    v
}

fn le_bytes(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Same value: equal bits, or both NaN.
fn same(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

fn min_max(x: f64, y: f64, max: bool) -> f64 {
    match (x.is_nan(), y.is_nan()) {
        (true, _) => y,
        (_, true) => x,
        _ if (x > y) == max && x != y => x,
        _ => y,
    }
}

fn expected(i: usize, x: f64, y: f64) -> [f64; 16] {
    [
        x + y,
        x - y,
        x * y,
        x.mul_add(y, x),
        x / y,
        x.sqrt(),
        min_max(x, y, false),
        min_max(x, y, true),
        x.floor(),
        x.ceil(),
        x.trunc(),
        x.round_ties_even(),
        -y.abs(),
        if x < y { x * 2.0 } else { y - 0.5 },
        f64::from(x as f32) + i as f64 - (i as u32).wrapping_mul(3) as f64,
        min_max(min_max(x, -1.0, true), 1.0, false),
    ]
}

fn run(arch: Arch) -> (Vec<(f64, f64)>, Vec<f64>, Vec<u32>) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/doubles.comp.spv");
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let spirv = spvsass::frontend::words_from_bytes(&bytes).unwrap_or_else(|e| panic!("{e}"));
    let options = spvsass::Options {
        arch: Some(arch),
        ..Default::default()
    };
    let compiled = spvsass::compile(&spirv, &options).unwrap_or_else(|e| panic!("{e}"));
    let ops = operands();
    let (a, b): (Vec<f64>, Vec<f64>) = ops.iter().copied().unzip();
    let n = ops.len();
    let inputs = ComputeInputs {
        buffers: [
            (0, le_bytes(&a)),
            (1, le_bytes(&b)),
            (2, vec![0; 16 * 8 * n]),
            (3, vec![0; 4 * 4 * n]),
        ]
        .into_iter()
        .collect(),
        ..Default::default()
    };
    let run = spvsass::Dispatch::new(&compiled.binary, [GROUPS as u32, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let r = run.buffers[&2]
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect();
    let w = run.buffers[&3]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    (ops, r, w)
}

const NAMES: [&str; 16] = [
    "x + y",
    "x - y",
    "x * y",
    "fma(x, y, x)",
    "x / y",
    "sqrt(x)",
    "min",
    "max",
    "floor",
    "ceil",
    "trunc",
    "roundEven",
    "-abs(y)",
    "select",
    "conversions",
    "clamp",
];

fn check(arch: Arch) {
    let (ops, r, w) = run(arch);
    for (i, &(x, y)) in ops.iter().enumerate() {
        let want = expected(i, x, y);
        for k in 0..16 {
            let got = r[16 * i + k];
            // A subnormal quotient is rounded twice (float64_div.rs).
            let tiny_quotient = k == 4 && want[k].abs() < f64::MIN_POSITIVE && want[k] != 0.0;
            let ok = same(got, want[k])
                || (tiny_quotient && got.to_bits().abs_diff(want[k].to_bits()) <= 1)
                // min/max may return either zero of ±0 pairs.
                || ((6..8).contains(&k) && got == want[k]);
            assert!(
                ok,
                "{arch} invocation {i}: {} of {x:e} ({:#x}), {y:e} ({:#x}) is {got:e} ({:#x}), want {:e} ({:#x})",
                NAMES[k],
                x.to_bits(),
                y.to_bits(),
                got.to_bits(),
                want[k],
                want[k].to_bits()
            );
        }
        let flags = [
            x < y,
            x <= y,
            x > y,
            x >= y,
            x == y,
            x != y,
            x.is_nan(),
            y.is_infinite(),
        ]
        .iter()
        .enumerate()
        .map(|(k, &b)| u32::from(b) << k)
        .sum::<u32>();
        assert_eq!(w[4 * i], flags, "comparisons of {x:e}, {y:e}");
        // NaN narrows to the canonical 0x7fffffff, as on NVIDIA hardware.
        let f = if y.is_nan() {
            0x7fff_ffff
        } else {
            (y as f32).to_bits()
        };
        assert_eq!(w[4 * i + 1], f, "float({y:e})");
        let xi = min_max(min_max(x, -2e9, true), 2e9, false);
        assert_eq!(w[4 * i + 2], xi as i32 as u32, "int({x:e})");
        let yu = min_max(min_max(y, 0.0, true), 4e9, false);
        assert_eq!(w[4 * i + 3], yu as u32, "uint({y:e})");
    }
}

#[test]
fn sm86() {
    check(Arch::Sm86);
}

#[test]
fn sm75() {
    check(Arch::Sm75);
}

/// tests/shaders/half_and_double.comp: `h[id] = h[id] * 0.5 + 1.0` on
/// f16vec4 (each step rounded to f16) and `d[id] = x * x + double(h.x) -
/// 1/3` on doubles, checked against Rust's f16 (the `half` crate) and f64.
#[test]
fn half_and_double_runs() {
    use half::f16;
    let options = spvsass::Options {
        arch: Some(Arch::Sm86),
        ..Default::default()
    };
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/shaders/half_and_double.comp.spv"
    );
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let spirv = spvsass::frontend::words_from_bytes(&bytes).unwrap_or_else(|e| panic!("{e}"));
    let compiled = spvsass::compile(&spirv, &options).unwrap_or_else(|e| panic!("{e}"));
    // Halves with ties, subnormals, overflow, a NaN; doubles of every size.
    let halves: Vec<f16> = (0..128u16)
        .map(|k| match k {
            0 => f16::from_bits(0x0001),
            1 => f16::MAX,
            2 => f16::NAN,
            3 => f16::NEG_INFINITY,
            4 => f16::from_bits(0x3c01),
            _ => f16::from_bits(k.wrapping_mul(0x2f3b) & 0xfbff),
        })
        .collect();
    let doubles: Vec<f64> = (0..32)
        .map(|k| (k as f64 - 15.5) * 1.0e10f64.powi(k % 7 - 3))
        .collect();
    let inputs = ComputeInputs {
        buffers: [
            (0, halves.iter().flat_map(|h| h.to_le_bytes()).collect()),
            (1, le_bytes(&doubles)),
        ]
        .into_iter()
        .collect(),
        ..Default::default()
    };
    let run = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let got_h: Vec<u16> = run.buffers[&0]
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    let got_d: Vec<f64> = run.buffers[&1]
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect();
    let round = |x: f32| f16::from_f32(x);
    for (k, h) in halves.iter().enumerate() {
        let half_of = round(h.to_f32() * 0.5);
        let want = round(half_of.to_f32() + 1.0);
        let ok = got_h[k] == want.to_bits() || (want.is_nan() && f16::from_bits(got_h[k]).is_nan());
        assert!(
            ok,
            "h[{k}] = {h}: got {:#06x}, want {want} ({:#06x})",
            got_h[k],
            want.to_bits()
        );
    }
    for (i, x) in doubles.iter().enumerate() {
        let ax = f16::from_bits(got_h[4 * i]).to_f32();
        let want = x * x + f64::from(ax) - 1.0 / 3.0;
        assert!(
            same(got_d[i], want),
            "d[{i}] = {x:e}: got {:e}, want {want:e}",
            got_d[i]
        );
    }
}
