//! Golden listings: one test per shader and target. Regenerate with
//! `UPDATE_GOLDENFILES=1 cargo test --test golden`, then read the diff.

mod common;

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
}

#[test]
fn goldens_shaders_and_tests_agree() {
    let mut expected: Vec<String> = GOLDENS
        .iter()
        .map(|(n, a)| format!("{n}.{a}.sass"))
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
        .filter(|n| n.ends_with(".sass"))
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
