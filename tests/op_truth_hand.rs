//! Per-op truth for the ops on register pairs (DADD, DMUL, DFMA, F2F to and
//! from F64, IMAD.HI and IMAD.WIDE with a pair addend): hand-written
//! programs (tests/data/op_truth_hand, made by its gen.py) that the H100 ran
//! as our own cubins (tests/reference/cuda_ops/NAME, docs/CUBIN.md). The
//! simulator must agree on every word of every lane. One test per program.

use spvsass::reference::Capture;
use spvsass::simulate_run::{SimulateOptions, simulate_run_file};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn words(c: &Capture, name: &str) -> Vec<u32> {
    c.result
        .buffers
        .iter()
        .find(|b| b.binding == 1)
        .map(|b| b.words.clone())
        .unwrap_or_else(|| panic!("{name}: no binding 1"))
}

fn agrees(name: &str) {
    let run = root().join(format!("tests/data/op_truth_hand/{name}.json"));
    let capture = Capture::read(&root().join(format!("tests/reference/cuda_ops/{name}")))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        capture
            .result
            .device
            .driver_info
            .contains("spvsass sm90 cubin"),
        "{name}: not a capture of our own cubin"
    );
    let sim = simulate_run_file(&run, &SimulateOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let (gpu, sim) = (words(&capture, name), words(&sim.capture, name));
    assert_eq!(gpu.len(), 256, "{name}: 128 lanes of two words");
    let bad: Vec<String> = (0..gpu.len())
        .filter(|&i| gpu[i] != sim[i])
        .take(4)
        .map(|i| {
            format!(
                "lane {} word {}: gpu {:#010x} sim {:#010x}",
                i / 2,
                i % 2,
                gpu[i],
                sim[i]
            )
        })
        .collect();
    assert!(bad.is_empty(), "{name}:\n{}", bad.join("\n"));
}

macro_rules! hand_ops {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                agrees(stringify!($name));
            }
        )*
        /// Every program in the folder has its test.
        #[test]
        fn every_program_is_tested() {
            let mut listed = vec![$(stringify!($name).to_owned(),)*];
            listed.sort();
            let mut found: Vec<String> = std::fs::read_dir(root().join("tests/data/op_truth_hand"))
                .expect("op_truth_hand")
                .filter_map(|e| {
                    let name = e.ok()?.file_name().into_string().ok()?;
                    name.strip_suffix(".json").map(str::to_owned)
                })
                .collect();
            found.sort();
            assert_eq!(found, listed);
        }
    };
}

hand_ops!(
    dadd,
    dadd_neg,
    dfma,
    dmul,
    f2f_f32_f64,
    f2f_f64_f32,
    imad_hi_pair,
    imad_hi_rz,
    imad_hi_s_pair,
    imad_wide_pair,
    imad_wide_s_pair,
);

/// The immediate-addend forms of IMAD.HI and IMAD.WIDE faulted on the H100
/// (gen.py's imad_hi_imm and imad_wide_imm): the assembler refuses them.
#[test]
fn immediate_addend_is_refused() {
    for text in [
        "IMAD.HI.U32 R5, R2, R3, 0x12345 ;",
        "IMAD.WIDE.U32 R4, R2, R3, 0x12345 ;",
    ] {
        let err = spvsass::backend::asm::assemble(text)
            .err()
            .unwrap_or_else(|| panic!("`{text}` assembled"));
        assert!(err.to_string().contains("no immediate c"), "{text}: {err}");
    }
}
