//! Buffers bound to task and mesh draws, as compute dispatches bind them
//! (`spvsass run --buffer/--out/--push`, run descriptions): a mesh shader
//! reading its vertex positions from a storage buffer, task and mesh
//! shaders writing storage buffers, and a run description reading one back.

use crate::common;

use spvsass::reference::{BufferDescription, BufferKind, Data, RunDescription};
use spvsass::simulate_run::{SimulateOptions, simulate_run};
use std::path::{Path, PathBuf};
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

/// A file of its own in a temporary directory (tests run in parallel).
fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("spvsass-mesh-buffers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

fn write_bytes(name: &str, bytes: &[u8]) -> String {
    let path = tmp(name);
    std::fs::write(&path, bytes).expect("write input");
    path.to_string_lossy().into_owned()
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn path(name: &str) -> String {
    common::shader_path(name).to_string_lossy().into_owned()
}

/// 64 points for point_cloud.mesh: point k at (k/64, -k/128, 0.25, 1).
fn cloud() -> Vec<[f32; 4]> {
    (0..64)
        .map(|k| [k as f32 / 64.0, -(k as f32) / 128.0, 0.25, 1.0])
        .collect()
}

#[test]
fn mesh_shader_reads_positions_from_a_storage_buffer() {
    let bytes: Vec<u8> = cloud()
        .iter()
        .flatten()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    let buffer = format!("0={}", write_bytes("cloud.bin", &bytes));
    let shader = path("point_cloud.mesh");
    let o = spvsass(&[
        "run", &shader, "--groups", "2", "--buffer", &buffer, "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let expected = cloud();
    for wg in 0..2 {
        let vertices = v["workgroups"][wg]["vertices"]
            .as_array()
            .unwrap_or_else(|| panic!("workgroup {wg} has vertices: {v}"));
        assert_eq!(vertices.len(), 32);
        for (i, vertex) in vertices.iter().enumerate() {
            let position: Vec<f64> = vertex["position"]
                .as_array()
                .map(|a| a.iter().filter_map(serde_json::Value::as_f64).collect())
                .unwrap_or_default();
            let want: Vec<f64> = expected[32 * wg + i]
                .iter()
                .map(|&f| f64::from(f))
                .collect();
            assert_eq!(position, want, "workgroup {wg} vertex {i}");
        }
    }
}

#[test]
fn a_buffer_too_small_for_the_mesh_shader_is_an_error_with_pc_lane_and_address() {
    // One workgroup's worth: the second workgroup reads past the end.
    let buffer = format!("0={}", write_bytes("short.bin", &[0; 32 * 16]));
    let shader = path("point_cloud.mesh");
    let o = spvsass(&["run", &shader, "--groups", "2", "--buffer", &buffer]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("lane 0") && err.contains("global access at 0x100000200"),
        "{err}"
    );
}

#[test]
fn task_and_mesh_shaders_write_out_buffers() {
    // bias 1000, 2 mesh workgroups per task workgroup.
    let push = write_bytes("push.bin", &[1000u32, 2].map(u32::to_le_bytes).concat());
    let (words_out, count_out) = (tmp("words.bin"), tmp("count.bin"));
    let args = [
        "run".to_string(),
        path("b_store.mesh"),
        "--task".into(),
        path("b_store.task"),
        "--groups".into(),
        "3".into(),
        "--buffer".into(),
        "0=400".into(),
        "--buffer".into(),
        "1=4".into(),
        "--push".into(),
        push,
        "--out".into(),
        format!("0={}", words_out.display()),
        "--out".into(),
        format!("1={}", count_out.display()),
    ];
    let o = spvsass(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", stderr(&o));
    let stored = words(&std::fs::read(&words_out).expect("--out 0 was written"));
    let expected: Vec<u32> = (0..100)
        .map(|i| if i < 96 { i + 1000 } else { 0 })
        .collect();
    assert_eq!(stored, expected);
    let count = words(&std::fs::read(&count_out).expect("--out 1 was written"));
    // 3 task workgroups launch 2 mesh workgroups of 32 invocations each.
    assert_eq!(count, vec![3 * 2 * 32]);
}

#[test]
fn a_mesh_run_description_reads_back_its_buffers() {
    let mut desc = RunDescription::load(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/runs/triangle.json"
    )))
    .unwrap_or_else(|e| panic!("{e}"));
    desc.stages.task = None;
    desc.stages.mesh = desc.stages.mesh.map(|mut m| {
        m.spirv = "../shaders/b_store.mesh.spv".into();
        m
    });
    desc.groups = [5, 1, 1];
    desc.buffers = vec![BufferDescription {
        set: 0,
        binding: 1,
        element: 0,
        kind: BufferKind::Storage,
        offset: 0,
        range: None,
        contents: vec![Data::U32(vec![7])],
        read_back: true,
        float_ulps: None,
    }];
    let base = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/runs"));
    let run = simulate_run(&desc, "b_store", base, &SimulateOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let buffers = &run.capture.result.buffers;
    assert_eq!(buffers.len(), 1);
    assert_eq!(
        (buffers[0].binding, &buffers[0].words),
        (1, &vec![7 + 5 * 32])
    );
}
