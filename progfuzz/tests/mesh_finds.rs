//! Regressions from the random-program tester's task and mesh programs:
//! each shader in tests/shaders/r_mesh_*.glsl is a reduced program that
//! the compiler once refused, panicked on or miscompiled. Every test draws
//! it in the simulator on sm75 and sm86 (through the tester's adapter, the
//! one place it calls the library) and checks what it wrote against the
//! same computation on the CPU.

use spvsass::backend::target::Arch;
use spvsass_interp::Inputs;
use spvsass_progfuzz::adapter;

fn words_from(path: &str) -> Vec<u32> {
    let bytes = std::fs::read(format!(
        "{}/../tests/shaders/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap_or_else(|e| panic!("{path}: {e}"));
    spvsass::frontend::words_from_bytes(&bytes).expect("SPIR-V")
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn an_access_chain_made_before_a_skipped_run_of_the_last_logical_subgroup() {
    let words = words_from("r_mesh_chain_after_skip.mesh.spv");
    let inp: Vec<u32> = (0..48u32).map(|i| (i * 5 + 3) % 11).collect();
    let mut want = vec![0u32; 16];
    for (i, &x) in inp.iter().enumerate() {
        want[8 + (x & 7) as usize] += i as u32 + 1;
    }
    for arch in [Arch::Sm75, Arch::Sm86] {
        let mesh = adapter::compile(&words, arch, false).unwrap_or_else(|e| panic!("{arch}: {e}"));
        let mut inputs = Inputs::default();
        inputs.buffers.insert(0, bytes_of(&inp));
        inputs.buffers.insert(1, vec![0; 64]);
        let draw = adapter::draw(None, &mesh, [1, 1, 1], &inputs, 1_000_000)
            .unwrap_or_else(|e| panic!("{arch}: {e}"));
        assert_eq!(words_of(&draw.buffers[&1]), want, "{arch}: the atomic sums");
        let g = &draw.workgroups[0];
        assert_eq!(g.indices, vec![vec![0, 1]], "{arch}");
        let x: Vec<f32> = g
            .vertices
            .iter()
            .map(|v| f32::from_bits(v.position.expect("position")[0]))
            .collect();
        assert_eq!(x, vec![0.0, 1.0], "{arch}");
    }
}
