//! The native tier against the interpreter on the compute test shaders:
//! each shader of tests/shaders that compiles is dispatched on both tiers
//! with the same generic inputs (every set-0 storage and uniform buffer
//! filled with pseudo-random words, random push constants) and small step
//! limits, so loops driven by those words end in the step-limit errors
//! both tiers must report alike. Buffers, counters (the native share set
//! aside) and errors must be identical. Shaders with images are left out
//! (the generic inputs bind none).

use crate::common;

use spvsass::backend::binary::ResourceKind;
use spvsass::backend::target::Arch;
use spvsass::sim::{ComputeInputs, ComputeRun, Handover, SimOptions, Tier};

/// Pseudo-random bytes (a fixed LCG, so runs are reproducible).
fn noise(n: usize, seed: u32) -> Vec<u8> {
    let mut x = seed;
    (0..n / 4)
        .flat_map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            // Mostly small words, so that loop counts and indices they
            // drive stay in range now and then.
            let w = if x >> 30 == 0 { x } else { x >> 24 };
            w.to_le_bytes()
        })
        .collect()
}

/// What a dispatch produced, the native share set aside.
type Outcome = Result<(Vec<(u32, Vec<u8>)>, u64, spvsass::sim::Counters), String>;

fn dispatch(binary: &spvsass::backend::binary::Binary, tier: Tier) -> (Outcome, u64) {
    let mut inputs = ComputeInputs {
        push_constants: noise(128, 7),
        ..ComputeInputs::default()
    };
    for (i, r) in binary.resources.iter().enumerate() {
        if r.set != 0 || r.array.is_some() {
            continue;
        }
        let bytes = noise(16 << 10, 11 + i as u32);
        match r.kind {
            ResourceKind::StorageBuffer => {
                inputs.buffers.insert(r.binding, bytes);
            }
            ResourceKind::UniformBuffer => {
                inputs.uniforms.insert(r.binding, bytes);
            }
            ResourceKind::Image => {}
        }
    }
    let options = SimOptions {
        max_steps: 20_000,
        max_total_steps: 400_000,
        tier,
        // The checker keeps the native tier from running.
        check_ctrl: tier == Tier::Interp,
        ..SimOptions::default()
    };
    let run = spvsass::Dispatch::new(binary, [3, 1, 1])
        .inputs(inputs)
        .options(options)
        .run();
    match run {
        Ok(mut run) => {
            let native = std::mem::take(&mut run.counters.native_warp_instructions);
            let buffers = run.buffers.into_iter().collect();
            (Ok((buffers, run.workgroups, run.counters)), native)
        }
        Err(e) => (Err(e.to_string()), 0),
    }
}

fn same_on_both_tiers(name: &str) {
    let compiled = common::compile(name, Arch::Sm86);
    let (interp, none) = dispatch(&compiled.binary, Tier::Interp);
    let (native, _) = dispatch(&compiled.binary, Tier::Native);
    assert_eq!(none, 0);
    assert_eq!(native, interp, "{name}");
}

macro_rules! same_on_both_tiers {
    ($($test:ident: $name:expr;)*) => {$(
        #[test]
        fn $test() {
            same_on_both_tiers($name);
        }
    )*};
}

same_on_both_tiers! {
    atomics64: "atomics64.comp";
    bit_operations: "bit_operations.comp";
    blelloch_prefix_sum: "blelloch_prefix_sum.comp";
    buffer_atomics: "buffer_atomics.comp";
    buffer_device_address: "buffer_device_address.comp";
    c_add_push: "c_add_push.comp";
    c_atomic_float: "c_atomic_float.comp";
    c_atomics: "c_atomics.comp";
    c_builtins: "c_builtins.comp";
    c_composite_ops: "c_composite_ops.comp";
    c_divergent_branch: "c_divergent_branch.comp";
    c_divide: "c_divide.comp";
    c_float_atomic_olds: "c_float_atomic_olds.comp";
    c_local_array: "c_local_array.comp";
    c_loop: "c_loop.comp";
    c_loop_break: "c_loop_break.comp";
    c_math_edges: "c_math_edges.comp";
    c_matrix: "c_matrix.comp";
    c_matrix_layouts: "c_matrix_layouts.comp";
    c_pack: "c_pack.comp";
    c_pred_pressure: "c_pred_pressure.comp";
    c_predicated: "c_predicated.comp";
    c_pressure: "c_pressure.comp";
    c_reduce128: "c_reduce128.comp";
    c_reduce256: "c_reduce256.comp";
    c_struct_index: "c_struct_index.comp";
    c_subgroup_divergent: "c_subgroup_divergent.comp";
    c_subgroup_quads: "c_subgroup_quads.comp";
    c_switch: "c_switch.comp";
    c_uniform: "c_uniform.comp";
    c_uniform_branch: "c_uniform_branch.comp";
    c_vector_dynamic: "c_vector_dynamic.comp";
    copy_logical: "copy_logical.comp";
    dxc_counter_atomics: "dxc_counter_atomics.comp";
    dynamic_indexing: "dynamic_indexing.comp";
    float_atomics: "float_atomics.comp";
    float_builtins: "float_builtins.comp";
    function_calls: "function_calls.comp";
    geometric: "geometric.comp";
    half_and_double: "half_and_double.comp";
    loops_break_continue: "loops_break_continue.comp";
    lt_bda_atomics: "lt_bda_atomics.comp";
    lt_buffer_block: "lt_buffer_block.comp";
    lt_buffer_struct_index: "lt_buffer_struct_index.comp";
    lt_debug_info: "lt_debug_info.comp";
    lt_decoration_group: "lt_decoration_group.comp";
    lt_matrix_column: "lt_matrix_column.comp";
    lt_opencl_debug_info: "lt_opencl_debug_info.comp";
    lt_push256: "lt_push256.comp";
    lt_shared_init: "lt_shared_init.comp";
    lt_small_types: "lt_small_types.comp";
    lt_spec_array_lengths: "lt_spec_array_lengths.comp";
    lt_struct_array_index: "lt_struct_array_index.comp";
    lt_subgroup_wide: "lt_subgroup_wide.comp";
    lt_workgroup_explicit_layout: "lt_workgroup_explicit_layout.comp";
    matrix_operations: "matrix_operations.comp";
    memory_barriers: "memory_barriers.comp";
    narrow_ops: "narrow_ops.comp";
    opt_switch_merges: "opt_switch_merges.comp";
    pack_unpack: "pack_unpack.comp";
    phi_heavy_loop: "phi_heavy_loop.comp";
    private_globals: "private_globals.comp";
    ptr_access_chain: "ptr_access_chain.comp";
    ptr_stride: "ptr_stride.comp";
    r_dead_loop: "r_dead_loop.comp";
    r_dead_nested_if: "r_dead_nested_if.comp";
    r_double_branch_pair: "r_double_branch_pair.comp";
    r_double_sign_step: "r_double_sign_step.comp";
    r_fmax_signed_zero: "r_fmax_signed_zero.comp";
    r_folded_branch_barrier: "r_folded_branch_barrier.comp";
    r_return_in_loop: "r_return_in_loop.comp";
    r_struct_bool_phi: "r_struct_bool_phi.comp";
    r_wide_conversions: "r_wide_conversions.comp";
    ref_add: "ref_add.comp";
    ref_atomic: "ref_atomic.comp";
    ref_reduce: "ref_reduce.comp";
    res_big_uniform: "res_big_uniform.comp";
    res_sets: "res_sets.comp";
    runtime_array_length: "runtime_array_length.comp";
    shared_histogram: "shared_histogram.comp";
    shared_reduction: "shared_reduction.comp";
    small_and_wide_ints: "small_and_wide_ints.comp";
    spec_constant_ops: "spec_constant_ops.comp";
    spec_op_quantize: "spec_op_quantize.comp";
    spec_sized_arrays: "spec_sized_arrays.comp";
    spec_workgroup_xy: "spec_workgroup_xy.comp";
    subgroup_quad_clustered: "subgroup_quad_clustered.comp";
    subgroup_scans: "subgroup_scans.comp";
    subgroup_vote_shuffle: "subgroup_vote_shuffle.comp";
    switch_fallthrough: "switch_fallthrough.comp";
    uniform_matrix_layouts: "uniform_matrix_layouts.comp";
    vector_swizzles: "vector_swizzles.comp";
    vp_private: "vp_private.comp";
    vp_select: "vp_select.comp";
    vp_sets: "vp_sets.comp";
    wide_div_ops: "wide_div_ops.comp";
    wide_srem: "wide_srem.comp";
}

/// The ALU kernel of the benchmarks, compiled.
fn alu_kernel() -> spvsass::backend::binary::Binary {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/alu_heavy.comp.spv");
    let bytes = std::fs::read(path).expect("the benchmark kernel exists");
    let words = spvsass::frontend::words_from_bytes(&bytes).expect("SPIR-V");
    spvsass::compile(&words, &spvsass::Options::default())
        .expect("compiles")
        .binary
}

/// The ALU kernel on 8 workgroups of 64 invocations, `rounds` rounds.
fn run_alu(
    binary: &spvsass::backend::binary::Binary,
    tier: Tier,
    handover: Handover,
    rounds: u32,
) -> ComputeRun {
    let options = SimOptions {
        tier,
        handover,
        // The checker keeps the native tier from running.
        check_ctrl: tier == Tier::Interp,
        ..SimOptions::default()
    };
    run_alu_with(binary, options, rounds)
}

/// The ALU kernel on 8 workgroups of 64 invocations, `rounds` rounds,
/// with these options.
fn run_alu_with(
    binary: &spvsass::backend::binary::Binary,
    options: SimOptions,
    rounds: u32,
) -> ComputeRun {
    let inputs = ComputeInputs {
        buffers: [(0, vec![0; 8 * 64 * 4])].into_iter().collect(),
        push_constants: rounds.to_le_bytes().to_vec(),
        ..ComputeInputs::default()
    };
    spvsass::Dispatch::new(binary, [8, 1, 1])
        .inputs(inputs)
        .options(options)
        .run()
        .expect("runs")
}

/// The ALU kernel of the benchmarks runs almost entirely natively, with
/// the interpreter's bytes.
#[test]
fn the_alu_kernel_runs_natively() {
    let binary = alu_kernel();
    let interp = run_alu(&binary, Tier::Interp, Handover::Wait, 40);
    let mut native = run_alu(&binary, Tier::Native, Handover::Wait, 40);
    let share = std::mem::take(&mut native.counters.native_warp_instructions);
    assert_eq!(native.buffers, interp.buffers);
    assert_eq!(native.counters, interp.counters);
    let stats = native.native.expect("translated");
    assert_eq!(stats.error, None);
    assert!(stats.segments > 0);
    assert!(
        share * 100 > interp.counters.warp_instructions * 95,
        "{share} of {} natively",
        interp.counters.warp_instructions
    );
    assert!(interp.native.is_none());
}

/// Whenever the native code comes (before the first warp, at a later safe
/// point, or from the background translation) and on however many
/// threads, the ALU kernel gives the interpreter's bytes and counters.
#[test]
fn the_hand_over_changes_no_result() {
    let binary = alu_kernel();
    let interp = run_alu(&binary, Tier::Interp, Handover::Wait, 300);
    let total = interp.counters.warp_instructions;
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        for handover in [
            Handover::Wait,
            Handover::AfterChecks(200),
            Handover::AfterChecks(2000),
            Handover::Background,
        ] {
            let mut native = pool.install(|| run_alu(&binary, Tier::Native, handover, 300));
            let share = std::mem::take(&mut native.counters.native_warp_instructions);
            let what = format!("{threads} threads, {handover:?}: {share} of {total} natively");
            assert_eq!(native.buffers, interp.buffers, "{what}");
            assert_eq!(native.counters, interp.counters, "{what}");
            assert_eq!(native.native.and_then(|s| s.error), None, "{what}");
            match handover {
                // Early: everything but the few instructions around the
                // loop natively.
                Handover::Wait => assert!(share * 100 > total * 95, "{what}"),
                // Late: some of it in the interpreter first.
                Handover::AfterChecks(_) => {
                    assert!(share > 0 && share * 100 < total * 98, "{what}")
                }
                Handover::Background => {}
            }
        }
    }
}

/// A thread count given in the options (as the CLI gives it) sets the
/// dispatch's workers and the translation's pieces, whatever rayon pool
/// the caller runs in, and changes no result.
#[test]
fn the_thread_option_sets_workers_and_pieces() {
    let binary = alu_kernel();
    let interp = run_alu(&binary, Tier::Interp, Handover::Wait, 100);
    // The caller in a one-thread pool: the option alone decides.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("thread pool");
    let mut functions = Vec::new();
    for threads in [1, 3, 8] {
        let options = SimOptions {
            tier: Tier::Native,
            check_ctrl: false,
            threads: std::num::NonZeroUsize::new(threads),
            ..SimOptions::default()
        };
        let mut native = pool.install(|| run_alu_with(&binary, options, 100));
        native.counters.native_warp_instructions = 0;
        assert_eq!(native.buffers, interp.buffers, "{threads} threads");
        assert_eq!(native.counters, interp.counters, "{threads} threads");
        let stats = native.native.expect("translated");
        assert_eq!(stats.error, None, "{threads} threads");
        functions.push(stats.functions);
    }
    // One function for one worker; the loop's piece and the others apart
    // for eight (`compile::split`: up to min(4, workers / 2) per copy).
    assert_eq!(functions[0], 1, "{functions:?}");
    assert!(functions[2] > 1, "{functions:?}");
}

/// `spvsass run` of the ALU kernel (4 workgroups, 20 rounds, `--json
/// --stats`) in `tier` with the environment `env`, its push constants in
/// `dir`; returns the standard output and error of a run that must
/// succeed. Without the translation cache unless `env` names one (so the
/// tests translate, and leave nothing in the user's cache).
fn run_alu_cli(
    dir: &std::path::Path,
    tier: &str,
    env: &[(&str, &std::ffi::OsStr)],
) -> (Vec<u8>, String) {
    let kernel =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/alu_heavy.comp.spv");
    let push = dir.join("push.bin");
    std::fs::write(&push, 20u32.to_le_bytes()).expect("push constants written");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_spvsass"))
        .arg("run")
        .arg(&kernel)
        .args(["--groups", "4", "--buffer", "0=1024", "--json", "--stats"])
        .arg("--push")
        .arg(&push)
        .args(["--tier", tier])
        .env("SPVSASS_TRANSLATION_CACHE", "off")
        .envs(env.iter().copied())
        .output()
        .expect("spvsass runs");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    (out.stdout, err)
}

/// `run --tier native` prints what `--tier interp` prints, and `--stats`
/// reports the translation and the share run natively.
#[test]
fn the_cli_runs_either_tier() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let (interp, interp_err) = run_alu_cli(dir.path(), "interp", &[]);
    let (native, native_err) = run_alu_cli(dir.path(), "native", &[]);
    assert_eq!(native, interp);
    assert!(!interp_err.contains("native tier"), "{interp_err}");
    assert!(
        native_err.contains("native tier: translated 4 segments"),
        "{native_err}"
    );
    assert!(native_err.contains("ran natively"), "{native_err}");
}

/// The CLI keeps translated code, and the compiled binary, in the
/// directory `SPVSASS_TRANSLATION_CACHE` names: a second run takes them
/// from there (`--stats` says so for the translation) with the same
/// output, and `off` keeps none.
#[test]
fn the_cli_keeps_a_translation_cache() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let cache = dir.path().join("cache");
    let run = |setting: &std::ffi::OsStr| {
        let env = [
            ("SPVSASS_TRANSLATION_CACHE", setting),
            ("RAYON_NUM_THREADS", "1".as_ref()),
        ];
        run_alu_cli(dir.path(), "native", &env)
    };
    let entries = || std::fs::read_dir(&cache).map_or(0, |d| d.count());
    let (off, off_err) = run("off".as_ref());
    assert_eq!(entries(), 0);
    // The one function under two keys, its piece's and its IR's, and the
    // binary (`src/compile_cache.rs`).
    let (first, first_err) = run(cache.as_os_str());
    assert_eq!(entries(), 3);
    let (second, second_err) = run(cache.as_os_str());
    assert_eq!(entries(), 3);
    assert_eq!(first, off);
    assert_eq!(second, off);
    for err in [&off_err, &first_err] {
        assert!(err.contains("1 function(s), the full-warp copy"), "{err}");
    }
    assert!(
        second_err.contains("1 function(s) (1 from the translation cache)"),
        "{second_err}"
    );
}

/// `SPVSASS_PRINT=after-each-pass` prints the passes' IR on every run,
/// the compile cache notwithstanding (a hit would compile nothing).
#[test]
fn the_passes_are_printed_on_every_run() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let cache = dir.path().join("cache");
    let env = [
        ("SPVSASS_TRANSLATION_CACHE", cache.as_os_str()),
        ("SPVSASS_PRINT", "after-each-pass".as_ref()),
    ];
    let (first, first_err) = run_alu_cli(dir.path(), "interp", &env);
    let (second, second_err) = run_alu_cli(dir.path(), "interp", &env);
    assert_eq!(first, second);
    for err in [&first_err, &second_err] {
        assert!(err.contains("// ---- after "), "{err}");
    }
}

/// `compare --tier native` simulates the run description on the native
/// tier and matches the stored capture, as the interpreter does.
#[test]
fn the_compare_command_takes_the_tier() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let compare = |tier: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_spvsass"))
            .args([
                "compare",
                "tests/runs/ref_reduce.json",
                "--against",
                "tests/reference/ref_reduce",
                "--tier",
                tier,
            ])
            .current_dir(root)
            // Translated here, not taken from the user's cache.
            .env("SPVSASS_TRANSLATION_CACHE", "off")
            .output()
            .expect("spvsass runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (interp_code, interp) = compare("interp");
    let (native_code, native) = compare("native");
    assert_eq!(interp_code, Some(0), "{interp}");
    assert_eq!(native_code, Some(0), "{native}");
    assert_eq!(native, interp);
    let (bad_code, _) = compare("jit");
    assert_eq!(bad_code, Some(2), "an unknown tier is a usage error");
}

/// `SPVSASS_PHASES` stamps a run's phases on standard error, each once,
/// the calling thread's in the order they happen, with their times in the
/// same order; without it there are none, and the output is the same.
#[test]
fn the_cli_stamps_a_runs_phases() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let on = std::ffi::OsStr::new("1");
    let (stamped, err) = run_alu_cli(dir.path(), "native", &[("SPVSASS_PHASES", on)]);
    let (plain, plain_err) = run_alu_cli(dir.path(), "native", &[]);
    assert_eq!(stamped, plain);
    assert!(!plain_err.contains("phase "), "{plain_err}");
    let stamps: Vec<(&str, f64)> = err
        .lines()
        .filter_map(|l| {
            let mut words = l.strip_prefix("phase ")?.split(' ');
            let name = words.next()?;
            Some((name, words.next()?.parse().ok()?))
        })
        .collect();
    let at = |name: &str| {
        let found: Vec<f64> = stamps.iter().filter(|s| s.0 == name).map(|s| s.1).collect();
        assert_eq!(found.len(), 1, "{name} in {err}");
        found[0]
    };
    // The calling thread's stamps (those of the workers' start and results
    // are left out when the dispatch runs on one thread).
    let order = [
        "parsed",
        "compiled",
        "inputs",
        "dispatch_start",
        "decoded",
        "bound",
        "dispatch_ran",
        "dispatched",
        "ran",
        "committed",
    ];
    let times: Vec<f64> = order.iter().map(|name| at(name)).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "{err}");
    assert!(at("translation_start") <= at("translation_done"), "{err}");
    assert!(at("translation_done") <= at("dispatch_ran"), "{err}");
}
