//! The interpreter as the backend's oracle on the bundled test shaders
//! (tests/shaders/*.comp.spv, and mesh shaders with their task shaders):
//! each is compiled for sm75 and sm86, simulated (dispatched or drawn) and
//! interpreted with the same inputs, and the storage buffers (and a draw's
//! launches, indices and outputs) must agree. One test per shader; inputs come from the shader's
//! resources (`oracle::inputs_for`) filled by a per-test pattern.

use spvsass_interp::Options;
use spvsass_progfuzz::oracle::{Case, Tolerance, check, inputs_for};
use std::collections::BTreeMap;

/// How a test fills its buffers.
#[derive(Clone, Copy)]
enum Fill {
    /// Pseudo-random 32-bit words.
    Noise,
    /// Words 0..=15 (indices, counts).
    Small,
    /// f32 values in [-4, 4) on a 1/64 grid.
    Floats,
    /// Words 1..=16 (divisors).
    NonZero,
    /// Words 0..=7 (shift amounts of 8-bit integers).
    Tiny,
}

fn word(fill: Fill, binding: u32, i: usize) -> u32 {
    let mut x = (u64::from(binding) << 32 | i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^= x >> 29;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 32;
    match fill {
        Fill::Noise => x as u32,
        Fill::Small => (x % 16) as u32,
        Fill::Floats => ((x % 512) as f32 / 64.0 - 4.0).to_bits(),
        Fill::NonZero => (x % 16) as u32 + 1,
        Fill::Tiny => (x % 8) as u32,
    }
}

/// `ulps` and `rel`: the float tolerance of every buffer (both 0: exact).
fn run(name: &str, fill: Fill, groups: [u32; 3], ulps: u32, rel: f32) {
    let path = format!("{}/../tests/shaders/{name}.spv", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).expect("test shader exists");
    let words = spvsass::frontend::words_from_bytes(&bytes).expect("SPIR-V");
    let shader = spvsass::frontend::translate(&words, &Default::default()).expect("translates");
    let total =
        u64::from(shader.invocations()) * groups.iter().map(|&g| u64::from(g)).product::<u64>();
    let inputs = inputs_for(&shader, 128 * total + 1024, &|b, i| word(fill, b, i));
    let tolerance = Tolerance { ulps, rel };
    let all: BTreeMap<u32, Tolerance> = inputs.buffers.keys().map(|&b| (b, tolerance)).collect();
    let case = Case {
        words,
        mesh_words: None,
        groups,
        inputs,
        float_tolerance: if ulps == 0 && rel == 0.0 {
            BTreeMap::new()
        } else {
            all
        },
    };
    if let Err(f) = check(&case, 10_000_000, &Options::default()) {
        panic!("{name}: {}\n{}", f.signature, f.detail);
    }
}

macro_rules! oracle {
    ($($test:ident: $name:literal, $fill:ident, $groups:expr, $ulps:expr, $rel:expr;)*) => {
        $(
            #[test]
            fn $test() {
                run($name, Fill::$fill, $groups, $ulps, $rel);
            }
        )*
    };
}

oracle! {
    atomics64: "atomics64.comp", Small, [1, 1, 1], 0, 0.0;
    bit_operations: "bit_operations.comp", Noise, [1, 1, 1], 0, 0.0;
    blelloch_prefix_sum: "blelloch_prefix_sum.comp", Small, [1, 1, 1], 0, 0.0;
    buffer_atomics: "buffer_atomics.comp", Small, [1, 1, 1], 0, 0.0;
    c_add_push: "c_add_push.comp", Noise, [2, 1, 1], 0, 0.0;
    c_atomics: "c_atomics.comp", Small, [1, 1, 1], 0, 0.0;
    c_builtins: "c_builtins.comp", Noise, [2, 2, 1], 0, 0.0;
    c_composite_ops: "c_composite_ops.comp", Floats, [1, 1, 1], 0, 0.0;
    c_divergent_branch: "c_divergent_branch.comp", Noise, [1, 1, 1], 0, 0.0;
    c_divide: "c_divide.comp", NonZero, [1, 1, 1], 0, 0.0;
    c_local_array: "c_local_array.comp", Noise, [1, 1, 1], 0, 0.0;
    c_loop: "c_loop.comp", Small, [1, 1, 1], 0, 0.0;
    c_loop_break: "c_loop_break.comp", Small, [1, 1, 1], 0, 0.0;
    c_matrix: "c_matrix.comp", Floats, [1, 1, 1], 2, 1e-4;
    c_matrix_layouts: "c_matrix_layouts.comp", Floats, [1, 1, 1], 2, 0.0;
    c_pack: "c_pack.comp", Floats, [1, 1, 1], 1, 0.0;
    c_pred_pressure: "c_pred_pressure.comp", Noise, [1, 1, 1], 0, 0.0;
    c_predicated: "c_predicated.comp", Noise, [1, 1, 1], 0, 0.0;
    c_pressure: "c_pressure.comp", Noise, [1, 1, 1], 0, 0.0;
    c_reduce128: "c_reduce128.comp", Small, [1, 1, 1], 0, 0.0;
    c_reduce256: "c_reduce256.comp", Small, [1, 1, 1], 0, 0.0;
    c_struct_index: "c_struct_index.comp", Small, [1, 1, 1], 0, 0.0;
    c_subgroup_divergent: "c_subgroup_divergent.comp", Small, [1, 1, 1], 0, 0.0;
    c_subgroup_quads: "c_subgroup_quads.comp", Small, [1, 1, 1], 0, 0.0;
    c_switch: "c_switch.comp", Small, [1, 1, 1], 0, 0.0;
    c_uniform: "c_uniform.comp", Small, [1, 1, 1], 0, 0.0;
    c_uniform_branch: "c_uniform_branch.comp", Small, [1, 1, 1], 0, 0.0;
    c_vector_dynamic: "c_vector_dynamic.comp", Small, [1, 1, 1], 0, 0.0;
    copy_logical: "copy_logical.comp", Noise, [1, 1, 1], 0, 0.0;
    dynamic_indexing: "dynamic_indexing.comp", Small, [1, 1, 1], 0, 0.0;
    float_builtins: "float_builtins.comp", Floats, [1, 1, 1], 4, 1e-4;
    function_calls: "function_calls.comp", Floats, [1, 1, 1], 1, 0.0;
    geometric: "geometric.comp", Floats, [1, 1, 1], 4, 1e-5;
    half_and_double: "half_and_double.comp", Floats, [1, 1, 1], 1, 0.0;
    loops_break_continue: "loops_break_continue.comp", Small, [1, 1, 1], 0, 0.0;
    matrix_operations: "matrix_operations.comp", Floats, [1, 1, 1], 2, 1e-4;
    memory_barriers: "memory_barriers.comp", Small, [1, 1, 1], 0, 0.0;
    narrow_ops: "narrow_ops.comp", Tiny, [1, 1, 1], 0, 0.0;
    opt_switch_merges: "opt_switch_merges.comp", Small, [1, 1, 1], 0, 0.0;
    pack_unpack: "pack_unpack.comp", Floats, [1, 1, 1], 0, 0.0;
    phi_heavy_loop: "phi_heavy_loop.comp", Small, [1, 1, 1], 0, 0.0;
    private_globals: "private_globals.comp", Small, [1, 1, 1], 0, 0.0;
    ref_add: "ref_add.comp", Noise, [1, 1, 1], 0, 0.0;
    ref_atomic: "ref_atomic.comp", Small, [1, 1, 1], 0, 0.0;
    ref_reduce: "ref_reduce.comp", Small, [1, 1, 1], 0, 0.0;
    runtime_array_length: "runtime_array_length.comp", Small, [1, 1, 1], 0, 0.0;
    shared_histogram: "shared_histogram.comp", Small, [1, 1, 1], 0, 0.0;
    shared_reduction: "shared_reduction.comp", Small, [1, 1, 1], 0, 0.0;
    small_and_wide_ints: "small_and_wide_ints.comp", Noise, [1, 1, 1], 0, 0.0;
    spec_constant_ops: "spec_constant_ops.comp", Small, [1, 1, 1], 0, 0.0;
    spec_op_quantize: "spec_op_quantize.comp", Floats, [1, 1, 1], 0, 0.0;
    subgroup_quad_clustered: "subgroup_quad_clustered.comp", Floats, [1, 1, 1], 0, 0.0;
    subgroup_scans: "subgroup_scans.comp", Small, [1, 1, 1], 0, 0.0;
    switch_fallthrough: "switch_fallthrough.comp", Small, [1, 1, 1], 0, 0.0;
    uniform_matrix_layouts: "uniform_matrix_layouts.comp", Floats, [1, 1, 1], 2, 1e-4;
    vector_swizzles: "vector_swizzles.comp", Noise, [1, 1, 1], 0, 0.0;
    vp_select: "vp_select.comp", Small, [2, 1, 1], 0, 0.0;
    vp_private: "vp_private.comp", Small, [1, 1, 1], 0, 0.0;
    wide_div_ops: "wide_div_ops.comp", Noise, [1, 1, 1], 0, 0.0;
    wide_srem: "wide_srem.comp", Noise, [1, 1, 1], 0, 0.0;
    c_atomic_float: "c_atomic_float.comp", Floats, [1, 1, 1], 4, 1e-5;
    dxc_counter_atomics: "dxc_counter_atomics.comp", Small, [1, 1, 1], 0, 0.0;
    float_atomics: "float_atomics.comp", Floats, [1, 1, 1], 4, 1e-5;
    r_double_branch_pair: "r_double_branch_pair.comp", Small, [1, 1, 1], 0, 0.0;
    r_folded_branch_barrier: "r_folded_branch_barrier.comp", Small, [1, 1, 1], 0, 0.0;
    r_wide_conversions: "r_wide_conversions.comp", Small, [1, 1, 1], 0, 0.0;
    r_fmax_signed_zero: "r_fmax_signed_zero.comp", Floats, [1, 1, 1], 0, 0.0;

}

/// subgroup_vote_shuffle reads invocation −1 with subgroupShuffleUp(v, 1)
/// in invocation 0, which SPIR-V leaves undefined: the interpreter says so
/// (naming the instruction) instead of inventing a value.
#[test]
fn subgroup_vote_shuffle_reads_an_inactive_invocation() {
    let path = format!(
        "{}/../tests/shaders/subgroup_vote_shuffle.comp.spv",
        env!("CARGO_MANIFEST_DIR")
    );
    let words = spvsass::frontend::words_from_bytes(&std::fs::read(path).unwrap()).unwrap();
    let shader = spvsass::frontend::translate(&words, &Default::default()).unwrap();
    let inputs = inputs_for(&shader, 256, &|b, i| word(Fill::Small, b, i));
    let err = spvsass_interp::run_compute(&shader, [1, 1, 1], &inputs, &Options::default())
        .expect_err("undefined");
    let text = err.to_string();
    assert!(
        matches!(err, spvsass_interp::InterpError::Undefined { .. }),
        "{text}"
    );
    assert!(
        text.contains("OpGroupNonUniform") && text.contains("inactive invocation"),
        "{text}"
    );
}

/// c_math_edges applies asin and friends to NaN, infinities and values
/// outside their domains, whose results GLSL.std.450 leaves undefined: the
/// interpreter names the first such instruction.
#[test]
fn c_math_edges_is_undefined_outside_the_domains() {
    let path = format!(
        "{}/../tests/shaders/c_math_edges.comp.spv",
        env!("CARGO_MANIFEST_DIR")
    );
    let words = spvsass::frontend::words_from_bytes(&std::fs::read(path).unwrap()).unwrap();
    let shader = spvsass::frontend::translate(&words, &Default::default()).unwrap();
    let inputs = inputs_for(&shader, 2048, &|b, i| word(Fill::Floats, b, i));
    let err = spvsass_interp::run_compute(&shader, [1, 1, 1], &inputs, &Options::default())
        .expect_err("undefined");
    assert!(
        matches!(err, spvsass_interp::InterpError::Undefined { .. }),
        "{err}"
    );
}

/// A shader reaching two buffers through physical addresses in its push
/// constants (source at push offset 0, destination at 8): both sides map
/// buffer k (in binding order, from 1) at k × 4 GiB.
fn run_physical(name: &str) {
    let path = format!("{}/../tests/shaders/{name}.spv", env!("CARGO_MANIFEST_DIR"));
    let words = spvsass::frontend::words_from_bytes(&std::fs::read(path).unwrap()).unwrap();
    let src: Vec<u8> = (0..4096)
        .flat_map(|i| word(Fill::Noise, 0, i).to_le_bytes())
        .collect();
    let mut inputs = spvsass_interp::Inputs::default();
    inputs.buffers.insert(0, src);
    inputs.buffers.insert(1, vec![0; 16384]);
    let stride = spvsass_interp::BUFFER_STRIDE;
    inputs.push_constants = [stride, 2 * stride]
        .iter()
        .flat_map(|a| a.to_le_bytes())
        .collect();
    let case = Case {
        words,
        mesh_words: None,
        groups: [1, 1, 1],
        inputs,
        float_tolerance: BTreeMap::new(),
    };
    if let Err(f) = check(&case, 10_000_000, &Options::default()) {
        panic!("{name}: {}\n{}", f.signature, f.detail);
    }
}

#[test]
fn ptr_access_chain() {
    run_physical("ptr_access_chain.comp");
}

#[test]
fn ptr_stride() {
    run_physical("ptr_stride.comp");
}

/// A bundled mesh shader (with its task shader `NAME.task.spv` when
/// `task`) drawn over `groups` workgroups: the simulator's launches,
/// primitive indices, vertex and primitive outputs and storage buffers
/// must agree with the interpreter's draw.
fn run_draw(name: &str, task: bool, fill: Fill, groups: u32) {
    let read = |stage: &str| {
        let path = format!(
            "{}/../tests/shaders/{name}.{stage}.spv",
            env!("CARGO_MANIFEST_DIR")
        );
        let bytes = std::fs::read(&path).expect("test shader exists");
        spvsass::frontend::words_from_bytes(&bytes).expect("SPIR-V")
    };
    let mesh = read("mesh");
    let first = if task { read("task") } else { mesh.clone() };
    let shader = spvsass::frontend::translate(&first, &Default::default()).expect("translates");
    let mut inputs = inputs_for(&shader, 4096, &|b, i| word(fill, b, i));
    if task {
        let m = spvsass::frontend::translate(&mesh, &Default::default()).expect("translates");
        let more = inputs_for(&m, 4096, &|b, i| word(fill, b, i));
        for (b, v) in more.buffers {
            inputs.buffers.entry(b).or_insert(v);
        }
        for (b, v) in more.uniforms {
            inputs.uniforms.entry(b).or_insert(v);
        }
    }
    let case = Case {
        words: first,
        mesh_words: task.then_some(mesh),
        groups: [groups, 1, 1],
        inputs,
        float_tolerance: BTreeMap::new(),
    };
    if let Err(f) = check(&case, 10_000_000, &Options::default()) {
        panic!("{name}: {}\n{}", f.signature, f.detail);
    }
}

// Not here: d_outputs (matrices and arrays of arrays as outputs, which the
// interpreter's read-back does not take), d_workgroup_block* (aliased
// Workgroup blocks, checked value by value in tests/shared_blocks.rs), s_atomics and s_incdec (they output the
// old values of shared-memory atomics, whose order the API leaves open),
// w_divergent_barrier (a barrier in divergent control flow: undefined, as
// the interpreter says).
macro_rules! draws {
    ($($test:ident: $name:literal, $task:expr, $fill:ident, $groups:expr;)*) => {
        $(
            #[test]
            fn $test() {
                run_draw($name, $task, Fill::$fill, $groups);
            }
        )*
    };
}

draws! {
    draw_b_store: "b_store", true, Small, 2;
    draw_d_grid: "d_grid", true, Small, 2;
    draw_d_groupid: "d_groupid", true, Small, 2;
    draw_d_payload: "d_payload", true, Small, 2;
    draw_d_prims: "d_prims", true, Small, 2;
    draw_d_return: "d_return", true, Small, 2;
    draw_s_compact: "s_compact", true, Small, 2;
    draw_s_payload_atomics: "s_payload_atomics", true, Small, 2;
    draw_s_reduce: "s_reduce", false, Small, 2;
    draw_s_subgroup_ids: "s_subgroup_ids", true, Small, 2;
    draw_w_cluster_skip: "w_cluster_skip", false, Small, 2;
    draw_w_emit96: "w_emit96", true, Small, 1;
    draw_w_exchange: "w_exchange", true, Small, 2;
    draw_w_loop: "w_loop", true, Small, 2;
    draw_w_private_init: "w_private_init", false, Small, 2;
    draw_w_return_in_branch: "w_return_in_branch", false, Small, 2;
    draw_w_return_late: "w_return_late", false, Small, 2;
    draw_w_return_loop: "w_return_loop", false, Small, 2;
    draw_w_scan128: "w_scan128", false, Small, 2;
    draw_w_shared_exit_loop: "w_shared_exit_loop", false, Small, 2;
    draw_w_subgroup_add48: "w_subgroup_add48", false, Small, 2;
    draw_w_subgroup_add64: "w_subgroup_add64", false, Small, 2;
    draw_w_vertices128: "w_vertices128", false, Small, 2;
    draw_d_grid3d: "d_grid3d", false, Small, 2;
    draw_dense_grid_wide: "dense_grid_wide", false, Small, 2;
}
