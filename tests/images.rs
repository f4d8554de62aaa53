//! End-to-end images: each corpus shader compiled, simulated, rasterized
//! at 64×64 and compared with its golden PNG (tests/golden/NAME.png;
//! regenerate with `UPDATE_GOLDENFILES=1 cargo test --test images`, then
//! look at the images), with a few pixels checked in code; and the `run`
//! command's image options.

mod common;

use spvsass::backend::target::Arch;
use spvsass::sim::raster::{CullMode, Framebuffer, FrontFace, RenderState};
use spvsass::sim::{MeshDraw, SimOptions};
use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn corpus_path(name: &str) -> PathBuf {
    let shader = common::shader_path(name);
    if shader.exists() {
        return shader;
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(format!("{name}.spv"))
}

fn compile(name: &str, task_present: bool) -> spvsass::Compiled {
    let bytes = std::fs::read(corpus_path(name)).expect("corpus shader exists");
    let words = spvsass::frontend::words_from_bytes(&bytes).expect("SPIR-V");
    let options = spvsass::Options {
        arch: Some(Arch::Sm86),
        task_present,
        ..Default::default()
    };
    spvsass::compile(&words, &options).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The draw of one group of a mesh shader, or of a task shader NAME.task
/// in front of NAME.mesh.
fn draw(name: &str) -> MeshDraw {
    let task = name
        .strip_suffix(".mesh")
        .map(|stem| format!("{stem}.task"))
        .filter(|task| corpus_path(task).exists())
        .map(|task| compile(&task, false));
    let mesh = compile(name, task.is_some());
    let task = task.as_ref().map(|t| &t.binary);
    spvsass::simulate_draw(task, &mesh.binary, [1, 1, 1], &SimOptions::default())
        .expect("simulates")
}

/// Renders the shader's draw, checks the PNG against its golden and
/// returns the image for pixel checks.
fn check(name: &str) -> Framebuffer {
    let image = spvsass::render(&draw(name), &RenderState::default()).expect("renders");
    let png = spvsass::sim::image::png(&image).expect("encodes");
    let mut mint = goldenfile::Mint::new(golden_dir());
    let mut file = mint
        .new_goldenfile_with_differ(
            format!("{name}.png"),
            Box::new(goldenfile::differs::binary_diff),
        )
        .expect("golden file");
    file.write_all(&png).expect("write image");
    image
}

const CLEAR: Option<[f32; 4]> = Some([0.0; 4]);
const WHITE: Option<[f32; 4]> = Some([1.0; 4]);

fn check_point() {
    // A 200-pixel point at the centre covers all of the 64×64 image; the
    // shader writes no colour: white.
    let image = check("point.mesh");
    assert!(image.pixels().iter().all(|&p| Some(p) == WHITE));
}

fn check_triangle() {
    // Vertices at framebuffer (16,16) red, (32,48) green, (48,16) blue
    // (y down: the apex is at the bottom).
    let image = check("triangle.mesh");
    assert_eq!(image.pixel(31, 40, 0).map(|p| p[3]), Some(1.0));
    assert_eq!(image.pixel(15, 16, 0), CLEAR, "left of the top edge");
    assert_eq!(image.pixel(32, 48, 0), CLEAR, "below the apex");
    // Row 16 (centres y = 16.5) runs from x = 16.25 to 47.75.
    assert!((16..48).all(|x| image.pixel(x, 16, 0).is_some_and(|p| p[3] == 1.0)));
    assert_eq!(image.pixel(48, 16, 0), CLEAR);
    // Pixel (32, 32), centre P = (32.5, 32.5), w = 1 everywhere: green =
    // (32.5 - 16) / 32 = 0.515625 (red and blue share y = 16); red =
    // area(P, G, B) / area(R, G, B) = 232 / 1024 = 0.2265625; blue the rest.
    let p = image.pixel(32, 32, 0).unwrap();
    assert!((p[1] - 0.515625).abs() < 1e-6, "{p:?}");
    assert!((p[0] - 0.2265625).abs() < 1e-6, "{p:?}");
    assert!((p[0] + p[1] + p[2] - 1.0).abs() < 1e-6, "{p:?}");
}

fn check_sine() {
    // gl_Position = (sin(0), 0, 0, 1), no PointSize: one white pixel up
    // and left of the image centre (the square [31.5, 32.5)² holds the
    // centre (31.5, 31.5)).
    let image = check("sine.mesh");
    assert_eq!(image.pixel(31, 31, 0), WHITE);
    let lit = image.pixels().iter().filter(|&&p| Some(p) != CLEAR).count();
    assert_eq!(lit, 1);
}

fn check_ref_quads() {
    // One task workgroup launches 4 mesh workgroups; quad q covers
    // framebuffer [8 + 32 (q % 2), 24 + ...] × [8 + 32 (q / 2), ...] as
    // triangle 0 (upper left, colour ((q+1)/4, 1, ¼, 1)) and triangle 1
    // (lower right, ((q+1)/4, ½, ¼, 1)); triangle 1 of quad 3 is culled.
    let image = check("ref_quads.mesh");
    assert_eq!(image.pixel(9, 9, 0), Some([0.25, 1.0, 0.25, 1.0]));
    assert_eq!(image.pixel(22, 22, 0), Some([0.25, 0.5, 0.25, 1.0]));
    assert_eq!(image.pixel(54, 22, 0), Some([0.5, 0.5, 0.25, 1.0]));
    assert_eq!(image.pixel(41, 41, 0), Some([1.0, 1.0, 0.25, 1.0]));
    assert_eq!(image.pixel(54, 54, 0), CLEAR, "culled");
    // The shared diagonal x + y = 32 of quad 0 passes through the centres
    // with i + j = 31: it is a left edge of triangle 1 only.
    assert_eq!(image.pixel(15, 16, 0), Some([0.25, 0.5, 0.25, 1.0]));
    assert_eq!(image.pixel(7, 8, 0), CLEAR, "outside the quad");
    let lit = image.pixels().iter().filter(|&&p| Some(p) != CLEAR).count();
    // Three full quads and the upper-left triangle of quad 3 (local
    // centres with i + j <= 14).
    assert_eq!(lit, 3 * 16 * 16 + 16 * 15 / 2);
}

fn check_d_cull_narrow() {
    // Points at x_ndc = p for p = 0..7, y = 0: point 0 covers pixel
    // (31, 31); point 1 lies on the view volume's edge x = w and would
    // cover (63, 31), but the shader culls it; the others are outside.
    let image = check("d_cull_narrow.mesh");
    assert_eq!(image.pixel(31, 31, 0), WHITE);
    assert_eq!(image.pixel(63, 31, 0), CLEAR, "culled");
    let lit = image.pixels().iter().filter(|&&p| Some(p) != CLEAR).count();
    assert_eq!(lit, 1);
    // Without the cull flag point 1 shows.
    let mut uncull = draw("d_cull_narrow.mesh");
    assert_eq!(uncull.workgroups[0].primitives[1].cull, Some(true));
    uncull.workgroups[0].primitives[1].cull = Some(false);
    let image = spvsass::render(&uncull, &RenderState::default()).unwrap();
    assert_eq!(image.pixel(63, 31, 0), WHITE);
}

macro_rules! images {
    ($($test:ident: $check:ident, $name:literal $(, $ignore:literal)?;)*) => {
        $(#[test] $(#[ignore = $ignore])? fn $test() { $check(); })*
        /// The shaders with an image golden.
        const IMAGES: &[&str] = &[$($name),*];
    };
}

images! {
    point: check_point, "point.mesh";
    triangle: check_triangle, "triangle.mesh";
    d_cull_narrow: check_d_cull_narrow, "d_cull_narrow.mesh";
    ref_quads: check_ref_quads, "ref_quads.mesh";
    sine: check_sine, "sine.mesh";
}

#[test]
fn image_goldens_shaders_and_tests_agree() {
    let mut found: Vec<String> = std::fs::read_dir(golden_dir())
        .expect("tests/golden exists")
        .map(|e| {
            e.expect("dir entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".png"))
        .collect();
    found.sort();
    let mut expected: Vec<String> = IMAGES.iter().map(|n| format!("{n}.png")).collect();
    expected.sort();
    assert_eq!(
        found, expected,
        "an image golden without a test, or the reverse"
    );
    for name in IMAGES {
        assert!(corpus_path(name).exists(), "{name}");
    }
}

#[test]
fn triangle_is_front_facing_counter_clockwise() {
    // On the image the vertices run (16,16) → (32,48) → (48,16): down the
    // left side and back up, counter-clockwise.
    let culled = |cull_mode| {
        let state = RenderState {
            cull_mode,
            ..RenderState::default()
        };
        let image = spvsass::render(&draw("triangle.mesh"), &state).expect("renders");
        image.pixels().iter().all(|&p| p == [0.0; 4])
    };
    assert!(!culled(CullMode::Back));
    assert!(culled(CullMode::Front));
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

/// The run description tests/runs/NAME.json drawn by the simulator and
/// the rasterizer, against the image an NVIDIA H100 rendered from it
/// (tests/reference/NAME/image.rgba32f): the same covered pixels, and
/// colours within 1e-6.
fn matches_capture(run: &str) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join(format!("tests/runs/{run}.json"))).unwrap();
    let desc: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(
        desc.get("view_mask").is_none(),
        "multiview is not rasterized"
    );
    let stage = |s: &str| {
        let spirv = desc["stages"][s]["spirv"].as_str()?;
        let path = root.join("tests/runs").join(spirv);
        let words = spvsass::frontend::words_from_bytes(&std::fs::read(path).unwrap()).unwrap();
        Some(words)
    };
    let options = |task_present| spvsass::Options {
        arch: Some(Arch::Sm86),
        task_present,
        ..Default::default()
    };
    let task = stage("task").map(|w| spvsass::compile(&w, &options(false)).unwrap());
    let mesh = spvsass::compile(&stage("mesh").unwrap(), &options(task.is_some())).unwrap();
    let groups = std::array::from_fn(|i| desc["groups"][i].as_u64().unwrap() as u32);
    let draw = spvsass::simulate_draw(
        task.as_ref().map(|t| &t.binary),
        &mesh.binary,
        groups,
        &SimOptions::default(),
    )
    .unwrap();
    let side = |k: &str| desc["image"][k].as_u64().unwrap() as u32;
    let state = RenderState {
        width: side("width"),
        height: side("height"),
        cull_mode: desc["cull_mode"]
            .as_str()
            .unwrap_or("none")
            .parse()
            .unwrap(),
        front_face: match desc["front_face"].as_str().unwrap_or("counter_clockwise") {
            "clockwise" => FrontFace::Clockwise,
            _ => FrontFace::CounterClockwise,
        },
        ..RenderState::default()
    };
    let ours = spvsass::render(&draw, &state).unwrap();
    let bytes = std::fs::read(root.join(format!("tests/reference/{run}/image.rgba32f"))).unwrap();
    let theirs: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    assert_eq!(theirs.len(), ours.pixels().len() * 4, "image size");
    for (i, (o, t)) in ours.pixels().iter().zip(theirs.chunks_exact(4)).enumerate() {
        let (x, y) = (i as u32 % state.width, i as u32 / state.width);
        assert_eq!(o[3] > 0.0, t[3] > 0.0, "coverage of pixel ({x}, {y})");
        let err = o
            .iter()
            .zip(t)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f32::max);
        assert!(
            err <= 1e-6,
            "pixel ({x}, {y}): {o:?} here, {t:?} on the H100"
        );
    }
}

macro_rules! captures {
    ($($test:ident: $run:literal $(, $ignore:literal)?;)*) => {
        $(#[test] $(#[ignore = $ignore])? fn $test() { matches_capture($run); })*
    };
}

captures! {
    point_matches_the_h100: "point";
    triangle_matches_the_h100: "triangle";
    triangle_cull_front_matches_the_h100: "triangle_cull_front";
    ref_quads_matches_the_h100: "ref_quads";
}
