//! 64-bit integers (backend/src/from_ir/wide_int.rs) in the simulator:
//! tests/data/wide_ints.comp.glsl computes adds, subtracts, negation,
//! shifts by amounts on both sides of 32, multiplies,
//! bitwise ops, widening and narrowing conversions, selects and every
//! comparison on operand pairs chosen to carry and borrow across the
//! 32-bit boundary; each result is checked against Rust's u64/i64.

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::sim::ComputeInputs;

/// Operand pairs: carries and borrows between the words, equal high or
/// low words, signs that differ from the unsigned order, extremes.
const PAIRS: [(u64, u64); 32] = [
    (0xffff_ffff, 1),
    (0x1_0000_0000, 1),
    (0, 1),
    (0, 0),
    (u64::MAX, 1),
    (u64::MAX, u64::MAX),
    (0x8000_0000_0000_0000, 1),
    (0x7fff_ffff_ffff_ffff, 0x8000_0000_0000_0000),
    (0x1_0000_0000, 0xffff_ffff),
    (0xffff_ffff, 0x1_0000_0000),
    (0x5_0000_0003, 0x5_0000_0004),
    (0x5_0000_0004, 0x5_0000_0003),
    (0x5_0000_0004, 0x4_0000_0004),
    (0x4_0000_0004, 0x5_0000_0004),
    (0x1234_5678_9abc_def0, 0x0fed_cba9_8765_4321),
    (0xdead_beef_0000_0001, 0xdead_beef_0000_0001),
    (0xffff_fffe_ffff_ffff, 0xffff_ffff_0000_0000),
    (0x8000_0000, 0x8000_0000),
    (0x8000_0000, 0x7fff_ffff),
    (0x7fff_ffff, 0x8000_0000),
    (3, 0xffff_ffff_ffff_fffd),
    (0xffff_ffff_ffff_fffd, 3),
    (0xffff_ffff_8000_0000, 0x8000_0000),
    (0x8000_0000, 0xffff_ffff_8000_0000),
    (0x0000_0001_ffff_ffff, 0x0000_0001_ffff_ffff),
    (0x0000_0002_0000_0000, 0x0000_0001_ffff_ffff),
    (42, 0x1_0000_0000),
    (0xffff_ffff_ffff_0000, 0x1_0000),
    (0xaaaa_aaaa_5555_5555, 0x5555_5555_aaaa_aaaa),
    (1, 0xffff_ffff),
    (0x9_ffff_fffb, 4),
    (0x0000_0000_ffff_fffb, 0xffff_ffff_0000_0005),
];

fn words(v: &[u64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn u64s(bytes: &[u8]) -> Vec<u64> {
    bytes
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect()
}

/// The shifts and multiplies of invocation `i`.
fn expected_shifts(i: usize) -> [u64; 8] {
    let (x, y) = PAIRS[i];
    let (sx, sy) = (x as i64, y as i64);
    let n = (i as u32 * 33).wrapping_add(y as u32) & 63;
    [
        x << n,
        x >> n,
        (sx >> n) as u64,
        (x << 40) ^ (x >> 40) ^ (sx >> 33) as u64 ^ (sx >> 5) as u64,
        x >> (y & 63),
        x.wrapping_mul(y),
        x.wrapping_mul(0x1_0000_0003),
        sx.wrapping_mul(sy) as u64,
    ]
}

/// What the shader computes for invocation `i`: the 8 u64 results and the
/// comparison flags.
fn expected(i: usize) -> ([u64; 8], u32) {
    let (x, y) = PAIRS[i];
    let (sx, sy) = (x as i64, y as i64);
    let r = [
        x.wrapping_add(y),
        x.wrapping_sub(y),
        x.wrapping_neg(),
        (x ^ y) | (!x & 0xff00_ff00_ff00_ff00),
        (x as u32 as u64) + 0xffff_ffff,
        y as u32 as i32 as i64 as u64,
        x.wrapping_add(0x1_0000_0001).wrapping_sub(5),
        if i > 15 { x } else { y },
    ];
    let flags = [
        x < y,
        x <= y,
        x > y,
        x >= y,
        sx < sy,
        sx <= sy,
        sx > sy,
        sx >= sy,
        x == y,
        x != y,
        x < 0x1_0000_0000,
    ]
    .iter()
    .enumerate()
    .map(|(k, &b)| u32::from(b) << k)
    .sum();
    (r, flags)
}

fn check(arch: Arch) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wide_ints.comp.spv");
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let spirv = spvsass::frontend::words_from_bytes(&bytes).unwrap_or_else(|e| panic!("{e}"));
    let options = spvsass::Options {
        arch: Some(arch),
        ..Default::default()
    };
    let compiled = spvsass::compile(&spirv, &options).unwrap_or_else(|e| panic!("{e}"));
    let (a, b): (Vec<u64>, Vec<u64>) = PAIRS.iter().copied().unzip();
    let inputs = ComputeInputs {
        buffers: [
            (0, words(&a)),
            (1, words(&b)),
            (2, vec![0; 8 * 8 * 32]),
            (3, vec![0; 4 * 32]),
            (4, vec![0; 14 * 8 * 32]),
        ]
        .into_iter()
        .collect(),
        ..Default::default()
    };
    let run = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let results = u64s(&run.buffers[&2]);
    let flags = &run.buffers[&3];
    let shifts = u64s(&run.buffers[&4]);
    for i in 0..32 {
        let (r, f) = expected(i);
        assert_eq!(
            &results[8 * i..8 * i + 8],
            &r,
            "results of pair {i} {:x?}",
            PAIRS[i]
        );
        let got = u32::from_le_bytes(flags[4 * i..4 * i + 4].try_into().expect("4 bytes"));
        assert_eq!(got, f, "comparison flags of pair {i} {:x?}", PAIRS[i]);
        let (x, y) = PAIRS[i];
        let m = [
            if i % 2 == 0 { x.wrapping_add(y) } else { x },
            if i % 3 == 0 { x } else { y },
        ];
        let got = [shifts[8 * 32 + 2 * i], shifts[8 * 32 + 2 * i + 1]];
        assert_eq!(
            got,
            [m[0] ^ (x << 1), m[1]],
            "swizzles and select of pair {i}"
        );
        let (sx, sy) = (x as i64, y as i64);
        let minmax = [x.min(y), x.max(y), sx.min(sy) as u64, sx.max(sy) as u64];
        assert_eq!(
            &shifts[10 * 32 + 4 * i..10 * 32 + 4 * i + 4],
            &minmax,
            "min/max of pair {i}"
        );
        let want = expected_shifts(i);
        assert_eq!(
            &shifts[8 * i..8 * i + 8],
            &want,
            "shifts and products of pair {i} {:x?}",
            PAIRS[i]
        );
    }
}

#[test]
fn sm75() {
    check(Arch::Sm75);
}

#[test]
fn sm86() {
    check(Arch::Sm86);
}

/// tests/shaders/ptr_access_chain.comp: physical storage buffer pointers
/// from push-constant addresses (each buffer's base is its
/// `BUFFER_STRIDE` slot in the simulator's global memory, in binding
/// order), stepped by OpPtrAccessChain, converted back to an integer and
/// bumped by 16 bytes: invocation x copies src[x] to dst[x] and dst[x + 1],
/// and the second store wins.
#[test]
fn physical_pointer_access_chain_copies_vectors() {
    let compiled = spvsass::compile(
        &common::shader_words("ptr_access_chain.comp"),
        &spvsass::Options {
            arch: Some(Arch::Sm86),
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let src: Vec<u32> = (0..33 * 4).map(|k| 0x1000 + k * 7).collect();
    let src_bytes: Vec<u8> = src.iter().flat_map(|w| w.to_le_bytes()).collect();
    // Binding 0 maps first, binding 1 second.
    let (src_base, dst_base) = (spvsass::sim::BUFFER_STRIDE, 2 * spvsass::sim::BUFFER_STRIDE);
    let inputs = ComputeInputs {
        buffers: [(0, src_bytes), (1, vec![0xee; 34 * 16])]
            .into_iter()
            .collect(),
        push_constants: words(&[src_base, dst_base]),
        ..Default::default()
    };
    let run = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let dst: Vec<u32> = run.buffers[&1]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    assert_eq!(&dst[..4], &src[..4], "element 0");
    for k in 1..=32 {
        assert_eq!(
            &dst[4 * k..4 * k + 4],
            &src[4 * (k - 1)..4 * k],
            "element {k}"
        );
    }
    assert_eq!(&dst[4 * 33..], &[0xeeee_eeee; 4], "element 33 is untouched");
}

/// tests/shaders/buffer_device_address.comp: pointers in push constants
/// (a u64, a uvec2 and a buffer reference) and a pointer stored in a
/// buffer; the header sits 16 bytes into its buffer so its address has a
/// non-zero low word, which the shader XORs into each output.
#[test]
fn buffer_device_addresses_from_push_constants_and_memory() {
    let compiled = common::compile("buffer_device_address.comp", Arch::Sm86);
    let stride = spvsass::sim::BUFFER_STRIDE;
    // Bindings map in order: header 0, positions 1, indices 2, output 3.
    let (header, positions, indices, out) = (stride + 16, 2 * stride, 3 * stride, 4 * stride);
    let count = 50u32;
    let mut header_bytes = vec![0u8; 16];
    header_bytes.extend(count.to_le_bytes());
    header_bytes.extend(0u32.to_le_bytes());
    header_bytes.extend(positions.to_le_bytes());
    let xs: Vec<f32> = (0..16).map(|k| k as f32 * 1.5 - 3.0).collect();
    let pos_bytes: Vec<u8> = xs
        .iter()
        .flat_map(|&x| [x, 1.0, 2.0, 3.0])
        .flat_map(|f| f.to_le_bytes())
        .collect();
    let idx: Vec<u32> = (0..64).map(|i| (i * 7) % 16).collect();
    let idx_bytes: Vec<u8> = idx.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut push = words(&[header, indices]);
    push.extend(words(&[out]));
    let inputs = ComputeInputs {
        buffers: [
            (0, header_bytes),
            (1, pos_bytes),
            (2, idx_bytes),
            (3, vec![0xab; 64 * 4]),
        ]
        .into_iter()
        .collect(),
        push_constants: push,
        ..Default::default()
    };
    let run = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let got: Vec<u32> = run.buffers[&3]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    for i in 0..64 {
        let want = if i < count as usize {
            xs[idx[i] as usize].to_bits() ^ (header as u32)
        } else {
            0xabab_abab
        };
        assert_eq!(got[i], want, "invocation {i}");
    }
}

/// tests/shaders/small_and_wide_ints.comp: u8 and i16 values widened
/// (zero- and sign-filled), 16-bit arithmetic stored back, and 64-bit sums
/// and products of the widened values. Every invocation writes the two
/// 64-bit results to the same place, so they must equal one invocation's.
#[test]
fn small_and_wide_ints_widen_and_narrow() {
    let compiled = common::compile("small_and_wide_ints.comp", Arch::Sm86);
    let bytes: Vec<u8> = (0..32u32).map(|i| (i * 37 + 200) as u8).collect();
    let shorts: Vec<i16> = (0..32).map(|i| (i * 2111 - 30000) as i16).collect();
    let short_bytes: Vec<u8> = shorts.iter().flat_map(|h| h.to_le_bytes()).collect();
    let inputs = ComputeInputs {
        buffers: [(0, bytes.clone()), (1, short_bytes), (2, vec![0; 16])]
            .into_iter()
            .collect(),
        ..Default::default()
    };
    let run = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    for i in 0..32 {
        assert_eq!(
            run.buffers[&0][i],
            ((u32::from(bytes[i]) * 3) & 0xff) as u8,
            "byte {i}"
        );
        let h = i16::from_le_bytes([run.buffers[&1][2 * i], run.buffers[&1][2 * i + 1]]);
        assert_eq!(h, shorts[i].wrapping_mul(2).wrapping_sub(1), "short {i}");
    }
    let wide = u64s(&run.buffers[&2]);
    let lane = (0..32)
        .find(|&i| wide[0] == ((i as u64) << 40) + u64::from(bytes[i]))
        .unwrap_or_else(|| panic!("total {:#x} is no invocation's", wide[0]));
    assert_eq!(wide[1] as i64, i64::from(shorts[lane]) * -5, "signedTotal");
}

/// tests/shaders/ptr_stride.comp: OpPtrAccessChain steps by its pointer
/// type's ArrayStride (48 bytes for the source, 16 for the destination),
/// not by the pointee's 16-byte size: invocation x copies the vec4 at
/// src + 48x to dst + 16x.
#[test]
fn physical_pointer_access_chain_steps_by_array_stride() {
    let compiled = common::compile("ptr_stride.comp", Arch::Sm86);
    let src: Vec<u32> = (0..32 * 12).map(|k| 0x2000 + k * 3).collect();
    let src_bytes: Vec<u8> = src.iter().flat_map(|w| w.to_le_bytes()).collect();
    let (src_base, dst_base) = (spvsass::sim::BUFFER_STRIDE, 2 * spvsass::sim::BUFFER_STRIDE);
    let inputs = ComputeInputs {
        buffers: [(0, src_bytes), (1, vec![0; 32 * 16])]
            .into_iter()
            .collect(),
        push_constants: words(&[src_base, dst_base]),
        ..Default::default()
    };
    let run = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let dst: Vec<u32> = run.buffers[&1]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    for x in 0..32 {
        assert_eq!(
            &dst[4 * x..4 * x + 4],
            &src[12 * x..12 * x + 4],
            "element {x}"
        );
    }
}
