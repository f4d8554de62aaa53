//! 64-bit division and remainder (backend/src/from_ir/wide_div.rs) in the
//! simulator: tests/shaders/wide_div_ops.comp (OpSMod) and wide_srem.comp
//! (the same with OpSRem) divide 128 operand pairs (edge cases, then
//! pseudo-random pairs of every magnitude), each result checked against
//! Rust's u64/i64.

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::sim::ComputeInputs;

const N: usize = 128;

/// Edge cases: INT64_MIN / -1, signs of SRem vs SMod, divisors above the
/// numerator, divisors with the top bit set, 32-bit boundaries, zero.
const EDGES: [(u64, u64); 32] = [
    (i64::MIN as u64, -1i64 as u64),
    (i64::MIN as u64, 1),
    (i64::MIN as u64, i64::MIN as u64),
    (i64::MAX as u64, -1i64 as u64),
    (-7i64 as u64, 2),
    (7, -2i64 as u64),
    (-7i64 as u64, -2i64 as u64),
    (7, 2),
    (-1i64 as u64, u64::MAX),
    (u64::MAX, 1),
    (u64::MAX, 0x8000_0000_0000_0001),
    (0x8000_0000_0000_0000, 0xffff_ffff_ffff_fffe),
    (5, 0x1_0000_0000),
    (0x1_0000_0000, 0xffff_ffff),
    (0xffff_ffff_ffff_ffff, 0xffff_ffff),
    (0xffff_ffff_ffff_ffff, 0x1_0000_0001),
    (0x1234_5678_9abc_def0, 0x1234_5678_9abc_def0),
    (0x1234_5678_9abc_def0, 0x1234_5678_9abc_def1),
    (0, 3),
    (0, -3i64 as u64),
    (3, 3),
    (100, 7),
    (-100i64 as u64, 7),
    (100, -7i64 as u64),
    (-100i64 as u64, -7i64 as u64),
    (0xdead_beef, 0x10),
    (0x7fff_ffff_ffff_ffff, 0x7fff_ffff),
    (0x8000_0000, 0x8000_0000),
    (-0x8000_0000i64 as u64, 0x7fff_ffff),
    (0x0000_0001_0000_0000, 0x0000_0000_8000_0000),
    (42, 0),
    (-42i64 as u64, 0),
];

/// The operand pairs: the edges, then pseudo-random pairs whose
/// magnitudes vary (a 64-bit xorshift, shifted right by 0..63 bits).
fn pairs() -> Vec<(u64, u64)> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut v = EDGES.to_vec();
    while v.len() < N {
        let (a, b) = (next(), next());
        let (sa, sb) = (next() % 64, next() % 64);
        v.push((a >> sa, (b >> sb).max(1)));
    }
    v
}

fn smod(n: i64, d: i64) -> i64 {
    let r = n.wrapping_rem(d);
    if r != 0 && (r < 0) != (d < 0) {
        r + d
    } else {
        r
    }
}

/// The eight results of invocation `i`; `None` where SPIR-V leaves a
/// result undefined (division by zero, signed), except for the unsigned
/// zero-divisor results, which this lowering defines (all ones, the
/// numerator).
fn expected(n: u64, d: u64, srem: bool) -> [Option<u64>; 8] {
    let (sn, sd) = (n as i64, d as i64);
    let rem = |a: i64, b: i64| if srem { a.wrapping_rem(b) } else { smod(a, b) };
    let nonzero = |v: u64| (d != 0).then_some(v);
    [
        Some(n.checked_div(d).unwrap_or(u64::MAX)),
        Some(n.checked_rem(d).unwrap_or(n)),
        nonzero(if d == 0 {
            0
        } else {
            sn.wrapping_div(sd) as u64
        }),
        nonzero(if d == 0 { 0 } else { rem(sn, sd) as u64 }),
        Some(n / 10),
        Some((sn / -7) as u64),
        Some(n % 4096),
        Some((n >> 32) + n % 0x7_ffff_ffff),
    ]
}

fn check(shader: &str, srem: bool) {
    let compiled = common::compile(shader, Arch::Sm86);
    let p = pairs();
    let mut input: Vec<u8> = p.iter().flat_map(|x| x.0.to_le_bytes()).collect();
    input.extend(p.iter().flat_map(|x| x.1.to_le_bytes()));
    let inputs = ComputeInputs {
        buffers: [(0, input), (1, vec![0; 8 * 8 * N])].into_iter().collect(),
        ..Default::default()
    };
    let run = spvsass::Dispatch::new(&compiled.binary, [4, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let got: Vec<u64> = run.buffers[&1]
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect();
    let names = [
        "u/",
        "u%",
        "s/",
        if srem { "srem" } else { "smod" },
        "/10",
        "/-7",
        "%4096",
        "const",
    ];
    for (i, &(n, d)) in p.iter().enumerate() {
        for (k, want) in expected(n, d, srem).iter().enumerate() {
            if let Some(w) = want {
                assert_eq!(
                    got[8 * i + k],
                    *w,
                    "pair {i} ({n:#x}, {d:#x}): {}",
                    names[k]
                );
            }
        }
    }
}

#[test]
fn smod_and_unsigned() {
    check("wide_div_ops.comp", false);
}

#[test]
fn srem() {
    check("wide_srem.comp", true);
}
