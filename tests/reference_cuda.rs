//! The simulator against spvsass's own machine code run on an NVIDIA
//! H100 (tests/reference/cuda/NAME, made by `spvsass reference
//! tests/runs/NAME.json --driver cuda`, docs/CUBIN.md): one test per
//! capture. The capture holds the buffers our sm90 cubin wrote on the GPU;
//! the simulator runs the same description (compiled for sm90, with
//! uniform buffers through the root table as in the cubin, and with the
//! default constant-bank uniforms) and must agree word for word. The
//! descriptions are tests/runs/NAME.json or, for the compute test shaders
//! that had none, tests/runs/cuda_all/NAME.json (scripts/cuda_all_gen.py).

use spvsass::backend::target::Arch;
use spvsass::compare::{Tolerances, compare};
use spvsass::reference::Capture;
use spvsass::simulate_run::{SimulateOptions, simulate_run_file};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The run description of a capture: `dir` is "" (tests/runs) or
/// "cuda_all/".
fn agrees(dir: &str, name: &str) {
    let run = root().join(format!("tests/runs/{dir}{name}.json"));
    let reference = Capture::read(&root().join(format!("tests/reference/cuda/{name}")))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        reference
            .result
            .device
            .driver_info
            .contains("spvsass sm90 cubin"),
        "{name}: not a capture of our own cubin"
    );
    assert!(
        !reference.result.buffers.is_empty(),
        "{name}: nothing was read back"
    );
    for arch in [Arch::Sm90, Arch::Sm86] {
        let options = SimulateOptions {
            arch: Some(arch),
            ..SimulateOptions::default()
        };
        let sim = simulate_run_file(&run, &options).unwrap_or_else(|e| panic!("{e}"));
        let c = compare(&sim, &reference, &Tolerances::default());
        assert!(c.matches(), "{arch}: {c}");
        assert!(
            c.buffers
                .iter()
                .all(|b| b.simulator_words == Some(b.reference_words)),
            "{arch}: {c}"
        );
    }
}

macro_rules! cuda_captures {
    (runs: [$($name:ident),* $(,)?], cuda_all: [$($all:ident),* $(,)?] $(,)?) => {
        $(
            #[test]
            fn $name() {
                agrees("", stringify!($name));
            }
        )*
        $(
            #[test]
            fn $all() {
                agrees("cuda_all/", stringify!($all));
            }
        )*
        /// Every capture folder has its test (a new capture without one
        /// fails here rather than going unchecked).
        #[test]
        fn every_capture_is_tested() {
            let listed = [$(stringify!($name),)* $(stringify!($all),)*];
            let dir = root().join("tests/reference/cuda");
            let mut found: Vec<String> = std::fs::read_dir(&dir)
                .expect("tests/reference/cuda")
                .filter_map(|e| e.ok())
                .filter(|e| e.path().is_dir())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect();
            found.sort();
            let mut want: Vec<String> = listed.iter().map(|s| s.to_string()).collect();
            want.sort();
            assert_eq!(found, want);
        }
    };
}

cuda_captures!(
    runs: [
    c_float_atomic_olds,
    c_subgroup_quads,
    lt_buffer_struct_index,
    math_bits,
    math_geometric,
    ref_add,
    ref_atomic,
    ref_divergent_branch,
    ref_private_globals,
    ref_reduce,
    ref_switch,
    ref_uniform_branch,
    ref_vector_dynamic,
    res_dynamic,
    res_sets,
    vp_private,
    vp_select,
    vp_sets,
    ],
    cuda_all: [],
);
