//! 8- and 16-bit integers (backend/src/from_ir/narrow_int.rs) in the
//! simulator: tests/shaders/narrow_ops.comp computes, for int16_t,
//! uint16_t, int8_t and uint8_t, the ops whose result depends on the bits
//! above the width (division, remainder, right shifts, min/max, clamps,
//! comparisons, conversion to float) on operands converted down from
//! 32-bit words with junk above the width; each result is checked against
//! Rust's i16/u16/i8/u8 ops.

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::sim::ComputeInputs;

/// Results per invocation and type (K in the shader).
const K: usize = 16;

/// Low 16 bits of the operand pairs: edge values of every type (-128, 127,
/// 255, -32768, 32767, 65535, 0, ±1) and ordinary ones.
const PAIRS: [(u16, u16); 32] = [
    (0x8000, 0xffff), // i16::MIN / -1 (wraps), u16 65535
    (0x7fff, 0x8000),
    (0xffff, 0x0001),
    (0x0000, 0x0001),
    (0x0080, 0x007f), // i8 -128 vs 127
    (0x00ff, 0x0080), // u8 255 vs 128, i8 -1 vs -128
    (0xff80, 0xffff), // i8 -128 / -1
    (0x007f, 0x00ff),
    (100, 7),
    (0xff9c, 7),      // -100 / 7
    (100, 0xfff9),    // 100 / -7
    (0xff9c, 0xfff9), // -100 / -7
    (0x1234, 0x1234),
    (0x0005, 0x0000), // division by zero replaced by 1 in the shader
    (40000, 39999),
    (0x00c8, 0x00c9),
    (3, 200),
    (200, 3),
    (0xfffe, 0x0002),
    (0x0002, 0xfffe),
    (0x8001, 0x7fff),
    (0x00fe, 0x0002),
    (0xabcd, 0x00ef),
    (0x4000, 0xc000),
    (0x0101, 0x00ff),
    (0xff01, 0x01ff),
    (12345, 321),
    (0xcfc7, 0x0065), // -12345 vs 101
    (0x0063, 0xff9d), // 99 vs -99
    (0x0064, 0x0064),
    (0xff9b, 0x0065), // -101 vs 101
    (0x0009, 0x0009),
];

/// Junk in the bits above 16 (and above 8, for the 8-bit view) of each
/// input word.
fn junk(i: usize, k: u32) -> u32 {
    (i as u32).wrapping_mul(0x9e37_79b9).rotate_left(k) | 0x0001_0000
}

fn inputs() -> Vec<u32> {
    let mut w = vec![0u32; 128];
    for (i, &(a, b)) in PAIRS.iter().enumerate() {
        w[i] = (junk(i, 3) & 0xffff_0000) | u32::from(a);
        w[i + 32] = (junk(i, 11) & 0xffff_0000) | u32::from(b);
        // Shift amounts below the width, with junk above it.
        w[i + 64] = (junk(i, 17) & 0xffff_0000) | ((i as u32 * 5) % 16);
        w[i + 96] = (junk(i, 23) & 0xffff_ff00) | ((i as u32 * 3) % 8);
    }
    w
}

/// The operations of the shader's OPS macro on one type, each result
/// widened to 32 bits as `uint(int(v))` does.
macro_rules! expect {
    ($t:ty, $a:expr, $b:expr, $s:expr, $lo:expr, $hi:expr) => {{
        let (a, b, s): ($t, $t, $t) = ($a as $t, $b as $t, $s as $t);
        let (lo, hi): ($t, $t) = ($lo as $t, $hi as $t);
        let d: $t = if b == 0 { 1 } else { b };
        let w = |v: $t| v as i32 as u32;
        // OpSMod for signed types (glslang's `%`): the sign of the divisor.
        let m = a.wrapping_rem(d);
        #[allow(unused_comparisons)]
        let m = if m != 0 && ((m < 0) != (d < 0)) {
            m.wrapping_add(d)
        } else {
            m
        };
        let flags = u32::from(a < b)
            | u32::from(a <= b) << 1
            | u32::from(a > b) << 2
            | u32::from(a >= b) << 3
            | u32::from(a == b) << 4
            | u32::from(a != b) << 5
            | u32::from(a < lo) << 6
            | u32::from(hi >= a) << 7;
        let diff = a.max(b).wrapping_sub(a.min(b));
        let diff_m = (diff / 7).wrapping_rem(5);
        #[allow(unused_comparisons)]
        let diff_m = if diff_m < 0 {
            diff_m.wrapping_add(5)
        } else {
            diff_m
        };
        [
            w(a.wrapping_div(d)),
            w(m),
            w(a >> s),
            w(a >> 3),
            w(a.min(b)),
            w(a.max(b)),
            flags,
            w(a.clamp(lo, hi)),
            w(a.wrapping_sub(b)),
            (a as f32).to_bits(),
            w(a.wrapping_mul(b).wrapping_add(1)),
            w(a.wrapping_shl(s as u32)),
            w(b / 3),
            w({
                let r = a.wrapping_rem(10);
                #[allow(unused_comparisons)]
                let r = if r < 0 { r.wrapping_add(10) } else { r };
                r
            }),
            w((a.wrapping_neg()) >> 1),
            w(diff_m),
        ]
    }};
}

fn expected(ty: usize, i: usize) -> [u32; K] {
    let w = inputs();
    let (a, b) = (w[i], w[i + 32]);
    let (s16, s8) = (w[i + 64], w[i + 96]);
    match ty {
        0 => expect!(i16, a, b, s16, -100i32, 100i32),
        1 => expect!(u16, a, b, s16, 3u32, 40000u32),
        2 => expect!(i8, a, b, s8, -100i32, 100i32),
        _ => expect!(u8, a, b, s8, 3u32, 200u32),
    }
}

fn run(arch: Arch) -> Vec<u32> {
    let compiled = common::compile("narrow_ops.comp", arch);
    let input: Vec<u8> = inputs().iter().flat_map(|w| w.to_le_bytes()).collect();
    let inputs = ComputeInputs {
        buffers: [(0, input), (1, vec![0; 4 * 4 * 32 * K])]
            .into_iter()
            .collect(),
        ..Default::default()
    };
    let run = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    run.buffers[&1]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect()
}

const NAMES: [&str; K] = [
    "a / b",
    "a % b",
    "a >> s",
    "a >> 3",
    "min",
    "max",
    "compare flags",
    "clamp",
    "a - b",
    "float(a)",
    "a * b + 1",
    "a << s",
    "b / 3",
    "a % 10",
    "-a >> 1",
    "|a - b| / 7 % 5",
];

fn check(arch: Arch, ty: usize) {
    let got = run(arch);
    for (i, pair) in PAIRS.iter().enumerate() {
        let want = expected(ty, i);
        let at = (ty * 32 + i) * K;
        for (k, (w, name)) in want.iter().zip(NAMES).enumerate() {
            assert_eq!(
                got[at + k],
                *w,
                "type {ty} invocation {i} ({pair:#x?}): {name}"
            );
        }
    }
}

macro_rules! types {
    ($($name:ident: $arch:expr, $ty:expr;)*) => {
        $(
            #[test]
            fn $name() {
                check($arch, $ty);
            }
        )*
    };
}

types! {
    int16_sm86: Arch::Sm86, 0;
    uint16_sm86: Arch::Sm86, 1;
    int8_sm86: Arch::Sm86, 2;
    uint8_sm86: Arch::Sm86, 3;
    int16_sm75: Arch::Sm75, 0;
    uint8_sm75: Arch::Sm75, 3;
}

/// tests/data/narrow_cmp.comp: a signed 16-bit comparison of values cut
/// from 32-bit words (junk above bit 15) compares the 16-bit values.
#[test]
fn narrow_comparison_reads_the_low_bits() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/narrow_cmp.comp.spv"
    );
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let spirv = spvsass::frontend::words_from_bytes(&bytes).unwrap_or_else(|e| panic!("{e}"));
    let compiled =
        spvsass::compile(&spirv, &spvsass::Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let w = inputs();
    let input: Vec<u8> = w[..64].iter().flat_map(|w| w.to_le_bytes()).collect();
    let inputs = ComputeInputs {
        buffers: [(0, input)].into_iter().collect(),
        ..Default::default()
    };
    let run = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    for i in 0..32 {
        let got = u32::from_le_bytes(run.buffers[&0][4 * i..4 * i + 4].try_into().expect("4"));
        let want = u32::from((w[i] as i16) < (w[i + 32] as i16));
        assert_eq!(got, want, "invocation {i} {:#x?}", PAIRS[i]);
    }
}
