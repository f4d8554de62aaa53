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
    c_add_push_sm86: "c_add_push.comp", Arch::Sm86;
    c_struct_index_sm86: "c_struct_index.comp", Arch::Sm86;
    c_reduce128_sm86: "c_reduce128.comp", Arch::Sm86;
    c_reduce256_sm86: "c_reduce256.comp", Arch::Sm86;
    c_loop_sm86: "c_loop.comp", Arch::Sm86;
    c_uniform_sm86: "c_uniform.comp", Arch::Sm86;
    c_builtins_sm86: "c_builtins.comp", Arch::Sm86;
    c_local_array_sm86: "c_local_array.comp", Arch::Sm86;
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
