//! Every input bounded: mutated binaries (`disasm`, `run`), listings
//! (`asm`) and run descriptions (docs/RUNS.md) give a result or an error,
//! never a panic, a hang or an unbounded allocation. Each target applies
//! proptest-drawn edits (tests/mutation) to real inputs from a fixed seed;
//! scripts/fuzz-inputs.sh runs the same targets for millions of cases.
//! The command line's values have their own target in src/cli_mutations.rs.

#[path = "mutation/mod.rs"]
mod mutation;

use spvsass::backend::binary::{Binary, Stage};
use spvsass::backend::target::Arch;
use spvsass::sim::{ComputeInputs, SimOptions};
use spvsass::{Options, reference::RunDescription};
use std::path::Path;
use std::sync::OnceLock;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Small budgets: a mutated program may loop forever or draw much.
fn options() -> SimOptions {
    SimOptions {
        max_steps: 2_000,
        max_total_steps: 20_000,
        max_output_bytes: 1 << 20,
        ..SimOptions::default()
    }
}

fn compile(name: &str, task_present: bool) -> Binary {
    let bytes = std::fs::read(Path::new(ROOT).join("tests/shaders").join(name)).expect("shader");
    let words = spvsass::frontend::words_from_bytes(&bytes).expect("SPIR-V");
    let options = Options {
        task_present,
        ..Options::default()
    };
    spvsass::compile(&words, &options)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .binary
}

/// The seed binaries: compute shaders with buffers, shared and local
/// memory, a task shader and the mesh shaders it launches or that run
/// alone.
struct Seeds {
    binaries: Vec<Vec<u8>>,
    task: Binary,
    /// ref_quads.mesh compiled for its task shader.
    mesh_after_task: Binary,
}

fn seeds() -> &'static Seeds {
    static SEEDS: OnceLock<Seeds> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let task = compile("ref_quads.task.spv", false);
        let mesh_after_task = compile("ref_quads.mesh.spv", true);
        let binaries = [
            compile("ref_add.comp.spv", false),
            compile("shared_reduction.comp.spv", false),
            compile("private_globals.comp.spv", false),
            compile("triangle.mesh.spv", false),
            compile("point.mesh.spv", false),
            task.clone(),
            mesh_after_task.clone(),
        ]
        .iter()
        .map(Binary::to_bytes)
        .collect();
        Seeds {
            binaries,
            task,
            mesh_after_task,
        }
    })
}

/// What `disasm` does with the bytes.
fn disasm(bytes: &[u8]) -> Option<Binary> {
    let binary = Binary::from_bytes(bytes).ok()?;
    let _ = spvsass::listing(&binary, true);
    Some(binary)
}

/// What `run` does with a binary, on small grids and budgets.
fn run(binary: &Binary) {
    let s = seeds();
    let options = options();
    match binary.stage {
        Stage::Compute => {
            let mut inputs = ComputeInputs::default();
            for b in [0, 2, 3] {
                inputs.buffers.insert(b, vec![0; 512]);
            }
            inputs.uniforms.insert(1, vec![0; 16]);
            inputs.push_constants = vec![0; 8];
            let _ = spvsass::Dispatch::new(binary, [2, 1, 1])
                .inputs(inputs)
                .options(options)
                .run();
        }
        Stage::Mesh => {
            let _ = spvsass::Draw::new(None, binary, [2, 1, 1])
                .options(options)
                .run()
                .map(|r| r.draw);
            let _ = spvsass::Draw::new(Some(&s.task), binary, [1, 1, 1])
                .options(options)
                .run()
                .map(|r| r.draw);
        }
        Stage::Task => {
            let _ = spvsass::Draw::new(Some(binary), &s.mesh_after_task, [2, 1, 1])
                .options(options)
                .run()
                .map(|r| r.draw);
        }
    }
}

#[test]
fn mutated_binaries_disassemble_or_are_refused() {
    mutation::run_target("binary_disasm", &seeds().binaries, 3000, |_, bytes| {
        disasm(bytes);
    });
}

#[test]
fn mutated_binaries_run_or_are_refused() {
    mutation::run_target("binary_run", &seeds().binaries, 1000, |_, bytes| {
        if let Some(binary) = disasm(bytes) {
            run(&binary);
        }
    });
}

/// Listings of the compute seeds, as `disasm` prints them.
fn listings() -> Vec<Vec<u8>> {
    seeds().binaries[..3]
        .iter()
        .map(|b| {
            let binary = Binary::from_bytes(b).expect("seed");
            spvsass::listing(&binary, false)
                .expect("listing")
                .into_bytes()
        })
        .collect()
}

#[test]
fn mutated_listings_assemble_or_are_refused() {
    mutation::run_target("listing_asm", &listings(), 1000, |_, bytes| {
        // `asm` refuses text that is not UTF-8 first.
        let Ok(text) = std::str::from_utf8(bytes) else {
            return;
        };
        let Ok(assembled) = spvsass::backend::asm::assemble(text) else {
            return;
        };
        if let Ok(binary) = assembled.to_binary() {
            // What `asm -o` writes is read back by `disasm`, unchanged (an
            // assembled binary leaves its compute state to the writer's
            // zeros, so the bytes are compared).
            let bytes = binary.to_bytes();
            let back = Binary::from_bytes(&bytes).map(|b| b.to_bytes());
            assert_eq!(back.as_ref().ok(), Some(&bytes), "{text}");
        }
    });
}

/// Run descriptions of compute and mesh runs, with task shaders, buffers of
/// both kinds, files and push constants.
const RUNS: &[&str] = &[
    "ref_add",
    "ref_reduce",
    "ref_quads",
    "ref_views",
    "triangle_cull_front",
    "point",
];

#[test]
fn mutated_run_descriptions_are_simulated_or_refused() {
    let runs = Path::new(ROOT).join("tests/runs");
    let seeds: Vec<Vec<u8>> = RUNS
        .iter()
        .map(|r| std::fs::read(runs.join(format!("{r}.json"))).expect("run"))
        .collect();
    let options = spvsass::simulate_run::SimulateOptions {
        arch: None,
        sim: options(),
    };
    mutation::run_target("run_description", &seeds, 1000, |which, bytes| {
        let Ok(desc) = serde_json::from_slice::<RunDescription>(bytes) else {
            return;
        };
        let _ = spvsass::simulate_run::simulate_run(&desc, RUNS[which], &runs, &options);
    });
}

/// SPIR-V modules that together hold the instructions the frontend
/// translates: compute with buffers, shared memory, locals, calls,
/// switches, phis, subgroups, atomics and physical pointers; mesh and task
/// shaders with their outputs, payloads and culling.
const SPIRV: &[&str] = &[
    "ref_add.comp.spv",
    "shared_reduction.comp.spv",
    "private_globals.comp.spv",
    "function_calls.comp.spv",
    "switch_fallthrough.comp.spv",
    "phi_heavy_loop.comp.spv",
    "subgroup_vote_shuffle.comp.spv",
    "buffer_device_address.comp.spv",
    "meshlet_instanced.mesh.spv",
    "meshlet_cone_culling.task.spv",
    "triangle.mesh.spv",
];

/// What `compile` then `run` do with a mutated module: translate and
/// compile for two targets (the second as if a task shader fed a mesh
/// shader), write the binary and read it back as `disasm` does, then run
/// it on a small grid and budget. (About 40% of the mutants are still
/// whole words and 5% compile: the frontend's own mutations,
/// frontend/tests/mutations.rs, edit words and ids.)
#[test]
fn mutated_spirv_compiles_or_is_refused() {
    let dir = Path::new(ROOT).join("tests/shaders");
    let seeds: Vec<Vec<u8>> = SPIRV
        .iter()
        .map(|m| std::fs::read(dir.join(m)).expect("module"))
        .collect();
    mutation::run_target("spirv_compile", &seeds, 300, |_, bytes| {
        let Ok(words) = spvsass::frontend::words_from_bytes(bytes) else {
            return;
        };
        for (arch, task_present) in [(Arch::Sm75, false), (Arch::Sm86, true)] {
            let options = Options {
                arch: Some(arch),
                task_present,
                ..Options::default()
            };
            if let Ok(compiled) = spvsass::compile(&words, &options)
                && let Some(binary) = disasm(&compiled.binary.to_bytes())
            {
                run(&binary);
            }
        }
    });
}

/// Regressions the mutation targets found or the issue listed, one test
/// each.
mod regressions {
    use super::*;

    fn header_word(binary: &Binary, word: usize, value: u32) -> Result<Binary, String> {
        let mut bytes = binary.to_bytes();
        bytes[4 * word..4 * word + 4].copy_from_slice(&value.to_le_bytes());
        Binary::from_bytes(&bytes).map_err(|e| e.to_string())
    }

    #[test]
    fn a_huge_compute_shared_size_is_refused_when_read() {
        // Words: magic (2), version, arch, stage, size (3), registers,
        // mesh flag, shared bytes, local bytes.
        let add = Binary::from_bytes(&seeds().binaries[0]).expect("seed");
        let e = header_word(&add, 10, u32::MAX).err();
        assert_eq!(
            e.as_deref(),
            Some(
                "shared bytes 4294967295 in spvsass binary exceeds the limit of 49152 \
                 (maxComputeSharedMemorySize)"
            )
        );
        let e = header_word(&add, 11, u32::MAX).err();
        assert!(e.is_some_and(|e| e.starts_with("local bytes 4294967295")));
    }

    #[test]
    fn a_huge_dispatch_stops_at_the_total_step_budget() {
        let add = Binary::from_bytes(&seeds().binaries[0]).expect("seed");
        let mut inputs = ComputeInputs::default();
        for b in [0, 2, 3] {
            inputs.buffers.insert(b, vec![0; 512]);
        }
        inputs.uniforms.insert(1, vec![0; 16]);
        let start = std::time::Instant::now();
        let e = spvsass::Dispatch::new(&add, [2147483647, 65535, 65535])
            .inputs(inputs.clone())
            .options(options())
            .run()
            .err()
            .map(|e| e.to_string());
        assert!(
            e.as_deref()
                .is_some_and(|m| m.contains("passed its budget of 20000")),
            "{e:?}"
        );
        assert!(start.elapsed().as_secs() < 30);
        let e = spvsass::Dispatch::new(&add, [u32::MAX, 1, 1])
            .inputs(inputs)
            .options(options())
            .run()
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            e.as_deref(),
            Some(
                "workgroup counts 4294967295x1x1: past the limit of 2147483647x65535x65535 \
                 (maxComputeWorkGroupCount)"
            )
        );
    }

    #[test]
    fn a_draw_stops_at_its_budgets() {
        let triangle = Binary::from_bytes(&seeds().binaries[3]).expect("seed");
        let small = SimOptions {
            max_output_bytes: 4096,
            ..SimOptions::default()
        };
        let e = spvsass::Draw::new(None, &triangle, [1 << 20, 1, 1])
            .options(small)
            .run()
            .map(|r| r.draw)
            .err()
            .map(|e| e.to_string());
        assert!(
            e.as_deref()
                .is_some_and(|m| m.contains("the draw's outputs would take about")
                    && m.contains("more than the limit of 4096")),
            "{e:?}"
        );
        let e = spvsass::Draw::new(None, &triangle, [4096, 2048, 1])
            .options(small)
            .run()
            .map(|r| r.draw)
            .err()
            .map(|e| e.to_string());
        assert!(
            e.as_deref()
                .is_some_and(|m| m.contains("COUNT over the 2^22 workgroups of one draw")),
            "{e:?}"
        );
        // The total of three maximal sides overflows 64 bits.
        let bound = spvsass::sim::run_draw_bound(
            None,
            &triangle,
            [u32::MAX; 3],
            0,
            ComputeInputs::default(),
            &small,
        );
        let e = bound.err().map(|e| e.to_string());
        assert!(
            e.as_deref()
                .is_some_and(|m| m.contains("past the limit of 4194304x65535x65535")),
            "{e:?}"
        );
    }

    #[test]
    fn buffers_past_the_limit_are_refused_before_the_run() {
        let add = Binary::from_bytes(&seeds().binaries[0]).expect("seed");
        let mut inputs = ComputeInputs::default();
        inputs.uniforms.insert(1, vec![0; (1 << 27) + 1]);
        let e = spvsass::Dispatch::new(&add, [1, 1, 1])
            .inputs(inputs)
            .options(options())
            .run()
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            e.as_deref(),
            Some(
                "uniform buffer at binding 1: 134217729 bytes is more than the 134217728 a run may bind"
            )
        );
    }

    /// Found by the long run of the mutation targets (BENCHMARKS.md):
    /// binding numbers index the set's binding table, so a large one
    /// overflowed laying it out (compile, binary, run).
    #[test]
    fn a_binding_past_the_set_table_is_refused_everywhere() {
        // Compile: ref_add's first Binding decoration becomes 70000.
        let bytes =
            std::fs::read(Path::new(ROOT).join("tests/shaders/ref_add.comp.spv")).expect("shader");
        let mut words = spvsass::frontend::words_from_bytes(&bytes).expect("SPIR-V");
        let at = (5..words.len() - 3)
            .find(|&i| words[i] == (4 << 16 | 71) && words[i + 2] == 33)
            .expect("an OpDecorate Binding");
        words[at + 3] = 70_000;
        let e = spvsass::compile(&words, &Options::default())
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            e.contains("binding 70000 (bindings 0..65536)") && e.contains("result %"),
            "{e}"
        );
        // A binary naming it.
        let mut add = Binary::from_bytes(&seeds().binaries[0]).expect("seed");
        add.resources[0].binding = 70_000;
        let e = Binary::from_bytes(&add.to_bytes())
            .err()
            .map(|e| e.to_string());
        assert!(
            e.as_deref().is_some_and(|m| m.contains("resource binding")),
            "{e:?}"
        );
        // A run binding it, or an element past the array limit.
        let add = Binary::from_bytes(&seeds().binaries[0]).expect("seed");
        for (binding, element, message) in [
            (
                70_000,
                0,
                "binding 70000 is outside the supported bindings 0..65536",
            ),
            (
                3,
                1 << 20,
                "array element 1048576 is outside the supported elements",
            ),
        ] {
            let mut inputs = ComputeInputs::default();
            inputs.bound.push(spvsass::sim::BoundBuffer {
                slot: spvsass::sim::Slot {
                    set: 1,
                    binding,
                    element,
                },
                kind: spvsass::sim::BufferKind::Storage,
                bytes: vec![0; 64],
                offset: 0,
                range: None,
            });
            let e = spvsass::Dispatch::new(&add, [1, 1, 1])
                .inputs(inputs)
                .options(options())
                .run()
                .err()
                .map(|e| e.to_string());
            assert!(e.as_deref().is_some_and(|m| m.contains(message)), "{e:?}");
        }
    }

    /// Found by the long run of the SPIR-V target (BENCHMARKS.md): an
    /// Offset decoration near 4 GiB overflowed the layout (a struct's
    /// size, a 64-bit value's second word) and an access chain whose base
    /// was changed to a smaller variable loaded too few components for a
    /// matrix product. Each edit is the shrunk case proptest printed.
    #[test]
    fn mutated_layouts_and_chains_are_refused_not_overflows() {
        let cases: [(&str, usize, Option<u32>, u8, &str); 6] = [
            (
                "ref_add.comp.spv",
                728,
                Some(0xffff_fffe),
                0,
                "(OpLoad, result %44)",
            ),
            (
                "buffer_device_address.comp.spv",
                644,
                Some(0xffff_fffe),
                0,
                "(OpLoad, result %35)",
            ),
            (
                "phi_heavy_loop.comp.spv",
                136,
                Some(0xffff_fffe),
                0,
                "(OpStore, result %33)",
            ),
            (
                "meshlet_instanced.mesh.spv",
                4328,
                None,
                25,
                "(MatrixTimesVector, result %117)",
            ),
            // The third run: a vector's and a struct's scalars past 4 GiB.
            (
                "function_calls.comp.spv",
                840,
                Some(0xffff_fffe),
                0,
                "(OpLoad, result %145)",
            ),
            (
                "meshlet_instanced.mesh.spv",
                1424,
                Some(0xffff_fffe),
                0,
                "(OpLoad, result %35)",
            ),
        ];
        for (module, at, word, byte, place) in cases {
            let mut bytes =
                std::fs::read(Path::new(ROOT).join("tests/shaders").join(module)).expect("module");
            match word {
                Some(w) => bytes[at..at + 4].copy_from_slice(&w.to_le_bytes()),
                None => bytes[at] = byte,
            }
            let words = spvsass::frontend::words_from_bytes(&bytes).expect("SPIR-V");
            let e = spvsass::compile(&words, &Options::default())
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(e.contains(place), "{module}: {e}");
        }
    }

    /// Found by the third long run (BENCHMARKS.md): an image of
    /// 4294967295 × 4294967295 pixels overflowed the rasterizer's pixel
    /// count before its size check, and a module with an operand rspirv
    /// cannot decode where it stands (a byte of meshlet_cone_culling.task
    /// changed) panicked inside rspirv.
    #[test]
    fn a_huge_image_and_an_undecodable_operand_are_errors() {
        let runs = Path::new(ROOT).join("tests/runs");
        let text = std::fs::read_to_string(runs.join("ref_views.json")).expect("run");
        let text = text.replacen("64", "4294967295", 2);
        let desc: RunDescription = serde_json::from_str(&text).expect("still a description");
        let options = spvsass::simulate_run::SimulateOptions {
            arch: None,
            sim: options(),
        };
        let e = spvsass::simulate_run::simulate_run(&desc, "ref_views", &runs, &options)
            .err()
            .map(|e| e.to_string());
        assert!(
            e.as_deref().is_some_and(|m| m.contains("4294967295")),
            "{e:?}"
        );
        let mut bytes =
            std::fs::read(Path::new(ROOT).join("tests/shaders/meshlet_cone_culling.task.spv"))
                .expect("module");
        bytes[3620] = 52;
        let words = spvsass::frontend::words_from_bytes(&bytes).expect("SPIR-V");
        let e = spvsass::compile(&words, &Options::default())
            .err()
            .map(|e| e.to_string());
        assert!(
            e.as_deref()
                .is_some_and(|m| m.contains("an operand the SPIR-V reader (rspirv) cannot decode")),
            "{e:?}"
        );
    }

    /// Found by the fourth long run: a bit flip turned an
    /// OpMatrixTimesVector into an OpIAddCarry of a matrix and a vector,
    /// whose component-wise lowering indexed past the vector.
    #[test]
    fn a_component_wise_op_on_operands_of_different_sizes_is_refused() {
        let mut bytes =
            std::fs::read(Path::new(ROOT).join("tests/shaders/meshlet_instanced.mesh.spv"))
                .expect("module");
        bytes[4172] ^= 1 << 2;
        let words = spvsass::frontend::words_from_bytes(&bytes).expect("SPIR-V");
        let e = spvsass::compile(&words, &Options::default())
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            e.contains("IAddCarry on operands of different sizes"),
            "{e}"
        );
        // The fifth run: a byte turned Normalize of a vec3 into
        // PackSnorm4x8, whose lowering shifted the third field by 32.
        let mut bytes =
            std::fs::read(Path::new(ROOT).join("tests/shaders/meshlet_cone_culling.task.spv"))
                .expect("module");
        bytes[3952] = 54;
        let words = spvsass::frontend::words_from_bytes(&bytes).expect("SPIR-V");
        let e = spvsass::compile(&words, &Options::default())
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            e.contains("PackSnorm4x8 on an operand without 4 components"),
            "{e}"
        );
    }
}
