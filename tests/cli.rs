//! The `spvsass` command as a user runs it: listings, binaries, and clear
//! errors with a non-zero exit for bad input.

use crate::common;

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

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("spvsass-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

#[test]
fn compile_prints_the_listing_with_a_header() {
    let o = spvsass(&[
        "compile",
        common::shader_path("point.mesh").to_str().unwrap(),
        "--arch",
        "sm75",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.starts_with("// spvsass sm75 mesh shader, local_size (1, 1, 1)"),
        "{out}"
    );
    assert!(
        out.contains("registers: ") && out.contains("SPH v4 type VERTEX, topology POINTLIST"),
        "{out}"
    );
    assert!(out.contains("/*0000*/ "), "{out}");
}

#[test]
fn disasm_of_the_binary_equals_the_compile_listing() {
    let spv = common::shader_path("triangle.mesh");
    let bin = tmp("triangle.bin");
    let o = spvsass(&[
        "compile",
        spv.to_str().unwrap(),
        "-o",
        bin.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let listing = spvsass(&["compile", spv.to_str().unwrap()]).stdout;
    let disasm = spvsass(&["disasm", bin.to_str().unwrap()]);
    assert!(disasm.status.success(), "{}", stderr(&disasm));
    assert_eq!(
        String::from_utf8(disasm.stdout).unwrap(),
        String::from_utf8(listing).unwrap()
    );
}

#[test]
fn missing_file_is_an_error() {
    let o = spvsass(&["compile", "/nonexistent/shader.spv"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("cannot read /nonexistent/shader.spv"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn non_spirv_input_is_an_error() {
    let f = tmp("garbage.spv");
    std::fs::write(&f, b"this is not a shader at all").unwrap();
    let o = spvsass(&["compile", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not a SPIR-V module"), "{}", stderr(&o));
}

#[test]
fn unsupported_instruction_names_opcode_and_result_id() {
    let spv =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/double_mod.comp.spv");
    let o = spvsass(&["compile", spv.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    // `%34 = OpFMod %double %29 %33` in spirv-dis.
    let e = stderr(&o);
    assert!(e.contains("OpFMod") && e.contains("%34"), "{e}");
    assert!(!e.contains("panicked"), "{e}");
}

#[test]
fn bad_arguments_are_rejected() {
    let spv = common::shader_path("point.mesh");
    for args in [
        vec!["compile", spv.to_str().unwrap(), "--arch", "sm50"],
        vec!["run", spv.to_str().unwrap(), "--groups", "0"],
        vec!["run", spv.to_str().unwrap(), "--groups", "1,2,3,4"],
        vec!["frobnicate"],
    ] {
        let o = spvsass(&args);
        assert!(!o.status.success(), "{args:?} was accepted");
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    }
}

#[test]
fn corrupt_binary_is_an_error() {
    let f = tmp("corrupt.bin");
    let version = spvsass::backend::binary::VERSION.to_le_bytes();
    std::fs::write(&f, [&b"SPVSASS\0"[..], &version].concat()).unwrap();
    let o = spvsass(&["disasm", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("truncated"), "{}", stderr(&o));
}

#[test]
fn run_prints_the_mesh_outputs_as_json() {
    let o = spvsass(&[
        "run",
        common::shader_path("point.mesh").to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    let wg = &v["workgroups"][0];
    assert_eq!(wg["primitive_count"], 1);
    assert_eq!(wg["vertices"][0]["point_size"], 200.0);
    assert_eq!(
        wg["vertices"][0]["position"],
        serde_json::json!([0.0, 0.0, 0.0, 1.0])
    );
}

/// `--stats` on a draw prints the simulated instruction counts (those of
/// the JSON) and their rates on stderr.
#[test]
fn run_stats_print_the_draw_rates_on_stderr() {
    let shader = common::shader_path("triangle.mesh");
    let o = spvsass(&["run", shader.to_str().unwrap(), "--json", "--stats"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    let counters = &v["counters"];
    let err = stderr(&o);
    let counts = format!(
        "simulated {} warp-instructions, {} thread-instructions in ",
        counters["warp_instructions"], counters["thread_instructions"]
    );
    // Compiler warnings may come first; the statistics are one line.
    let line = err
        .lines()
        .find(|l| l.starts_with("simulated "))
        .unwrap_or_else(|| panic!("no statistics line: {err}"));
    assert!(line.starts_with(&counts), "{line}");
    assert!(line.contains("warp-instructions/s, "), "{line}");
    assert!(line.ends_with("thread-instructions/s"), "{line}");
}

#[test]
fn run_prints_the_mesh_outputs_readably() {
    let o = spvsass(&[
        "run",
        common::shader_path("triangle.mesh").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("primitive 0: vertices (0, 1, 2)"), "{out}");
    assert!(
        out.contains("vertex 1: position (0, 0.5, 0, 1) location0 (0, 1, 0, 1)"),
        "{out}"
    );
}

#[test]
fn spec_overrides_reach_the_shader() {
    // SpecId 0 is the shader's local_size_x: 200 invocations break the
    // mesh limit, which proves the override was applied.
    let shader = "tests/shaders/spec_workgroup_size.mesh.spv";
    let o = spvsass(&["compile", shader, "--spec", "0=200"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("LocalSize 200 1 1"), "{}", stderr(&o));
    let o = spvsass(&["compile", shader, "--spec", "9=2"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("specialization constant 9"),
        "{}",
        stderr(&o)
    );
    let o = spvsass(&["compile", shader, "--spec", "0=x"]);
    assert_eq!(o.status.code(), Some(2));
}

/// A task shader alone cannot be drawn: the error says to give it with
/// --task behind the mesh shader it launches.
#[test]
fn run_on_a_task_shader_alone_asks_for_the_mesh_shader() {
    let task = common::shader_path("d_payload.task");
    let o = spvsass(&["run", task.to_str().unwrap()]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("d_payload.task.spv is a task shader: give the mesh shader it launches")
            && e.contains("--task"),
        "{e}"
    );
}

/// --task given a mesh shader names the stage it got.
#[test]
fn run_with_a_mesh_shader_as_task_is_refused() {
    let mesh = common::shader_path("d_payload.mesh");
    let o = spvsass(&[
        "run",
        mesh.to_str().unwrap(),
        "--task",
        mesh.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("--task takes a task shader; ") && e.contains("is a mesh shader"),
        "{e}"
    );
}

/// A reader that stops early (`spvsass compile x.spv --print-passes | head`)
/// ends the command quietly with SIGPIPE's status, 141: no panic message.
/// The output (about 950 KB) is far larger than a pipe's buffer, so the
/// writes fail however fast the reader goes away.
#[test]
fn a_closed_standard_output_ends_the_command_quietly() {
    use std::io::Read as _;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_spvsass"))
        .args([
            "compile",
            common::shader_path("float_builtins.comp").to_str().unwrap(),
            "--print-passes",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spvsass runs");
    let mut first = [0u8; 16];
    let mut out = child.stdout.take().expect("stdout");
    out.read_exact(&mut first).expect("some output");
    drop(out);
    let o = child.wait_with_output().expect("spvsass ends");
    assert_eq!(o.status.code(), Some(141), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
}
