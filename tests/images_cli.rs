//! The `run` command's image options: PNG and raw output, size and
//! culling flags, and their errors (tests/images.rs holds the goldens).

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::sim::raster::RenderState;
use std::path::PathBuf;
use std::process::Command;

fn corpus_path(name: &str) -> PathBuf {
    common::shader_path(name)
}

/// One group of a task-less mesh shader, as `run` draws it by default.
fn draw(name: &str) -> spvsass::sim::MeshDraw {
    let mesh = common::compile(name, Arch::Sm86);
    spvsass::Draw::new(None, &mesh.binary, [1, 1, 1])
        .run()
        .map(|r| r.draw)
        .expect("simulates")
}

fn spvsass_cmd(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_spvsass"))
        .args(args)
        .output()
        .expect("spvsass runs")
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("spvsass-images-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

#[test]
fn run_writes_the_golden_png_and_the_raw_image() {
    let png = tmp("triangle.png");
    let raw = tmp("triangle.rgba32f");
    let shader = corpus_path("triangle.mesh");
    let o = spvsass_cmd(&[
        "run",
        shader.to_str().unwrap(),
        "--image",
        png.to_str().unwrap(),
        "--raw",
        raw.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The same bytes as the library renders (tests/golden/triangle.mesh.png).
    let image = spvsass::render(&draw("triangle.mesh"), &RenderState::default()).unwrap();
    assert_eq!(
        std::fs::read(&png).unwrap(),
        spvsass::sim::image::png(&image).unwrap()
    );
    assert_eq!(
        std::fs::read(&raw).unwrap(),
        spvsass::sim::image::raw_rgba32f(&image)
    );
}

#[test]
fn run_takes_size_and_culling() {
    let raw = tmp("culled.rgba32f");
    let shader = corpus_path("triangle.mesh");
    let o = spvsass_cmd(&[
        "run",
        shader.to_str().unwrap(),
        "--size",
        "8x4",
        "--cull-mode",
        "back",
        "--front-face",
        "cw",
        "--raw",
        raw.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bytes = std::fs::read(&raw).unwrap();
    assert_eq!(bytes.len(), 8 * 4 * 16);
    assert!(
        bytes.iter().all(|&b| b == 0),
        "a back face with cw front faces"
    );
}

fn rejects(flag: &str, value: &str, message: &str) {
    let shader = corpus_path("point.mesh");
    let o = spvsass_cmd(&["run", shader.to_str().unwrap(), flag, value]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(message), "{err}");
}

#[test]
fn run_rejects_a_bad_size() {
    rejects("--size", "64", "expected WxH");
    rejects("--size", "0x8", "image sides must be 1 to 16384");
}

#[test]
fn run_rejects_a_bad_cull_mode() {
    rejects(
        "--cull-mode",
        "both",
        "'both' is not a cull mode: none, front, back or front_and_back",
    );
}

#[test]
fn run_rejects_a_bad_front_face() {
    rejects(
        "--front-face",
        "left",
        "'left' is not a front face: ccw or cw",
    );
}
