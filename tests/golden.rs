//! Golden listings: one test per shader and target. Regenerate with
//! `UPDATE_GOLDENFILES=1 cargo test --test integration golden::`, then read the diff.

use crate::common;

use spvsass::backend::target::Arch;
use std::io::Write;
use std::path::PathBuf;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn check(name: &str, arch: Arch) {
    let compiled = common::compile(name, arch);
    let text = spvsass::listing(&compiled.binary, false).expect("listing");
    let mut mint = goldenfile::Mint::new(golden_dir());
    let mut file = mint
        .new_goldenfile(format!("{name}.{arch}.sass"))
        .expect("golden file");
    file.write_all(text.as_bytes()).expect("write listing");
}

macro_rules! golden {
    ($($test:ident: $name:literal, $arch:expr;)*) => {
        $(#[test] fn $test() { check($name, $arch); })*
        /// Every golden file belongs to a test above.
        const GOLDENS: &[(&str, Arch)] = &[$(($name, $arch)),*];
    };
}

golden! {
    point_sm75: "point.mesh", Arch::Sm75;
    point_sm86: "point.mesh", Arch::Sm86;
    triangle_sm75: "triangle.mesh", Arch::Sm75;
    triangle_sm86: "triangle.mesh", Arch::Sm86;
    d_payload_task_sm75: "d_payload.task", Arch::Sm75;
    d_payload_task_sm86: "d_payload.task", Arch::Sm86;
    d_payload_mesh_sm86: "d_payload.mesh", Arch::Sm86;
    d_prims_task_sm86: "d_prims.task", Arch::Sm86;
    d_prims_mesh_sm86: "d_prims.mesh", Arch::Sm86;
    d_viewport_mesh_sm75: "d_viewport.mesh", Arch::Sm75;
    d_cull_narrow_mesh_sm86: "d_cull_narrow.mesh", Arch::Sm86;
    d_return_task_sm86: "d_return.task", Arch::Sm86;
    d_return_mesh_sm86: "d_return.mesh", Arch::Sm86;
    d_groupid_task_sm86: "d_groupid.task", Arch::Sm86;
    d_groupid_mesh_sm86: "d_groupid.mesh", Arch::Sm86;
    d_groupid_mesh_sm75: "d_groupid.mesh", Arch::Sm75;
    c_add_push_sm86: "c_add_push.comp", Arch::Sm86;
    half_and_double_sm86: "half_and_double.comp", Arch::Sm86;
    c_struct_index_sm86: "c_struct_index.comp", Arch::Sm86;
    c_reduce128_sm86: "c_reduce128.comp", Arch::Sm86;
    c_reduce256_sm86: "c_reduce256.comp", Arch::Sm86;
    c_loop_sm86: "c_loop.comp", Arch::Sm86;
    c_uniform_sm86: "c_uniform.comp", Arch::Sm86;
    c_builtins_sm86: "c_builtins.comp", Arch::Sm86;
    c_local_array_sm86: "c_local_array.comp", Arch::Sm86;
    c_divide_sm86: "c_divide.comp", Arch::Sm86;
    c_loop_break_sm86: "c_loop_break.comp", Arch::Sm86;
    c_atomics_sm86: "c_atomics.comp", Arch::Sm86;
    c_atomic_float_sm86: "c_atomic_float.comp", Arch::Sm86;
    subgroup_vote_shuffle_sm86: "subgroup_vote_shuffle.comp", Arch::Sm86;
    c_subgroup_quads_sm86: "c_subgroup_quads.comp", Arch::Sm86;
    c_subgroup_divergent_sm86: "c_subgroup_divergent.comp", Arch::Sm86;
    c_subgroup_divergent_sm75: "c_subgroup_divergent.comp", Arch::Sm75;
    c_pred_pressure_sm86: "c_pred_pressure.comp", Arch::Sm86;
    loops_break_continue_sm86: "loops_break_continue.comp", Arch::Sm86;
    phi_heavy_loop_sm86: "phi_heavy_loop.comp", Arch::Sm86;
    buffer_device_address_sm86: "buffer_device_address.comp", Arch::Sm86;
    ptr_access_chain_sm86: "ptr_access_chain.comp", Arch::Sm86;
    small_and_wide_ints_sm86: "small_and_wide_ints.comp", Arch::Sm86;
    w_subgroup_add48_mesh_sm86: "w_subgroup_add48.mesh", Arch::Sm86;
    geometric_sm86: "geometric.comp", Arch::Sm86;
    bit_operations_sm86: "bit_operations.comp", Arch::Sm86;
    c_switch_sm86: "c_switch.comp", Arch::Sm86;
    c_uniform_branch_sm86: "c_uniform_branch.comp", Arch::Sm86;
    c_divergent_branch_sm86: "c_divergent_branch.comp", Arch::Sm86;
    s_compact_task_sm86: "s_compact.task", Arch::Sm86;
    s_compact_match_task_sm86: "s_compact_match.task", Arch::Sm86;
    w_vertices128_mesh_sm86: "w_vertices128.mesh", Arch::Sm86;
    w_exchange_task_sm86: "w_exchange.task", Arch::Sm86;
    w_exchange_mesh_sm86: "w_exchange.mesh", Arch::Sm86;
    w_emit96_task_sm86: "w_emit96.task", Arch::Sm86;
    w_loop_task_sm86: "w_loop.task", Arch::Sm86;
    w_partial48_task_sm86: "w_partial48.task", Arch::Sm86;
    w_uniform_if_task_sm86: "w_uniform_if.task", Arch::Sm86;
    ref_views_mesh_sm86: "ref_views.mesh", Arch::Sm86;
    w_return_in_branch_mesh_sm86: "w_return_in_branch.mesh", Arch::Sm86;
    w_return_late_mesh_sm86: "w_return_late.mesh", Arch::Sm86;
    w_return_task_sm86: "w_return.task", Arch::Sm86;
}

/// The golden file of the method stream of `name` under `view_mask`.
fn methods_golden(name: &str, view_mask: u32) -> String {
    match view_mask {
        0 => format!("{name}.methods"),
        m => format!("{name}.views{m:#b}.methods"),
    }
}

/// The decoded method stream of a one-workgroup draw of mesh shader
/// `name` (behind its task shader, when it has one), on sm86, under
/// `view_mask` (0: no multiview).
fn check_methods(name: &str, view_mask: u32) {
    let mesh = common::compile(name, Arch::Sm86);
    let task = common::task_partner(name).map(|t| common::compile(&t, Arch::Sm86));
    let words = spvsass::draw_methods(task.as_ref().map(|t| &t.binary), &mesh.binary, 1, view_mask);
    let text = spvsass::backend::methods::print(&words, Arch::Sm86).expect("prints");
    let mut mint = goldenfile::Mint::new(golden_dir());
    let mut file = mint
        .new_goldenfile(methods_golden(name, view_mask))
        .expect("golden file");
    file.write_all(text.as_bytes()).expect("write methods");
}

macro_rules! golden_methods {
    ($($test:ident: $name:literal, $mask:literal;)*) => {
        $(#[test] fn $test() { check_methods($name, $mask); })*
        const METHOD_GOLDENS: &[(&str, u32)] = &[$(($name, $mask)),*];
    };
}

golden_methods! {
    point_methods: "point.mesh", 0;
    triangle_methods: "triangle.mesh", 0;
    triangle_views_methods: "triangle.mesh", 0b101;
    d_payload_methods: "d_payload.mesh", 0;
    d_prims_methods: "d_prims.mesh", 0;
    d_viewport_methods: "d_viewport.mesh", 0;
    d_cull_narrow_methods: "d_cull_narrow.mesh", 0;
    w_vertices128_methods: "w_vertices128.mesh", 0;
    w_exchange_methods: "w_exchange.mesh", 0;
}

#[test]
fn goldens_shaders_and_tests_agree() {
    let mut expected: Vec<String> = GOLDENS
        .iter()
        .map(|(n, a)| format!("{n}.{a}.sass"))
        .chain(METHOD_GOLDENS.iter().map(|&(n, m)| methods_golden(n, m)))
        .collect();
    expected.sort();
    let mut found: Vec<String> = std::fs::read_dir(golden_dir())
        .expect("tests/golden exists")
        .map(|e| {
            e.expect("dir entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        // Image goldens are tests/images.rs's.
        .filter(|n| n.ends_with(".sass") || n.ends_with(".methods"))
        .collect();
    found.sort();
    assert_eq!(
        found, expected,
        "a golden file without a test, or a test without a golden file"
    );
    for name in common::SHADERS {
        assert!(
            GOLDENS.iter().any(|(n, _)| n == name),
            "{name} has no golden listing"
        );
        assert!(common::shader_path(name).exists());
    }
}
