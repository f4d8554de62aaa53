//! The command line's bounds and output files: values past a limit are
//! refused before anything is allocated (exit 2, or 1 for what only the
//! run can tell), and a failing command leaves no half-written output and
//! never clobbers an existing one (src/output_files.rs).

use std::path::Path;
use std::process::{Command, Output};

fn spvsass(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_spvsass"))
        .args(args)
        .output()
        .expect("spvsass runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn shader(name: &str) -> String {
    format!("{}/tests/shaders/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_huge_zeroed_buffer_is_a_bad_argument() {
    let o = spvsass(&[
        "run",
        &shader("ref_add.comp.spv"),
        "--buffer",
        "0=99999999999999",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("at most 134217728"), "{}", stderr(&o));
}

#[test]
fn image_outputs_of_a_compute_shader_are_bad_arguments() {
    let dir = tempfile::tempdir().expect("dir");
    let png = dir.path().join("x.png");
    let o = spvsass(&[
        "run",
        &shader("ref_add.comp.spv"),
        "--image",
        png.to_str().expect("utf8"),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--image and --raw apply to mesh shaders"));
    assert!(listing(dir.path()).is_empty());
}

#[test]
fn two_outputs_naming_one_file_are_bad_arguments() {
    let o = spvsass(&[
        "run",
        &shader("triangle.mesh.spv"),
        "--image",
        "same.out",
        "--raw",
        "./same.out",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--image and --raw both write ./same.out"));
}

#[test]
fn emit_methods_refuses_a_count_that_wraps() {
    let o = spvsass(&[
        "compile",
        &shader("triangle.mesh.spv"),
        "--emit",
        "methods",
        "--groups",
        "65536,65536,1",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("more than a draw may have (4194304)"));
}

#[test]
fn a_compute_grid_past_the_limit_is_refused() {
    let o = spvsass(&[
        "run",
        &shader("ref_add.comp.spv"),
        "--groups",
        "4294967295,4294967295,4294967295",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("past the limit of 2147483647x65535x65535"));
}

#[test]
fn a_corrupt_binary_header_is_refused_by_run_and_disasm_alike() {
    let dir = tempfile::tempdir().expect("dir");
    let bin = dir.path().join("add.bin");
    let bin = bin.to_str().expect("utf8");
    let o = spvsass(&["compile", &shader("ref_add.comp.spv"), "-o", bin]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Word 10: shared bytes per workgroup.
    let mut bytes = std::fs::read(bin).expect("read");
    bytes[40..44].copy_from_slice(&u32::MAX.to_le_bytes());
    std::fs::write(bin, bytes).expect("write");
    for command in ["run", "disasm"] {
        let o = spvsass(&[command, bin]);
        assert_eq!(o.status.code(), Some(1), "{command}: {}", stderr(&o));
        assert!(
            stderr(&o)
                .contains("shared bytes 4294967295 in spvsass binary exceeds the limit of 49152"),
            "{command}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn a_failed_write_clobbers_no_earlier_output() {
    // Two --out files: the second cannot be written (no such folder), so
    // the first, existing one keeps its bytes and no temporary file stays.
    let dir = tempfile::tempdir().expect("dir");
    let kept = dir.path().join("kept.bin");
    std::fs::write(&kept, b"before").expect("write");
    let kept_arg = format!("2={}", kept.display());
    let missing = format!("3={}", dir.path().join("no/such/dir/x.bin").display());
    let o = spvsass(&[
        "run",
        &shader("ref_add.comp.spv"),
        "--groups",
        "2",
        "--buffer",
        "0=512",
        "--buffer",
        "2=512",
        "--buffer",
        "3=512",
        "--uniform",
        &format!("1={}", shader("../runs/data/ref_reduce.values.bin")),
        "--out",
        &kept_arg,
        "--out",
        &missing,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot write"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&kept).expect("read"), b"before");
    assert_eq!(listing(dir.path()), ["kept.bin"]);
}

#[test]
fn a_failing_run_leaves_its_outputs_untouched() {
    // The step limit stops the dispatch: --out is not written.
    let dir = tempfile::tempdir().expect("dir");
    let kept = dir.path().join("kept.bin");
    std::fs::write(&kept, b"before").expect("write");
    let o = spvsass(&[
        "run",
        &shader("ref_add.comp.spv"),
        "--max-steps",
        "1",
        "--buffer",
        "2=512",
        "--out",
        &format!("2={}", kept.display()),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(std::fs::read(&kept).expect("read"), b"before");
    assert_eq!(listing(dir.path()), ["kept.bin"]);
}

#[test]
fn a_successful_command_replaces_its_output() {
    let dir = tempfile::tempdir().expect("dir");
    let bin = dir.path().join("add.bin");
    std::fs::write(&bin, b"old").expect("write");
    let o = spvsass(&[
        "compile",
        &shader("ref_add.comp.spv"),
        "-o",
        bin.to_str().expect("utf8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::read(&bin).expect("read").starts_with(b"SPVSASS\0"));
    assert_eq!(listing(dir.path()), ["add.bin"]);
}
