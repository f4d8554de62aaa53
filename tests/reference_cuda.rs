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
    (
        runs: [$($name:ident),* $(,)?],
        cuda_all: [$($all:ident),* $(,)?],
        elsewhere: [$($race:ident),* $(,)?] $(,)?
    ) => {
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
        /// fails here rather than going unchecked); the order-dependent
        /// programs have theirs in tests/reference_cuda_races.rs, the image
        /// runs with absent components in tests/reference_cuda_images.rs.
        #[test]
        fn every_capture_is_tested() {
            let listed = [$(stringify!($name),)* $(stringify!($all),)* $(stringify!($race),)*];
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
    half_and_double,
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
    tex_cube_corner,
    tex_grad3d_rho,
    tex_grad_pair,
    tex_grad_quad,
    tex_grad_sweep,
    tex_snorm8,
    tex_srgb,
    tex_texel_offset,
    vp_private,
    vp_select,
    vp_sets,
    ],
    cuda_all: [
    atomics64,
    blelloch_prefix_sum,
    c_add_push,
    c_atomic_float,
    c_builtins,
    c_composite_ops,
    c_divide,
    c_local_array,
    c_loop,
    c_loop_break,
    c_math_edges,
    c_matrix,
    c_matrix_layouts,
    c_pack,
    c_pred_pressure,
    c_predicated,
    c_pressure,
    c_reduce128,
    c_reduce256,
    c_struct_index,
    c_subgroup_divergent,
    c_uniform,
    copy_logical,
    d_switch_barrier,
    dxc_counter_atomics,
    dynamic_indexing,
    float_atomics,
    float_builtins,
    function_calls,
    img_atomic,
    img_linear,
    img_sample_lod,
    img_storage2d,
    large_copy,
    loops_break_continue,
    lt_buffer_block,
    lt_debug_info,
    lt_decoration_group,
    lt_matrix_column,
    lt_opencl_debug_info,
    lt_push256,
    lt_shared_init,
    lt_small_types,
    lt_spec_array_lengths,
    lt_struct_array_index,
    lt_subgroup_wide,
    lt_workgroup_explicit_layout,
    matrix_operations,
    memory_barriers,
    narrow_ops,
    opt_switch_merges,
    pack_unpack,
    phi_heavy_loop,
    r_dead_loop,
    r_dead_nested_if,
    r_double_branch_pair,
    r_double_sign_step,
    r_fmax_signed_zero,
    r_folded_branch_barrier,
    r_return_in_loop,
    r_struct_bool_phi,
    r_wide_conversions,
    res_big_uniform,
    runtime_array_length,
    shared_histogram,
    shared_reduction,
    spec_constant_ops,
    spec_op_quantize,
    spec_sized_arrays,
    spec_workgroup_xy,
    subgroup_quad_clustered,
    subgroup_scans,
    subgroup_vote_shuffle,
    switch_fallthrough,
    two_entry_points_clear,
    two_entry_points_scale,
    uniform_matrix_layouts,
    vector_swizzles,
    wide_div_ops,
    wide_srem,
    ],
    elsewhere: [
        buffer_atomics,
        c_atomics,
        small_and_wide_ints,
        image_ops,
        img_texel_buffer,
        tex_grad,
        tex_grad3d,
    ],
);
