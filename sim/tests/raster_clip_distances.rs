//! Clip and cull distances in the rasterizer, against hand-computed
//! coverage on the 16×16 test image (positions in framebuffer pixels; the
//! distances are set per vertex as the shader would write them).

use crate::raster_common;

use raster_common::*;
use spvsass_sim::Attributes;

/// `attrs` with gl_ClipDistance[k] = d.
fn clip(mut attrs: Attributes, k: u32, d: f32) -> Attributes {
    attrs.clip_distance.insert(k, d);
    attrs
}

/// `attrs` with gl_CullDistance[k] = d.
fn cull(mut attrs: Attributes, k: u32, d: f32) -> Attributes {
    attrs.cull_distance.insert(k, d);
    attrs
}

/// A vertex at framebuffer (x, y) (w = 1) whose clip distance 0 is
/// x - 4.25: with w = 1 the distance is linear on screen, so the kept
/// half-plane is x >= 4.25, which holds the centres of columns 4 and up.
fn left_cut(x: f32, y: f32) -> Attributes {
    clip(at(x, y), 0, x - 4.25)
}

#[test]
fn a_triangle_half_clipped_by_one_plane_covers_exactly_the_kept_part() {
    // Unclipped, the triangle covers the centres with (i + ½) + (j + ½) <
    // 15.875, i.e. i + j <= 14; the plane keeps i >= 4.
    let draw = draw(
        "triangles",
        &[&[0, 1, 2]],
        vec![
            left_cut(0.0, 0.0),
            left_cut(0.0, 15.875),
            left_cut(15.875, 0.0),
        ],
    );
    let counts = counts(&draw, &state());
    let want = expected(|i, j| i >= 4 && i + j <= 14);
    assert_eq!(covered(&draw, &state()), want, "\n{}", picture(&counts));
    // 11 + 10 + ... + 1 pixels, each once.
    assert_eq!(want.len(), 66);
}

#[test]
fn the_distance_is_kept_where_it_is_zero() {
    // gl_ClipDistance = 0 is inside (d >= 0): a triangle on the plane's
    // zero side everywhere draws as if unclipped.
    let on = |x, y| clip(at(x, y), 3, 0.0);
    let draw = draw(
        "triangles",
        &[&[0, 1, 2]],
        vec![on(0.0, 0.0), on(0.0, 15.875), on(15.875, 0.0)],
    );
    assert_eq!(covered(&draw, &state()), expected(|i, j| i + j <= 14));
}

#[test]
fn two_triangles_cut_by_one_plane_stay_watertight() {
    // A quad over the whole image, split along its diagonal x = y (which
    // passes through pixel centres: the top-left rule gives each to one
    // triangle); the plane keeps columns 4..16, each pixel exactly once.
    let v = vec![
        left_cut(0.0, 0.0),
        left_cut(0.0, 16.0),
        left_cut(16.0, 16.0),
        left_cut(16.0, 0.0),
    ];
    let draw = draw("triangles", &[&[0, 1, 2], &[0, 2, 3]], v);
    let counts = counts(&draw, &state());
    for (j, row) in counts.iter().enumerate() {
        for (i, &n) in row.iter().enumerate() {
            assert_eq!(
                n,
                u32::from(i >= 4),
                "pixel ({i}, {j})\n{}",
                picture(&counts)
            );
        }
    }
}

#[test]
fn colours_at_the_new_vertices_are_interpolated() {
    // Red = x / 16 at every vertex, w = 1: the clipped polygon's new
    // vertices on x = 4.25 carry red 4.25 / 16, so every covered pixel
    // still shows (i + ½) / 16, exactly as the unclipped triangle would.
    let v = |x: f32, y: f32| coloured(left_cut(x, y), [x / 16.0, 0.0, 0.0, 1.0]);
    let draw = draw(
        "triangles",
        &[&[0, 1, 2]],
        vec![v(0.0, 0.0), v(0.0, 15.875), v(15.875, 0.0)],
    );
    let colours = colours(&draw, &state());
    assert_eq!(colours.len(), 66);
    for (&(i, j), c) in &colours {
        let red = (i as f32 + 0.5) / 16.0;
        assert!((c[0] - red).abs() < 1e-6, "pixel ({i}, {j}): {c:?}");
    }
}

#[test]
fn a_line_is_clipped_where_the_distance_is_zero_in_clip_space() {
    // From framebuffer (0, 8.25) with w = 1 and distance 1 to (16, 8.25)
    // with w = 3 and distance -1. The distance is linear in clip space,
    // so it is 0 halfway there: clip x = (-1·1 + 1·3) / 2 = 1, w = 2, NDC
    // 0.5, framebuffer x = 12 (a screen-linear distance would cut at 8).
    // The line covers row 8 (centre 8.5 within 8.25 ± ½) up to x = 12.
    let a = coloured(
        clip(with_position(clip_at(0.0, 8.25, 0.5, 1.0)), 0, 1.0),
        [0.0, 0.0, 0.0, 1.0],
    );
    let b = coloured(
        clip(with_position(clip_at(16.0, 8.25, 0.5, 3.0)), 0, -1.0),
        [1.0, 0.0, 0.0, 1.0],
    );
    let draw = draw("lines", &[&[0, 1]], vec![a, b]);
    assert_eq!(covered(&draw, &state()), expected(|i, j| j == 8 && i < 12));
    // The new end carries red ½ and 1/w = ½. At pixel 11 (s = 11.5 / 12
    // of the way on screen) perspective-correct red is
    // (s·½·½) / ((1 - s)·1 + s·½).
    let s = 11.5 / 12.0;
    let red = (s * 0.25) / ((1.0 - s) + s * 0.5);
    let c = colours(&draw, &state())[&(11, 8)];
    assert!((f64::from(c[0]) - red).abs() < 1e-6, "{c:?}, want {red}");
}

#[test]
fn a_point_with_a_negative_clip_distance_is_discarded() {
    let point = |d: f32| {
        let v = clip(at(8.0, 8.0), 1, d);
        covered(&draw("points", &[&[0]], vec![v]), &state())
    };
    // The 1-pixel point at (8, 8) is the square [7.5, 8.5)², which holds
    // the centre (7.5, 7.5) of pixel (7, 7) on its top-left border.
    assert_eq!(point(0.0), vec![(7, 7)]);
    assert_eq!(point(2.0), vec![(7, 7)]);
    assert_eq!(point(-1e-30), vec![]);
    assert_eq!(point(f32::NAN), vec![], "NaN is outside");
}

#[test]
fn a_primitive_with_every_vertex_outside_one_cull_distance_is_culled() {
    let tri = |d: [f32; 3]| {
        let v = |k: usize, x, y| cull(cull(at(x, y), 0, d[k]), 1, 1.0);
        let draw = draw(
            "triangles",
            &[&[0, 1, 2]],
            vec![v(0, 0.0, 0.0), v(1, 0.0, 15.875), v(2, 15.875, 0.0)],
        );
        covered(&draw, &state())
    };
    assert_eq!(tri([-1.0, -2.0, -0.5]), vec![], "all outside cull 0");
    assert_eq!(tri([-1.0, f32::NAN, -0.5]), vec![], "NaN is outside");
    // One vertex inside: drawn whole (cull distances do not clip).
    assert_eq!(tri([-1.0, -2.0, 0.0]), expected(|i, j| i + j <= 14));
    // Outside different distances is no reason to cull.
    let mixed = draw(
        "triangles",
        &[&[0, 1, 2]],
        vec![
            cull(cull(at(0.0, 0.0), 0, -1.0), 1, 1.0),
            cull(cull(at(0.0, 15.875), 0, 1.0), 1, -1.0),
            cull(cull(at(15.875, 0.0), 0, -1.0), 1, -1.0),
        ],
    );
    assert_eq!(covered(&mixed, &state()).len(), 120);
}

#[test]
fn lines_and_points_are_culled_too() {
    let line = draw(
        "lines",
        &[&[0, 1]],
        vec![cull(at(0.0, 8.25), 2, -1.0), cull(at(16.0, 8.25), 2, -3.0)],
    );
    assert_eq!(covered(&line, &state()), vec![]);
    let point = draw("points", &[&[0]], vec![cull(at(8.0, 8.0), 0, -1.0)]);
    assert_eq!(covered(&point, &state()), vec![]);
}

#[test]
fn a_nan_clip_distance_is_outside() {
    // Two vertices inside, one NaN: the distance is NaN everywhere but on
    // the inside edge, so nothing of the triangle is left.
    let draw = draw(
        "triangles",
        &[&[0, 1, 2]],
        vec![
            clip(at(0.0, 0.0), 0, 1.0),
            clip(at(0.0, 15.875), 0, 1.0),
            clip(at(15.875, 0.0), 0, f32::NAN),
        ],
    );
    assert_eq!(covered(&draw, &state()), vec![]);
    let line = draw_line_nan();
    assert_eq!(covered(&line, &state()), vec![]);
}

fn draw_line_nan() -> spvsass_sim::MeshDraw {
    draw(
        "lines",
        &[&[0, 1]],
        vec![
            clip(at(0.0, 8.25), 0, 1.0),
            clip(at(16.0, 8.25), 0, f32::NAN),
        ],
    )
}

#[test]
fn an_infinite_distance_clips_like_a_far_away_plane() {
    // +∞ at one vertex, -∞ at another: the crossing of that edge is at
    // the infinite inside end's far side, i.e. the outside vertex; the
    // result is finite and draws without panicking.
    let draw = draw(
        "triangles",
        &[&[0, 1, 2]],
        vec![
            clip(at(0.0, 0.0), 0, f32::INFINITY),
            clip(at(0.0, 15.875), 0, 1.0),
            clip(at(15.875, 0.0), 0, f32::NEG_INFINITY),
        ],
    );
    let colours = colours(&draw, &state());
    assert!(colours.values().all(|c| c.iter().all(|v| v.is_finite())));
}
