//! End-to-end images: each corpus mesh shader that draws something
//! compiled (with its task shader), simulated (one group, the groups its
//! test names, the run description tests/runs/RUN.json with its buffers,
//! or inputs bound by the checks in images_inputs/), rasterized at 64×64
//! (or the run's size) and compared with its golden PNG
//! (tests/golden/NAME.png; regenerate with `UPDATE_GOLDENFILES=1 cargo
//! test --test integration images::`, then look at the images), with pixels checked in
//! code; the corpus shaders without an image are listed with the reason.

use crate::common;
#[path = "images_inputs/mod.rs"]
mod images_inputs;

use spvsass::backend::target::Arch;
use spvsass::sim::raster::{CullMode, Framebuffer, FrontFace, RenderState};
use spvsass::sim::{ComputeInputs, MeshDraw, SimOptions};
use std::io::Write;
use std::path::PathBuf;

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

/// The draw of `groups` groups of a mesh shader, or of a task shader
/// NAME.task in front of NAME.mesh, with `inputs` bound.
fn draw_bound(name: &str, groups: [u32; 3], inputs: ComputeInputs) -> MeshDraw {
    let task = name
        .strip_suffix(".mesh")
        .map(|stem| format!("{stem}.task"))
        .filter(|task| corpus_path(task).exists())
        .map(|task| compile(&task, false));
    let mesh = compile(name, task.is_some());
    let task = task.as_ref().map(|t| &t.binary);
    let options = SimOptions::default();
    spvsass::Draw::new(task, &mesh.binary, groups)
        .inputs(inputs)
        .options(options)
        .run()
        .expect("simulates")
        .draw
}

/// The draw of one group with nothing bound.
fn draw(name: &str) -> MeshDraw {
    draw_bound(name, [1, 1, 1], ComputeInputs::default())
}

/// Checks the image's PNG against the shader's golden and returns it for
/// pixel checks.
fn golden(name: &str, image: Framebuffer) -> Framebuffer {
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

/// Renders the draw of `groups` groups at 64×64 against its golden.
fn check_groups(name: &str, groups: [u32; 3]) -> Framebuffer {
    let draw = draw_bound(name, groups, ComputeInputs::default());
    golden(
        name,
        spvsass::render(&draw, &RenderState::default()).expect("renders"),
    )
}

/// Renders one group at 64×64 against its golden.
fn check(name: &str) -> Framebuffer {
    check_groups(name, [1, 1, 1])
}

/// Renders the run description tests/runs/RUN.json (its buffers, groups,
/// image size and pipeline state) against the golden of shader `name`.
fn check_run(name: &str, run: &str) -> Framebuffer {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/runs/{run}.json"));
    let options = spvsass::simulate_run::SimulateOptions {
        arch: Some(Arch::Sm86),
        ..Default::default()
    };
    let run = spvsass::simulate_run::simulate_run_file(&path, &options).expect("simulates");
    let (draw, state) = run.draw.expect("a mesh run");
    golden(name, spvsass::render(&draw, &state).expect("renders"))
}

const CLEAR: Option<[f32; 4]> = Some([0.0; 4]);
const WHITE: Option<[f32; 4]> = Some([1.0; 4]);

/// The pixels of layer 0 that are not cleared.
fn lit(image: &Framebuffer) -> usize {
    image.pixels().iter().filter(|&&p| Some(p) != CLEAR).count()
}

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
    assert_eq!(lit(&image), 1);
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
    // Three full quads and the upper-left triangle of quad 3 (local
    // centres with i + j <= 14).
    assert_eq!(lit(&image), 3 * 16 * 16 + 16 * 15 / 2);
}

fn check_d_cull_narrow() {
    // Points at x_ndc = p for p = 0..7, y = 0: point 0 covers pixel
    // (31, 31); point 1 lies on the view volume's edge x = w and would
    // cover (63, 31), but the shader culls it; the others are outside.
    let image = check("d_cull_narrow.mesh");
    assert_eq!(image.pixel(31, 31, 0), WHITE);
    assert_eq!(image.pixel(63, 31, 0), CLEAR, "culled");
    assert_eq!(lit(&image), 1);
    // Without the cull flag point 1 shows.
    let mut uncull = draw("d_cull_narrow.mesh");
    assert_eq!(uncull.workgroups[0].primitives[1].cull, Some(true));
    uncull.workgroups[0].primitives[1].cull = Some(false);
    let image = spvsass::render(&uncull, &RenderState::default()).unwrap();
    assert_eq!(image.pixel(63, 31, 0), WHITE);
}

fn check_ref_vec3_colour() {
    // triangle.mesh's vertices, (16,16), (32,48), (48,16) on the image,
    // with a vec3 colour of 1: the missing alpha reads 1, so white.
    let image = check("ref_vec3_colour.mesh");
    assert_eq!(image.pixel(31, 40, 0), WHITE);
    assert_eq!(image.pixel(32, 48, 0), CLEAR, "below the apex");
    // Half of a 32 × 32 box.
    assert_eq!(lit(&image), 512);
}

fn check_layered_viewports() {
    // Workgroup 0 is face 0 (layer 0, viewport 0): the triangle (-1, 0),
    // (0, 1), (1, 0), on the image (0, 32), (32, 64), (64, 32), the lower
    // half's middle; no colour output: white.
    let image = check("layered_viewports.mesh");
    assert_eq!(image.pixel(32, 40, 0), WHITE);
    assert_eq!(image.pixel(32, 31, 0), CLEAR, "above the top edge y = 32");
    assert_eq!(image.pixel(0, 63, 0), CLEAR, "left of the apex");
    assert_eq!(lit(&image), 32 * 32);
}

fn check_d_groupid() {
    // The task workgroup emits 2 × 2 × 3 mesh workgroups, each a point at
    // its workgroup id (x, y, z): z = 2 is beyond the far plane, z = 0 and
    // 1 inside; (0, 0), (1, 0), (0, 1), (1, 1) land on pixels 31 and 63.
    let image = check("d_groupid.mesh");
    for (x, y) in [(31, 31), (63, 31), (31, 63), (63, 63)] {
        assert_eq!(image.pixel(x, y, 0), WHITE, "({x}, {y})");
    }
    assert_eq!(lit(&image), 4);
}

fn check_d_return() {
    // Task workgroup 0 writes group = 0 to the payload and emits 2 mesh
    // workgroups: points at (group, workgroup x) = (0, 0) and (0, 1).
    let image = check("d_return.mesh");
    assert_eq!(image.pixel(31, 31, 0), WHITE);
    assert_eq!(image.pixel(31, 63, 0), WHITE);
    assert_eq!(lit(&image), 2);
}

fn check_s_compact() {
    // Task ids with (id · 2654435761) >> 29 < 5 survive: of the ids on
    // screen (x = id), 0 and 1 ((2654435761 >> 29) = 4); each becomes a
    // point at (id, 0).
    let image = check("s_compact.mesh");
    assert_eq!(image.pixel(31, 31, 0), WHITE);
    assert_eq!(image.pixel(63, 31, 0), WHITE);
    assert_eq!(lit(&image), 2);
}

fn check_s_atomics() {
    // Points at (i, 0): only invocations 0 and 1 are in the view volume.
    // The colour is old values of atomics (asserted value by value in
    // tests/shared_memory.rs), far outside [0, 1]: only coverage here.
    let image = check("s_atomics.mesh");
    assert_ne!(image.pixel(31, 31, 0), CLEAR);
    assert_ne!(image.pixel(63, 31, 0), CLEAR);
    assert_eq!(lit(&image), 2);
}

fn check_w_emit96() {
    // 96 task invocations write v[i] = 7i; mesh workgroup g draws points
    // (v[32g + i], g): only v[0] = 0 with g = 0 is on screen.
    let image = check("w_emit96.mesh");
    assert_eq!(image.pixel(31, 31, 0), WHITE);
    assert_eq!(lit(&image), 1);
}

fn check_dense_grid() {
    // 64 workgroups, an 8 × 8 grid of 0.3-NDC patches of 21 quads each.
    // Pixel (23, 24), centre NDC (-0.265625, -0.234375), lies in the
    // first cell of workgroup 27 (patch corner (-0.3, -0.3)), whose blue
    // is (27 % 5) / 4 = ½ at every vertex.
    let image = check_groups("dense_grid.mesh", [64, 1, 1]);
    let p = image.pixel(23, 24, 0).unwrap();
    assert_eq!((p[2], p[3]), (0.5, 1.0), "{p:?}");
    // Patches span NDC -1.2 to 1.2: the image is covered but for the
    // gaps between cells of alternating diagonals: most of it is lit.
    assert!(lit(&image) > 3500, "{}", lit(&image));
}

fn check_meshlet_per_primitive_colour() {
    // The run meshlet_fan: a fan of 30 triangles (0, i + 1, i + 2) on the
    // unit circle (vertex i at angle 2πi/32), each with the flat colour
    // hash(i) / 255, hash = bytes of i · 2654435761. Pixel (21, 34) lies
    // in triangle 14 (vertices (1, 0), angle 15·2π/32, (-1, 0)), near
    // its centroid (-0.33, 0.065).
    let image = check_run("meshlet_per_primitive_colour.mesh", "meshlet_fan");
    let h = 14u32.wrapping_mul(2654435761);
    let byte = |s: u32| ((h >> s) & 255) as f32 / 255.0;
    assert_eq!(
        image.pixel(21, 34, 0),
        Some([byte(0), byte(8), byte(16), 1.0])
    );
    // The 30 triangles tile the convex 32-gon, of area
    // ½ · 32 · sin(2π/32) = 3.1214 NDC², 3196.3 pixels at 32 pixels per
    // NDC unit; edge pixels come and go with the centres.
    let area = 0.5 * 32.0 * (std::f64::consts::TAU / 32.0).sin() * 32.0 * 32.0;
    assert!((lit(&image) as f64 - area).abs() < 10.0, "{}", lit(&image));
    assert_eq!(image.pixel(0, 0, 0), CLEAR, "outside the circle");
}

fn check_line_angles() {
    // The run line_angles: 32 white lines at many angles on 128x128. The
    // H100 covers 1,062 pixels (tests/reference/line_angles), and so do
    // the strict lines. The vertical line from (12, 68) to (12, 124) lies
    // on a column boundary: its rectangle's left side (x = 11.5, kept)
    // holds column 11's centres, its right side column 12's (not).
    let image = check_run("line_angles.mesh", "line_angles");
    assert_eq!(lit(&image), 1062);
    assert_eq!(image.pixel(11, 100, 0), WHITE);
    assert_eq!(image.pixel(12, 100, 0), CLEAR);
}

fn check_line_strip() {
    // The run line_strip: 15 white lines through 16 points of the
    // buffer. Segment 0 runs from (-0.9, 0.6) to (-0.78, -0.53), on the
    // image (3.2, 51.2) to (7.04, 15.04), y-major: at row 33 (centre
    // 33.5) it is at x = 5.08, within ½ of centre 5.5.
    let image = check_run("line_strip.mesh", "line_strip");
    assert_eq!(image.pixel(5, 33, 0), WHITE);
    assert_eq!(image.pixel(0, 0, 0), CLEAR);
    assert_eq!(image.pixel(63, 63, 0), CLEAR);
}

fn check_point_cloud() {
    // The run point_cloud: 64 white points of size 4 in two workgroups.
    // Point 0 at (0.15, 0) is on the image at (36.8, 32): the square
    // [34.8, 38.8) × [30, 34) holds the centres of pixels 35..38 × 30..33.
    let image = check_run("point_cloud.mesh", "point_cloud");
    for (x, y) in [(35, 30), (38, 33)] {
        assert_eq!(image.pixel(x, y, 0), WHITE, "({x}, {y})");
    }
    assert_eq!(image.pixel(0, 0, 0), CLEAR);
    assert_eq!(image.pixel(63, 63, 0), CLEAR);
}

fn check_ref_views() {
    // The run ref_views: a multiview draw, view v into layer v (the PNG
    // stacks the layers). View 0's triangle (-0.75, -0.5), (-0.25, 0.5),
    // (0.25, -0.5) is (1, 0, ½, 1); view 1's, half an NDC unit right,
    // (0, 1, ½, 1). Pixel (24, 32) (NDC (-0.23, 0.02)) is in view 0's only.
    let image = check_run("ref_views.mesh", "ref_views");
    assert_eq!(image.pixel(24, 32, 0), Some([1.0, 0.0, 0.5, 1.0]));
    assert_eq!(image.pixel(24, 32, 1), CLEAR);
    assert_eq!(image.pixel(40, 32, 1), Some([0.0, 1.0, 0.5, 1.0]));
}

use images_inputs::*;

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
    clip_cull_distance: check_clip_cull_distance, "clip_cull_distance.mesh";
    ref_vec3_colour: check_ref_vec3_colour, "ref_vec3_colour.mesh";
    layered_viewports: check_layered_viewports, "layered_viewports.mesh";
    d_groupid: check_d_groupid, "d_groupid.mesh";
    d_return: check_d_return, "d_return.mesh";
    s_compact: check_s_compact, "s_compact.mesh";
    s_atomics: check_s_atomics, "s_atomics.mesh";
    w_emit96: check_w_emit96, "w_emit96.mesh";
    dense_grid: check_dense_grid, "dense_grid.mesh";
    meshlet_per_primitive_colour: check_meshlet_per_primitive_colour,
        "meshlet_per_primitive_colour.mesh";
    line_strip: check_line_strip, "line_strip.mesh";
    line_angles: check_line_angles, "line_angles.mesh";
    point_cloud: check_point_cloud, "point_cloud.mesh";
    ref_views: check_ref_views, "ref_views.mesh";
    terrain_grid: check_terrain_grid, "terrain_grid.mesh";
    primitive_culling: check_primitive_culling, "primitive_culling.mesh";
    subgroup_primitive_compaction: check_subgroup_primitive_compaction,
        "subgroup_primitive_compaction.mesh";
    skinned_meshlet: check_skinned_meshlet, "skinned_meshlet.mesh";
    multiview_draw_index: check_multiview_draw_index, "multiview_draw_index.mesh";
}

/// The corpus mesh shaders without an image golden, and why.
const NOT_DRAWN: &[(&str, &str)] = &[
    // Do not compile (yet).
    (
        "d_cull_viewport.mesh",
        "zero-area triangles (every y is 0), test values (tests/per_primitive.rs)",
    ),
    (
        "d_limit_invocations.mesh",
        "over the 128-invocation limit (a compile-error test)",
    ),
    (
        "d_workgroup_block.mesh",
        "explicitly laid out Workgroup blocks: test values (tests/shared_blocks.rs)",
    ),
    (
        "d_workgroup_block_counts.mesh",
        "no primitive: writes a buffer (tests/shared_blocks.rs)",
    ),
    (
        "d_limit_location.mesh",
        "over the output location limit (a compile-error test)",
    ),
    (
        "d_limit_memory.mesh",
        "over the output memory limit (a compile-error test)",
    ),
    (
        "d_limit_shared.mesh",
        "over the shared memory limit (a compile-error test)",
    ),
    (
        "d_output_two_dynamic.mesh",
        "two dynamic indices into one output: refused (a compile-error test)",
    ),
    // Need inputs no run description gives.
    (
        "b_store.mesh",
        "emits no primitive (SetMeshOutputsEXT(0, 0)); its buffer writes: tests/mesh_buffers.rs",
    ),
    (
        "meshlet_instanced.mesh",
        "reads six buffers and a task payload, and has no task shader",
    ),
    (
        "payload_reader.mesh",
        "reads a task payload and has no task shader",
    ),
    // Nothing visible with default inputs: their outputs are test
    // values, asserted value by value by the tests named.
    (
        "d_prims.mesh",
        "zero-area triangles (workgroup g puts every vertex at y = g), layer g (tests/per_primitive.rs)",
    ),
    (
        "d_viewport.mesh",
        "writes gl_ViewportIndex 1; one viewport is modelled (tests/per_primitive.rs)",
    ),
    (
        "d_grid.mesh",
        "points at task global ids coloured (0, 0, 0, 0) (task workgroup 0): the cleared image (tests/draw_grid.rs)",
    ),
    (
        "d_grid3d.mesh",
        "the on-screen points are coloured (workgroup 0, draw 0) = (0, 0, 0, 0): the cleared image (tests/draw_grid.rs)",
    ),
    (
        "d_outputs.mesh",
        "test values, no fragment (tests/outputs.rs)",
    ),
    (
        "d_payload.mesh",
        "positions are payload values, no fragment (tests/task_mesh.rs)",
    ),
    (
        "output_dynamic_index.mesh",
        "test values, no fragment (tests/outputs.rs)",
    ),
    (
        "output_readback.mesh",
        "test values read back from outputs, no fragment (tests/outputs.rs)",
    ),
    (
        "output_readback_prims.mesh",
        "zero-area triangles (every y is 0), test values (tests/outputs.rs)",
    ),
    (
        "output_readback_wide.mesh",
        "test values read back from outputs, no fragment (tests/outputs.rs)",
    ),
    (
        "interpolation_outputs.mesh",
        "a zero-area triangle (every y is 0)",
    ),
    (
        "spec_workgroup_size.mesh",
        "zero-area triangles (y = i / 3 is one value per triangle)",
    ),
    (
        "d_switch_outputs.mesh",
        "points at shared-memory values, reads its modes from a buffer no run description gives (tests/wide_workgroups.rs)",
    ),
    (
        "w_divergent_barrier.mesh",
        "points at invocation ids, no fragment (tests/wide_workgroups.rs)",
    ),
    (
        "dense_grid_wide.mesh",
        "its workgroup size is a spec constant; its images with and without culling are compared pixel for pixel (tests/shader_cull.rs)",
    ),
    (
        "w_shared_exit_loop.mesh",
        "points at loop results, no fragment (tests/wide_workgroups.rs)",
    ),
    (
        "w_cluster_skip.mesh",
        "reads its meshlets from buffers no run description gives (tests/wide_workgroups.rs)",
    ),
    (
        "w_private_init.mesh",
        "test values, no fragment (tests/wide_workgroups.rs)",
    ),
    (
        "w_scan128.mesh",
        "positions are scan sums (x up to 6000), off screen (tests/wide_workgroups.rs)",
    ),
    (
        "s_incdec.mesh",
        "positions are (i, 0, 0, 1), outputs are atomic results, no fragment (tests/shared_memory.rs)",
    ),
    (
        "s_payload_atomics.mesh",
        "positions are atomic results, no fragment (tests/shared_memory.rs)",
    ),
    (
        "s_reduce.mesh",
        "a point at reduction results, no fragment (tests/shared_memory.rs)",
    ),
    (
        "w_exchange.mesh",
        "positions are exchanged values, no fragment (tests/wide_workgroups.rs)",
    ),
    (
        "w_loop.mesh",
        "positions are loop results, no fragment (tests/wide_workgroups.rs)",
    ),
    (
        "w_return_in_branch.mesh",
        "points at test positions with no colour output (tests/wide_workgroups.rs)",
    ),
    (
        "w_return_late.mesh",
        "points at loop and ballot results with no colour output (tests/wide_workgroups.rs)",
    ),
    (
        "w_return_loop.mesh",
        "points at loop results with no colour output (tests/wide_workgroups.rs)",
    ),
    (
        "w_subgroup_add48.mesh",
        "positions are subgroup sums, no fragment (tests/subgroups.rs)",
    ),
    (
        "w_subgroup_add64.mesh",
        "positions are subgroup sums, no fragment (tests/subgroups.rs)",
    ),
    (
        "w_vertices128.mesh",
        "positions are invocation ids, no fragment (tests/wide_workgroups.rs)",
    ),
    (
        "r_wide40.mesh",
        "no primitive: writes a buffer (tests/random_finds.rs)",
    ),
    (
        "s_subgroup_ids.mesh",
        "checks gl_SubgroupID/gl_NumSubgroups through vertex values (tests/wide_workgroups.rs)",
    ),
    (
        "r_wide_local_id48.mesh",
        "no primitive: writes a buffer (tests/random_finds.rs)",
    ),
    (
        "r_isbe_const_index.mesh",
        "no primitive: writes a buffer (tests/random_finds.rs)",
    ),
    (
        "r_payload_const_index.mesh",
        "no primitive: writes a buffer (tests/random_finds.rs)",
    ),
    (
        "r_mesh_chain_after_skip.mesh",
        "a compiler regression checked by its atomic's sums (progfuzz/tests/mesh_finds.rs)",
    ),
];

#[test]
fn every_corpus_mesh_shader_has_an_image_or_a_reason() {
    let mut corpus: Vec<String> = std::fs::read_dir(common::shader_path("x").parent().unwrap())
        .expect("tests/shaders exists")
        .map(|e| {
            e.expect("dir entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter_map(|n| n.strip_suffix(".mesh.spv").map(|s| format!("{s}.mesh")))
        .collect();
    corpus.sort();
    let mut listed: Vec<String> = IMAGES
        .iter()
        .chain(NOT_DRAWN.iter().map(|(n, _)| n))
        .filter(|n| common::shader_path(n).exists())
        .map(|n| n.to_string())
        .collect();
    listed.sort();
    assert_eq!(
        corpus, listed,
        "a corpus mesh shader neither drawn nor listed, or listed twice"
    );
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
    let draw = spvsass::Draw::new(task.as_ref().map(|t| &t.binary), &mesh.binary, groups)
        .run()
        .map(|r| r.draw)
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
