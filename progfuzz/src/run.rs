//! One generated program end to end: GLSL written to a temporary file,
//! compiled to SPIR-V by glslangValidator, given deterministic inputs and
//! checked by the oracle.

use crate::ast::{AtomOp, Program};
use crate::oracle::{self, Case, Failure};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// The glslangValidator executable (`GLSLANG` overrides the name).
fn glslang() -> String {
    std::env::var("GLSLANG").unwrap_or_else(|_| "glslangValidator".into())
}

/// Compiles GLSL compute source to SPIR-V words.
pub fn compile_glsl(src: &str) -> Result<Vec<u32>, Failure> {
    #[cfg(feature = "inproc-glslang")]
    if std::env::var_os("GLSLANG").is_none() {
        return crate::glslang_inproc::compile(src)
            .map_err(|e| oracle_fail("glslang error", first_line(&e), &e));
    }
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir();
    let base: PathBuf = dir.join(format!("progfuzz-{}-{n}", std::process::id()));
    let glsl = base.with_extension("comp");
    let spv = base.with_extension("spv");
    let io = |e: std::io::Error| Failure {
        signature: "harness: temporary file".into(),
        detail: e.to_string(),
    };
    std::fs::write(&glsl, src).map_err(io)?;
    let out = Command::new(glslang())
        .args(["-V", "--target-env", "vulkan1.3", "-S", "comp", "-o"])
        .arg(&spv)
        .arg(&glsl)
        .output()
        .map_err(|e| Failure {
            signature: "harness: glslangValidator could not run".into(),
            detail: e.to_string(),
        })?;
    let _ = std::fs::remove_file(&glsl);
    if !out.status.success() {
        let _ = std::fs::remove_file(&spv);
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let first = text
            .lines()
            .find(|l| l.contains("ERROR"))
            .unwrap_or("glslang failed")
            .to_string();
        let first = first.split(':').skip(3).collect::<Vec<_>>().join(":");
        return Err(oracle_fail("glslang error", &first, &text));
    }
    let bytes = std::fs::read(&spv).map_err(io)?;
    let _ = std::fs::remove_file(&spv);
    spvsass::frontend::words_from_bytes(&bytes).map_err(|e| Failure {
        signature: "harness: glslang output".into(),
        detail: e.to_string(),
    })
}

/// The first line of shaderc's message, the failure's signature.
#[cfg(feature = "inproc-glslang")]
fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("shaderc failed")
}

fn oracle_fail(kind: &str, sig: &str, detail: &str) -> Failure {
    Failure {
        signature: oracle::signature_of(kind, sig),
        detail: detail.to_string(),
    }
}

/// The slots of the atomic buffer start at each operation's identity.
fn atomic_buffer() -> Vec<u8> {
    let ops = [
        AtomOp::Add,
        AtomOp::Or,
        AtomOp::Xor,
        AtomOp::And,
        AtomOp::Min,
        AtomOp::Max,
    ];
    let mut words = Vec::new();
    for op in ops {
        let init = match op {
            AtomOp::And | AtomOp::Min => u32::MAX,
            AtomOp::Add | AtomOp::Or | AtomOp::Xor | AtomOp::Max => 0,
        };
        words.extend(std::iter::repeat_n(init, 8));
    }
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The case for program `p`'s SPIR-V, inputs drawn from `seed`.
pub fn case_for(p: &Program, words: Vec<u32>, seed: u64) -> Case {
    let total = u64::from(p.invocations()) * u64::from(p.groups);
    let mut rng = crate::generate::Rng::new(seed ^ 0x5eed);
    let input: Vec<u8> = (0..total * 8)
        .flat_map(|_| {
            let w = match rng.below(4) {
                0 => rng.below(16) as u32,
                1 => rng.pick(&[0u32, 1, u32::MAX, 0x8000_0000, 0x7fff_ffff, 0xff, 0x80]),
                _ => rng.next_u64() as u32,
            };
            w.to_le_bytes()
        })
        .collect();
    let out = vec![0u8; (total * u64::from(p.out_words()) * 4).max(16) as usize];
    let mut buffers = BTreeMap::new();
    buffers.insert(0, input);
    buffers.insert(1, out);
    buffers.insert(2, atomic_buffer());
    Case {
        words,
        groups: [p.groups, 1, 1],
        inputs: spvsass_interp::Inputs {
            buffers,
            ..Default::default()
        },
        float_tolerance: BTreeMap::new(),
    }
}

/// Steps the simulator may take per workgroup for a generated program.
pub const SIM_STEPS: u64 = 2_000_000;

/// Compiles and checks program `p` with inputs from `seed`.
pub fn run_program(p: &Program, seed: u64) -> Result<(), Failure> {
    let words = compile_program(p)?;
    check_program(p, words, seed)
}

/// Program `p`'s SPIR-V (glslangValidator, one process).
pub fn compile_program(p: &Program) -> Result<Vec<u32>, Failure> {
    let src = crate::print::glsl(p);
    let clock = std::time::Instant::now();
    let words = compile_glsl(&src)?;
    if std::env::var_os("PROGFUZZ_TIMING").is_some() {
        eprintln!("glslang: {:.1} ms", clock.elapsed().as_secs_f64() * 1e3);
    }
    Ok(words)
}

/// Checks program `p`, already compiled to `words`, with inputs from
/// `seed`.
pub fn check_program(p: &Program, words: Vec<u32>, seed: u64) -> Result<(), Failure> {
    let case = case_for(p, words, seed);
    oracle::check(&case, SIM_STEPS, &spvsass_interp::Options::default())
}
