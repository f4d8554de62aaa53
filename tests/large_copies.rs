//! Copies of large arrays (issue 18): `uint a[N] = buffer.array;`,
//! `b = a;` and `buffer.array = b;` with N = 300, in the three forms
//! glslang writes them (one load and store; OpCopyLogical between arrays
//! of different strides; SPIR-V 1.0's element-by-element extract and
//! store). The frontend fuses each into one copy (translate/fuse_copy.rs)
//! and the backend copies it in a loop over the elements
//! (from_ir/mem_copy.rs), so the code is a few dozen instructions instead
//! of thousands. Each module is dispatched on sm75 and sm86 and checked
//! against the computation done here.

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::sim::ComputeInputs;

const N: usize = 300;
/// Buffer 0: src[N] (uint), vsrc[N] (vec4), back[N] (uint), o[32] (uint).
const VSRC: usize = N;
const BACK: usize = VSRC + 4 * N;
const OUT: usize = BACK + N;

fn input() -> Vec<u32> {
    let mut w = vec![0u32; OUT + 32];
    for k in 0..N {
        w[k] = k as u32 * 3 + 1;
        let v = [k as f32, k as f32 + 0.5, 2.0 * k as f32, (k % 7) as f32];
        for (c, x) in v.iter().enumerate() {
            w[VSRC + 4 * k + c] = x.to_bits();
        }
        w[BACK + k] = 0xdead_beef;
    }
    w
}

/// The shader's computation (tests/shaders/large_copy.comp.glsl).
fn expected(input: &[u32]) -> Vec<u32> {
    let mut out = input.to_vec();
    let src = &input[..N];
    let vsrc = |k: usize, c: usize| f32::from_bits(input[VSRC + 4 * k + c]);
    for i in 0..32usize {
        let mut a = src.to_vec();
        a[i % N] = a[i % N].wrapping_add(i as u32);
        let mut b = a.clone();
        b[(i * 7) % N] ^= 0x55;
        let vy = vsrc(i, 1) + 1.0;
        let w = vsrc((i * 11) % N, 3);
        out[OUT + i] = b[(i * 3 + 1) % N]
            .wrapping_add(a[(i * 5 + 2) % N])
            .wrapping_add(vy.to_bits())
            .wrapping_add(w as u32);
        if i == 5 {
            out[BACK..BACK + N].copy_from_slice(&b);
        }
    }
    out
}

fn run(name: &str, arch: Arch) -> (Vec<u32>, String) {
    let compiled = common::compile(name, arch);
    let bytes: Vec<u8> = input().iter().flat_map(|w| w.to_le_bytes()).collect();
    let inputs = ComputeInputs {
        buffers: [(0, bytes)].into_iter().collect(),
        ..Default::default()
    };
    let result = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{name} on {arch}: {e}"));
    let words = result.buffers[&0]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let listing = spvsass::listing(&compiled.binary, false).expect("listing");
    (words, listing)
}

fn check(name: &str) {
    let want = expected(&input());
    for arch in [Arch::Sm75, Arch::Sm86] {
        let (got, listing) = run(name, arch);
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "{name} on {arch}: word {k}");
        }
        // Four copies of 300 to 1,200 words: loops, not unrolled code.
        let instrs = listing.lines().filter(|l| l.contains("*/")).count();
        assert!(instrs < 200, "{name} on {arch}: {instrs} instructions");
        let backward = listing.lines().filter(|l| l.contains(" BRA ")).count();
        assert!(backward >= 4, "{name} on {arch}: {backward} branches");
    }
}

/// SPIR-V 1.6: one load and store for `b = a`, OpCopyLogical for the
/// buffer's arrays.
#[test]
fn large_copies_in_spirv_1_6_are_loops() {
    check("large_copy.comp");
}

/// SPIR-V 1.0: element by element through OpCompositeExtract.
#[test]
fn large_copies_in_spirv_1_0_are_loops() {
    check("large_copy.comp.vulkan10");
}
