//! Variable pointers (VariablePointers, VariablePointersStorageBuffer):
//! storage-buffer pointers chosen by OpSelect and OpPhi, returned from
//! functions, stepped by OpPtrAccessChain and compared, compiled for sm75
//! and sm86, simulated and checked word for word against the same
//! computation here (backend/src/from_ir/var_ptrs.rs, docs/ABI.md
//! "Variable pointers"). tests/reference_lavapipe.rs runs vp_sets on
//! lavapipe as well; progfuzz's shaders_oracle runs vp_select through the
//! interpreter.

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::sim::ComputeInputs;

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// vp_select.comp on `arch`: A (binding 0) holds 1000 + i, B (binding 1)
/// 2000 + i; returns O (binding 2) after one workgroup of 64.
fn vp_select(arch: Arch) -> Vec<u32> {
    let compiled = common::compile("vp_select.comp", arch);
    let a: Vec<u32> = (0..80).map(|i| 1000 + i).collect();
    let b: Vec<u32> = (0..80).map(|i| 2000 + i).collect();
    let mut inputs = ComputeInputs::default();
    inputs.buffers.insert(0, bytes_of(&a));
    inputs.buffers.insert(1, bytes_of(&b));
    inputs.buffers.insert(2, vec![0; 576 * 4]);
    let run = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("vp_select on {arch}: {e}"));
    words_of(&run.buffers[&2])
}

fn expected_vp_select() -> Vec<u32> {
    let a = |i: usize| 1000 + i as u32;
    let b = |i: usize| 2000 + i as u32;
    let mut o = vec![0u32; 576];
    for x in 0..64usize {
        let even = x % 2 == 0;
        o[x] = if even { a(x) } else { b(x) };
        o[64 + x] = if x < 32 { a(x + 1) } else { b(x + 2) };
        let stepped = x + (x & 3);
        o[128 + x] = if x & 2 != 0 { a(stepped) } else { b(stepped) };
        o[if even { 192 } else { 320 } + x] = 3 * x as u32;
        o[if even { 257 } else { 256 }] += x as u32;
        o[384 + x] = if even { 1 } else { 2 };
        o[448 + x] = if x & 2 != 0 { 6 } else { 5 };
        o[512 + x] = ((x / 2) as u32).wrapping_sub(x as u32);
    }
    o
}

#[test]
fn selected_phied_returned_and_stepped_pointers_sm86() {
    let got = vp_select(Arch::Sm86);
    let want = expected_vp_select();
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "O[{i}]");
    }
}

#[test]
fn selected_phied_returned_and_stepped_pointers_sm75() {
    assert_eq!(vp_select(Arch::Sm75), expected_vp_select());
}

/// vp_private.comp on `arch`: A (binding 0) holds 1000 + i, B (binding 1)
/// structs (5000 + i, 6000 + i, 7000 + i); returns O (binding 2).
fn vp_private(arch: Arch) -> Vec<u32> {
    let compiled = common::compile("vp_private.comp", arch);
    let a: Vec<u32> = (0..80).map(|i| 1000 + i).collect();
    let b: Vec<u32> = (0..80)
        .flat_map(|i| [5000 + i, 6000 + i, 7000 + i])
        .collect();
    let mut inputs = ComputeInputs::default();
    inputs.buffers.insert(0, bytes_of(&a));
    inputs.buffers.insert(1, bytes_of(&b));
    inputs.buffers.insert(2, vec![0; 192 * 4]);
    let run = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("vp_private on {arch}: {e}"));
    words_of(&run.buffers[&2])
}

/// A pointer stored in a Private variable and stepped through it; a
/// pointer difference in 12-byte structs without an ArrayStride.
#[test]
fn pointers_in_private_variables_and_differences_without_a_stride() {
    let mut want = vec![0u32; 192];
    for x in 0..64u32 {
        want[x as usize] = 1000 + x + x % 3;
        want[64 + x as usize] = x.wrapping_sub(1);
        want[128 + x as usize] = 6000 + x;
    }
    for arch in [Arch::Sm75, Arch::Sm86] {
        assert_eq!(vp_private(arch), want, "{arch}");
    }
}

/// vp_sets.comp through its run description: pointers into buffers of
/// three descriptor sets, a binding read through its descriptor and a
/// descriptor array's elements.
fn vp_sets(arch: Arch) {
    use spvsass::simulate_run::{SimulateOptions, simulate_run_file};
    let path = common::res_sets::runs().join("vp_sets.json");
    let desc = spvsass::reference::RunDescription::load(&path).expect("loads");
    let options = SimulateOptions {
        arch: Some(arch),
        ..Default::default()
    };
    let sim = simulate_run_file(&path, &options).unwrap_or_else(|e| panic!("{arch}: {e}"));
    let (o, bufs) = common::vp_sets::expected_vp_sets(&desc);
    assert_eq!(sim.capture.buffer_at(0, 0, 0), Some(&o[..]), "o on {arch}");
    for (&(s, b, e), want) in common::vp_sets::BUFFERS.iter().zip(&bufs) {
        assert_eq!(
            sim.capture.buffer_at(s, b, e),
            Some(&want[..]),
            "set {s} binding {b}[{e}] on {arch}"
        );
    }
}

#[test]
fn pointers_across_sets_bindings_and_array_elements_sm86() {
    vp_sets(Arch::Sm86);
}

#[test]
fn pointers_across_sets_bindings_and_array_elements_sm75() {
    vp_sets(Arch::Sm75);
}

fn refusal(name: &str) -> String {
    spvsass::compile(&common::shader_words(name), &spvsass::Options::default())
        .map(|_| ())
        .expect_err("refused")
        .to_string()
}

/// Workgroup variable pointers (VariablePointers allows them) have no
/// global address: refused, naming the OpSelect and its result id.
#[test]
fn a_workgroup_variable_pointer_is_refused_by_name() {
    let err = refusal("vp_workgroup.comp");
    assert!(
        err.contains("a variable pointer to Workgroup memory")
            && err.contains("(OpSelect, result %32)"),
        "{err}"
    );
}

#[test]
fn array_length_through_a_variable_pointer_is_refused_by_name() {
    let err = refusal("vp_array_length.comp");
    assert!(
        err.contains("through a variable pointer") && err.contains("(OpArrayLength, result %23)"),
        "{err}"
    );
}

/// A column of a row-major matrix has no one address: refused, naming the
/// access chain that made the column pointer.
#[test]
fn a_variable_pointer_to_a_row_major_column_is_refused_by_name() {
    let err = refusal("vp_row_major.comp");
    assert!(
        err.contains("a column of a row-major matrix")
            && err.contains("(OpAccessChain, result %24)"),
        "{err}"
    );
}

/// `spvsass run` on vp_select.comp: the buffers bound from files by the
/// command line, O written back with `--out`, every word as computed here.
#[test]
fn spvsass_run_binds_and_writes_back_through_variable_pointers() {
    let dir = std::env::temp_dir().join(format!("spvsass-var-ptrs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let a: Vec<u32> = (0..80).map(|i| 1000 + i).collect();
    let b: Vec<u32> = (0..80).map(|i| 2000 + i).collect();
    let (pa, pb, po) = (dir.join("a.bin"), dir.join("b.bin"), dir.join("o.bin"));
    std::fs::write(&pa, bytes_of(&a)).expect("write a");
    std::fs::write(&pb, bytes_of(&b)).expect("write b");
    let shader = common::shader_path("vp_select.comp");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_spvsass"))
        .arg("run")
        .arg(&shader)
        .args(["--groups", "1,1,1"])
        .arg("--buffer")
        .arg(format!("0={}", pa.display()))
        .arg("--buffer")
        .arg(format!("1={}", pb.display()))
        .args(["--buffer", "2=2304"])
        .arg("--out")
        .arg(format!("2={}", po.display()))
        .output()
        .expect("spvsass runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = words_of(&std::fs::read(&po).expect("O written"));
    assert_eq!(got, expected_vp_select());
    std::fs::remove_dir_all(&dir).ok();
}
