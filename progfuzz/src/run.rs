//! One generated program end to end: GLSL written to a temporary file,
//! compiled to SPIR-V by glslangValidator, given deterministic inputs and
//! checked by the oracle.

use crate::ast::{AtomOp, Program, Stage};
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
    compile_glsl_stage(src, "comp")
}

/// Compiles GLSL source of `stage` (`comp`, `task`, `mesh`) to SPIR-V words.
pub fn compile_glsl_stage(src: &str, stage: &str) -> Result<Vec<u32>, Failure> {
    #[cfg(feature = "inproc-glslang")]
    if std::env::var_os("GLSLANG").is_none() {
        return crate::glslang_inproc::compile(src, stage)
            .map_err(|e| oracle_fail("glslang error", first_line(&e), &e));
    }
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir();
    let base: PathBuf = dir.join(format!("progfuzz-{}-{n}", std::process::id()));
    let glsl = base.with_extension(stage);
    let spv = base.with_extension("spv");
    let io = |e: std::io::Error| Failure {
        signature: "harness: temporary file".into(),
        detail: e.to_string(),
    };
    std::fs::write(&glsl, src).map_err(io)?;
    let out = Command::new(glslang())
        .args(["-V", "--target-env", "vulkan1.3", "-S", stage, "-o"])
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

/// A program's SPIR-V: the shader, and for a task program its mesh shader.
#[derive(Clone, Debug)]
pub struct Spirv {
    pub words: Vec<u32>,
    pub mesh: Option<Vec<u32>>,
}

/// The case for program `p`'s SPIR-V, inputs drawn from `seed`.
pub fn case_for(p: &Program, spirv: Spirv, seed: u64) -> Case {
    let own = u64::from(p.invocations()) * u64::from(p.groups);
    // A task program's mesh workgroups write binding 3 at
    // (task index * 4 + mesh index) * invocations + local index.
    let launched = match &p.stage {
        Stage::Task(t) => Some((
            u64::from(p.groups) * 4 * u64::from(t.mesh.invocations()),
            t.mesh.out_words(),
        )),
        Stage::Compute | Stage::Mesh(_) => None,
    };
    let total = own.max(launched.map_or(0, |l| l.0));
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
    let out = vec![0u8; (own * u64::from(p.out_words()) * 4).max(16) as usize];
    let mut buffers = BTreeMap::new();
    buffers.insert(0, input);
    buffers.insert(1, out);
    buffers.insert(2, atomic_buffer());
    if let Some((n, words)) = launched {
        buffers.insert(3, vec![0u8; (n * u64::from(words) * 4).max(16) as usize]);
    }
    Case {
        words: spirv.words,
        mesh_words: spirv.mesh,
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

/// Program `p`'s SPIR-V (glslangValidator, one process per shader).
pub fn compile_program(p: &Program) -> Result<Spirv, Failure> {
    let src = crate::print::glsl(p);
    let clock = std::time::Instant::now();
    let stage = match &p.stage {
        Stage::Compute => "comp",
        Stage::Mesh(_) => "mesh",
        Stage::Task(_) => "task",
    };
    let words = compile_glsl_stage(&src, stage)?;
    let mesh = match crate::print::mesh_glsl(p) {
        Some(src) => Some(compile_glsl_stage(&src, "mesh")?),
        None => None,
    };
    if std::env::var_os("PROGFUZZ_TIMING").is_some() {
        eprintln!("glslang: {:.1} ms", clock.elapsed().as_secs_f64() * 1e3);
    }
    Ok(Spirv { words, mesh })
}

/// Checks program `p`, already compiled to `spirv`, with inputs from
/// `seed`.
pub fn check_program(p: &Program, spirv: Spirv, seed: u64) -> Result<(), Failure> {
    let case = case_for(p, spirv, seed);
    oracle::check(&case, SIM_STEPS, &spvsass_interp::Options::default())
}
