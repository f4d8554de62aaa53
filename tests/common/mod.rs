//! Helpers shared by the integration tests (each test binary uses some).
#![allow(dead_code)]

use std::path::PathBuf;

pub mod res_sets;
pub mod vp_sets;

/// The bundled test shaders (tests/shaders/NAME.spv).
pub const SHADERS: &[&str] = &[
    "point.mesh",
    "triangle.mesh",
    "d_payload.task",
    "d_payload.mesh",
    "d_prims.task",
    "d_prims.mesh",
    "d_viewport.mesh",
    "d_cull_narrow.mesh",
    "d_return.task",
    "d_return.mesh",
    "d_groupid.task",
    "d_groupid.mesh",
    "c_add_push.comp",
    "c_struct_index.comp",
    "c_reduce128.comp",
    "c_reduce256.comp",
    "c_loop.comp",
    "c_uniform.comp",
    "c_builtins.comp",
    "c_local_array.comp",
    "c_divide.comp",
    "c_loop_break.comp",
    "c_atomics.comp",
];

pub fn shader_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/shaders")
        .join(format!("{name}.spv"))
}

pub fn shader_words(name: &str) -> Vec<u32> {
    let bytes = std::fs::read(shader_path(name)).expect("test shader exists");
    spvsass::frontend::words_from_bytes(&bytes).expect("test shader is SPIR-V")
}

/// The task shader of the same base name in front of mesh shader `name`,
/// if there is one (the mesh shader is then compiled with
/// `task_present`, as the CLI does for a task+mesh pair).
pub fn task_partner(name: &str) -> Option<String> {
    let base = name.strip_suffix(".mesh")?;
    let task = format!("{base}.task");
    shader_path(&task).exists().then_some(task)
}

pub fn compile(name: &str, arch: spvsass::backend::target::Arch) -> spvsass::Compiled {
    let options = spvsass::Options {
        arch: Some(arch),
        task_present: task_partner(name).is_some(),
        ..Default::default()
    };
    spvsass::compile(&shader_words(name), &options)
        .unwrap_or_else(|e| panic!("{name} on {arch}: {e}"))
}
