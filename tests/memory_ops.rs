//! Memory and composite instructions in the simulator: OpArrayLength
//! (the buffer size from the root table), initializers of Private and
//! Function variables in local memory, OpCopyLogical and OpCopyMemory,
//! OpLogicalEqual / OpLogicalNotEqual, OpVectorExtractDynamic and
//! OpVectorInsertDynamic. Every output value is checked against the same
//! computation on the CPU.

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::sim::ComputeInputs;
use std::collections::BTreeMap;

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Runs `name` with the given storage buffers; returns them after.
fn run(name: &str, groups: u32, buffers: &[(u32, Vec<u32>)]) -> BTreeMap<u32, Vec<u32>> {
    let compiled = common::compile(name, Arch::Sm86);
    let inputs = ComputeInputs {
        buffers: buffers.iter().map(|(b, w)| (*b, bytes_of(w))).collect(),
        ..Default::default()
    };
    let run = spvsass::Dispatch::new(&compiled.binary, [groups, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    run.buffers
        .iter()
        .map(|(b, bytes)| (*b, words_of(bytes)))
        .collect()
}

/// runtime_array_length.comp.glsl over `n` particles (the buffer holds
/// exactly that many) and `m` weights, 64 invocations.
fn check_array_length(n: usize, m: usize) {
    let f = |x: f32| x.to_bits();
    let mut particles = vec![0u32; 4];
    for i in 0..n {
        let x = i as f32;
        // position, life (some already spent), velocity, flags
        particles.extend([f(x), f(-x), f(0.5), f(0.02 * (i % 5) as f32)]);
        particles.extend([f(1.0 + x), f(2.0), f(-3.5), 7 * i as u32]);
    }
    let out = run(
        "runtime_array_length.comp",
        1,
        &[(0, particles.clone()), (1, vec![0; m])],
    );
    let (p, w) = (&out[&0], &out[&1]);
    let mut alive = 0;
    for i in 0..n.min(64) {
        let at = |k: usize| f32::from_bits(particles[4 + 8 * i + k]);
        for c in 0..3 {
            // The shader's multiply and add, fused or not.
            let (pos, vel) = (at(c), at(4 + c));
            let got = f32::from_bits(p[4 + 8 * i + c]);
            let fused = vel.mul_add(0.016, pos);
            assert!(
                got == pos + vel * 0.016 || got == fused,
                "particle {i}.{c}: {got}"
            );
        }
        let life = at(3) - 0.016;
        assert_eq!(f32::from_bits(p[4 + 8 * i + 3]), life, "particle {i} life");
        assert_eq!(
            p[4 + 8 * i + 4..4 + 8 * i + 8],
            particles[4 + 8 * i + 4..4 + 8 * i + 8]
        );
        alive += u32::from(life > 0.0);
        if m > 0 && i < m {
            // Weights are written by invocation i into slot i % m; with
            // m > i each slot has one writer.
            assert_eq!(f32::from_bits(w[i % m]), life, "weights[{i}]");
        }
    }
    assert_eq!(p[0], alive, "alive");
}

#[test]
fn array_length_of_a_runtime_array_after_an_offset() {
    check_array_length(50, 64);
}

#[test]
fn array_length_follows_the_bound_buffer_size() {
    check_array_length(20, 40);
}

/// private_globals.comp.glsl on the CPU.
fn private_globals_reference(id: u32) -> u32 {
    const PRIMES: [u32; 8] = [2, 3, 5, 7, 11, 13, 17, 19];
    let mut seed = 12345u32 ^ id;
    let mut next = || {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
        seed >> 16
    };
    let r = next() % PRIMES[(id & 7) as usize];
    let mut weights = [0.1f32, 0.2, 0.3, 0.4];
    weights[(id & 3) as usize] += r as f32;
    r.wrapping_add((weights[0] + weights[3]) as u32)
        .wrapping_add(next())
}

#[test]
fn private_and_function_variables_start_with_their_initializers() {
    let out = run("private_globals.comp", 2, &[(0, vec![0; 64])]);
    for (id, &got) in out[&0].iter().enumerate() {
        assert_eq!(got, private_globals_reference(id as u32), "data[{id}]");
    }
}

#[test]
fn copy_logical_between_buffer_and_function_layouts() {
    // Elements of {vec3 at 0, float at 12}, stride 16: w doubles.
    let data: Vec<u32> = (0..256u32)
        .map(|i| (i as f32 * 0.75 - 9.0).to_bits())
        .collect();
    let out = run("copy_logical.comp", 1, &[(0, data.clone())]);
    for (i, (&before, &after)) in data.iter().zip(&out[&0]).enumerate() {
        let want = if i % 4 == 3 {
            (f32::from_bits(before) * 2.0).to_bits()
        } else {
            before
        };
        assert_eq!(after, want, "word {i}");
    }
}

#[test]
fn boolean_equality_and_dynamic_vector_indices_through_local_memory() {
    let vals: Vec<u32> = (0..256u32)
        .map(|i| i.wrapping_mul(0x2545_f491) >> (i % 7))
        .collect();
    let out = run(
        "c_composite_ops.comp",
        1,
        &[(0, vals.clone()), (1, vec![0; 256])],
    );
    let o = &out[&1];
    for id in 0..64 {
        let mut v = [0u32; 4];
        v.copy_from_slice(&vals[4 * id..4 * id + 4]);
        let (a, b) = (v[0] > v[1], v[2] > v[3]);
        let k = (v[0] & 3) as usize;
        let picked = v[k];
        v[(k + 1) & 3] = 77;
        let want = [
            u32::from(a == b) | (2 * u32::from(a != b)),
            picked,
            v.iter().fold(0u32, |s, &x| s.wrapping_add(x)),
            77,
        ];
        assert_eq!(o[4 * id..4 * id + 4], want, "invocation {id}");
    }
}

#[test]
fn vector_extract_and_insert_with_run_time_and_constant_indices() {
    let data: Vec<u32> = (0..32 * 8u32)
        .map(|i| if i % 8 < 4 { i * 1000 + 3 } else { 0 })
        .collect();
    let out = run("c_vector_dynamic.comp", 1, &[(0, data.clone())]);
    let d = &out[&0];
    for id in 0..32usize {
        let v = &data[8 * id..8 * id + 4];
        let k = id & 3;
        let mut want_out = [v[0], v[1], v[2], v[3]];
        want_out[k] = v[k] + 99;
        assert_eq!(d[8 * id + 4..8 * id + 8], want_out, "out of {id}");
        assert_eq!(
            d[8 * id..8 * id + 4],
            [v[3], v[1], v[2], v[3]],
            "in of {id}"
        );
    }
}

#[test]
fn whole_matrices_in_row_and_column_major_layouts() {
    // std140 Transforms: world (row-major mat4) at word 0, normalRows
    // (row-major mat3x4: 4 rows of 3, stride 16) at word 16, history[3]
    // (column-major) at word 32.
    let ubo: Vec<u32> = (0..80u32).map(|i| (i as f32 + 0.5).to_bits()).collect();
    let frame = 4u32;
    let compiled = common::compile("c_matrix_layouts.comp", Arch::Sm86);
    let inputs = ComputeInputs {
        buffers: BTreeMap::from([(1, vec![0; 4 * 76])]),
        uniforms: BTreeMap::from([(0, bytes_of(&ubo))]),
        push_constants: bytes_of(&[frame]),
        ..ComputeInputs::default()
    };
    let run = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let out = words_of(&run.buffers[&1]);
    let w = |c: usize, r: usize| ubo[r * 4 + c];
    let n = |c: usize, r: usize| ubo[16 + r * 4 + c];
    let h = |c: usize, r: usize| ubo[32 + (frame as usize % 3) * 16 + c * 4 + r];
    for c in 0..4 {
        for r in 0..4 {
            assert_eq!(out[r * 4 + c], h(c, r), "outRow[{c}][{r}]");
            assert_eq!(out[16 + c * 4 + r], w(c, r), "outCol[{c}][{r}]");
            assert_eq!(out[32 + c * 4 + r], w(c, r), "cols[{c}][{r}]");
            assert_eq!(out[60 + c * 4 + r], h(c, r), "cols[{}][{r}]", 7 + c);
            if c < 3 {
                assert_eq!(out[48 + c * 4 + r], n(c, r), "cols[{}][{r}]", 4 + c);
            }
        }
    }
}
