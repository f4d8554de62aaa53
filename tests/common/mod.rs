//! Helpers shared by the integration tests (each test binary uses some).
#![allow(dead_code)]

use std::path::PathBuf;

/// The bundled test shaders (tests/shaders/NAME.spv).
pub const SHADERS: &[&str] = &[
    "point.mesh",
    "triangle.mesh",
    "c_add_push.comp",
    "c_struct_index.comp",
    "c_reduce128.comp",
    "c_reduce256.comp",
    "c_loop.comp",
    "c_uniform.comp",
    "c_builtins.comp",
    "c_local_array.comp",
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

pub fn compile(name: &str, arch: spvsass::backend::target::Arch) -> spvsass::Compiled {
    let options = spvsass::Options {
        arch: Some(arch),
        ..Default::default()
    };
    spvsass::compile(&shader_words(name), &options)
        .unwrap_or_else(|e| panic!("{name} on {arch}: {e}"))
}
