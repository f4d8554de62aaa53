//! Regressions from issue 18's random and mutated programs: each shader in
//! tests/shaders/r_*.glsl is a reduced program that the compiler once
//! refused, panicked on, deadlocked or miscompiled. Every test simulates it
//! and checks each output word against the same computation on the CPU.

mod common;

use spvsass::backend::target::Arch;
use spvsass::sim::{ComputeInputs, SimOptions};

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Dispatches compute shader `name` (one workgroup) with `data` in
/// binding 0 and returns that buffer after.
fn run_compute(name: &str, data: &[u32]) -> Vec<u32> {
    let compiled = common::compile(name, Arch::Sm86);
    let mut inputs = ComputeInputs::default();
    inputs.buffers.insert(0, bytes_of(data));
    let run = spvsass::dispatch(&compiled.binary, [1, 1, 1], inputs, &SimOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    words_of(&run.buffers[&0])
}

fn inputs32() -> Vec<u32> {
    (0..32u32).map(|i| (i * 7) % 11).collect()
}

#[test]
fn s1_control_flow_inside_a_branch_folded_to_false() {
    // if (false) { if (v == 3u) v = 1u; } o[i] = v + 1u;
    let data = inputs32();
    let out = run_compute("r_dead_nested_if.comp", &data);
    for (i, (&v, &r)) in data.iter().zip(&out).enumerate() {
        assert_eq!(r, v + 1, "o[{i}]");
    }
}

#[test]
fn s1_loop_inside_a_branch_the_compiler_folds_to_false() {
    // uint z = 0u; if (z > 0u) { for (...) v += k; } o[i] = v * 2u;
    let data = inputs32();
    let out = run_compute("r_dead_loop.comp", &data);
    for (i, (&v, &r)) in data.iter().zip(&out).enumerate() {
        assert_eq!(r, v * 2, "o[{i}]");
    }
}

#[test]
fn s2_early_return_from_a_loop_of_an_inlined_function_before_a_barrier() {
    // f(x): for k in 0..4 { if x + k >= 0 return k } return 9; the lanes
    // leave the loop at different iterations, some by the return.
    let data: Vec<u32> = (0..32i32).map(|i| ((i % 9) - 6) as u32).collect();
    let out = run_compute("r_return_in_loop.comp", &data);
    let f = |x: i32| (0..4).find(|k| x + k >= 0).unwrap_or(9);
    for i in 0..32 {
        let mine = f(data[i] as i32);
        let mirror = f(data[31 - i] as i32);
        assert_eq!(out[i] as i32, mirror + mine * 10, "o[{i}]");
    }
}
