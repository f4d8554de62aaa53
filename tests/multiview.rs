//! Multiview draws: ref_views.mesh draws, for view v, a triangle moved
//! right by v / 4 of the image in a colour of its own (from gl_ViewIndex).
//! The simulator runs the draw once per set bit of the view mask and
//! renders view v into image layer v; every pixel of every layer is
//! checked against the triangle that view must draw.

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::sim::MeshDraw;
use spvsass::sim::raster::{Framebuffer, RenderState};
use std::process::Command;

const SIDE: u32 = 64;

fn draw(view_mask: u32) -> MeshDraw {
    let mesh = common::compile("ref_views.mesh", Arch::Sm86);
    spvsass::Draw::new(None, &mesh.binary, [1, 1, 1])
        .view_mask(view_mask)
        .run()
        .map(|r| r.draw)
        .expect("simulates")
}

fn render(draw: &MeshDraw, layers: u32) -> Framebuffer {
    let state = RenderState {
        width: SIDE,
        height: SIDE,
        layers,
        ..RenderState::default()
    };
    spvsass::render(draw, &state).expect("renders")
}

/// What view `v` draws at pixel (x, y): `None` within 1/64 pixel of an
/// edge (the tie rule decides there), else the colour or background.
fn expected(v: u32, x: u32, y: u32) -> Option<[f32; 4]> {
    // The shader's vertices in NDC, then in pixels (row 0 at the top is
    // NDC y = -1).
    let ndc = [(-0.75, -0.5), (-0.25, 0.5), (0.25, -0.5)];
    let to_px = |(nx, ny): (f64, f64)| {
        let half = f64::from(SIDE) / 2.0;
        ((nx + f64::from(v) * 0.5 + 1.0) * half, (ny + 1.0) * half)
    };
    let p = ndc.map(to_px);
    let (cx, cy) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
    let mut inside = 0;
    for i in 0..3 {
        let (ax, ay) = p[i];
        let (bx, by) = p[(i + 1) % 3];
        let cross = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
        let distance = cross / (bx - ax).hypot(by - ay);
        if distance.abs() < 1.0 / 64.0 {
            return None;
        }
        inside += i32::from(distance > 0.0);
    }
    let colour = [f32::from(v == 0), f32::from(v == 1), 0.5, 1.0];
    // Inside: on the same side of all three edges, whatever the winding.
    Some(if inside % 3 == 0 { colour } else { [0.0; 4] })
}

/// Every pixel of `layer` is view `view`'s triangle, or background when
/// `view` is `None`; returns the covered pixel count.
fn check_layer(image: &Framebuffer, layer: u32, view: Option<u32>) -> usize {
    let mut covered = 0;
    for y in 0..SIDE {
        for x in 0..SIDE {
            let got = image.pixel(x, y, layer).expect("inside the image");
            let want = match view {
                None => Some([0.0; 4]),
                Some(v) => expected(v, x, y),
            };
            if let Some(want) = want {
                assert_eq!(got, want, "layer {layer} pixel ({x}, {y})");
            }
            covered += usize::from(got[3] != 0.0);
        }
    }
    covered
}

#[test]
fn two_views_render_each_its_own_layer() {
    let d = draw(0b11);
    let image = render(&d, 2);
    // Both views cover pixels: the layers are not left empty.
    assert!(check_layer(&image, 0, Some(0)) > 200);
    assert!(check_layer(&image, 1, Some(1)) > 200);
    // The per-view loop runs the 32-invocation workgroup once per view.
    assert_eq!(d.statistics.mesh_invocations, 64);
    assert_eq!(d.statistics.mesh_primitives_generated, 2);
    let layers: Vec<_> = d
        .workgroups
        .iter()
        .map(|wg| wg.primitives.iter().map(|p| p.layer).collect::<Vec<_>>())
        .collect();
    assert_eq!(layers, [[Some(0)], [Some(1)]]);
}

#[test]
fn a_mask_with_a_gap_leaves_its_layer_empty() {
    let image = render(&draw(0b101), 3);
    assert!(check_layer(&image, 0, Some(0)) > 200);
    assert_eq!(check_layer(&image, 1, None), 0);
    // View 2's colour is blue-only: (0, 0, 0.5, 1).
    assert!(check_layer(&image, 2, Some(2)) > 200);
}

#[test]
fn without_multiview_the_view_index_is_0() {
    let image = render(&draw(0), 1);
    assert!(check_layer(&image, 0, Some(0)) > 200);
}

#[test]
fn the_run_command_takes_a_view_mask() {
    let dir = std::env::temp_dir().join(format!("spvsass-multiview-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let raw = dir.join("views.rgba32f");
    let out = Command::new(env!("CARGO_BIN_EXE_spvsass"))
        .arg("run")
        .arg(common::shader_path("ref_views.mesh"))
        .args(["--view-mask", "0b101", "--raw"])
        .arg(&raw)
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&raw).expect("raw image written");
    std::fs::remove_dir_all(&dir).ok();
    // Three layers (highest view 2, plus one) of 64×64 RGBA32F pixels.
    assert_eq!(bytes.len(), 3 * 64 * 64 * 16);
    let layer = |l: usize| &bytes[l * 64 * 64 * 16..(l + 1) * 64 * 64 * 16];
    assert!(layer(1).iter().all(|&b| b == 0));
    assert!(layer(0).iter().any(|&b| b != 0) && layer(2).iter().any(|&b| b != 0));
    let bad = Command::new(env!("CARGO_BIN_EXE_spvsass"))
        .arg("run")
        .arg(common::shader_path("ref_views.mesh"))
        .args(["--view-mask", "0b12"])
        .output()
        .expect("runs");
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr)
            .contains("expected a view mask such as 0b101 or 5, got '0b12'")
    );
}

/// A task+mesh draw (ref_quads, with a shader-culled primitive) under
/// multiview: both stages run once per view (the
/// task workgroups' root table holds the view too) and each layer is the
/// plain draw's image.
#[test]
fn a_task_draw_renders_every_view() {
    let task = common::compile("ref_quads.task", Arch::Sm86);
    let mesh = common::compile("ref_quads.mesh", Arch::Sm86);
    let run = |mask| {
        spvsass::Draw::new(Some(&task.binary), &mesh.binary, [1, 1, 1])
            .view_mask(mask)
            .run()
            .map(|r| r.draw)
            .expect("simulates")
    };
    let (plain, views) = (run(0), run(0b11));
    assert_eq!(
        views.statistics.task_invocations,
        2 * plain.statistics.task_invocations
    );
    assert_eq!(views.workgroups.len(), 2 * plain.workgroups.len());
    let one = render(&plain, 1);
    let two = render(&views, 2);
    let covered = one.pixels().iter().filter(|p| p[3] != 0.0).count();
    assert!(covered > 0);
    for layer in 0..2 {
        for y in 0..SIDE {
            for x in 0..SIDE {
                assert_eq!(
                    two.pixel(x, y, layer),
                    one.pixel(x, y, 0),
                    "layer {layer} ({x}, {y})"
                );
            }
        }
    }
}

/// A pipeline-statistics query under multiview takes one slot per view:
/// the first holds the whole draw's counts, the others zeros
/// (docs/HARDWARE.md, "Multiview").
#[test]
fn queries_take_one_slot_per_view() {
    let plain = draw(0);
    assert_eq!(plain.queries, vec![plain.statistics]);
    for mask in [0b1, 0b101, 0b1111] {
        let d = draw(mask);
        let views = mask.count_ones() as usize;
        assert_eq!(d.queries.len(), views, "mask {mask:#b}");
        assert_eq!(d.queries[0], d.statistics, "mask {mask:#b}");
        assert_eq!(
            d.statistics.mesh_invocations,
            views as u64 * plain.statistics.mesh_invocations
        );
        for q in &d.queries[1..] {
            assert_eq!(
                *q,
                spvsass::sim::PipelineStatistics::default(),
                "mask {mask:#b}"
            );
        }
    }
}

/// Mesh pipelines render at most 4 views (maxMeshMultiviewViewCount):
/// a view mask reaching view 4 is refused, naming the view.
#[test]
fn a_fifth_view_is_refused() {
    let mesh = common::compile("ref_views.mesh", Arch::Sm86);
    let err = spvsass::Draw::new(None, &mesh.binary, [1, 1, 1])
        .view_mask(0b10001)
        .run()
        .map(|r| r.draw)
        .expect_err("view 4 is past the limit");
    let text = err.to_string();
    assert!(text.contains("view 4 is past the 4 views"), "{text}");
    assert!(text.contains("0b10001"), "{text}");
}
