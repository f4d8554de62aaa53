//! Triangle coverage against hand-computed pixel sets: the top-left rule,
//! facing and culling, clipping against the depth planes.

use crate::raster_common;

use raster_common::*;
use spvsass_sim::raster::{CullMode, FrontFace, RenderState};

#[test]
fn two_triangles_sharing_a_diagonal_cover_every_pixel_once() {
    // The diagonal (0,0)-(16,16) passes through every pixel centre (i+½, i+½).
    let d = draw(
        "triangles",
        &[&[0, 1, 2], &[0, 2, 3]],
        vec![at(0.0, 0.0), at(16.0, 0.0), at(16.0, 16.0), at(0.0, 16.0)],
    );
    let c = counts(&d, &state());
    assert!(c.iter().flatten().all(|&n| n == 1), "\n{}", picture(&c));
}

#[test]
fn a_fan_around_an_inner_vertex_covers_every_pixel_once() {
    // Eight triangles around (7.5, 8.5), a pixel centre, with edges in
    // every direction (horizontal, vertical, diagonal through centres,
    // and off-grid ones), wound both ways.
    let rim = [
        (0.0, 0.0),
        (7.5, 0.0),
        (16.0, 0.0),
        (16.0, 8.5),
        (16.0, 16.0),
        (5.25, 16.0),
        (0.0, 16.0),
        (0.0, 3.7),
    ];
    let mut vertices = vec![at(7.5, 8.5)];
    vertices.extend(rim.iter().map(|&(x, y)| at(x, y)));
    let tris: Vec<Vec<u32>> = (0..8u32)
        .map(|i| {
            let (a, b) = (1 + i, 1 + (i + 1) % 8);
            if i % 2 == 0 {
                vec![0, a, b]
            } else {
                vec![b, a, 0]
            }
        })
        .collect();
    let refs: Vec<&[u32]> = tris.iter().map(Vec::as_slice).collect();
    let c = counts(&draw("triangles", &refs, vertices), &state());
    assert!(c.iter().flatten().all(|&n| n == 1), "\n{}", picture(&c));
}

#[test]
fn an_edge_through_pixel_centres_belongs_to_the_top_left_triangle() {
    // Upper-left half of the square of centres (4.5..10.5, 2.5..8.5): its
    // top edge (y = 2.5) and left edge (x = 4.5) keep their centres; its
    // diagonal x + y = 13 is a right edge and loses them (i + j = 12).
    let upper = draw(
        "triangles",
        &[&[0, 1, 2]],
        vec![at(4.5, 2.5), at(10.5, 2.5), at(4.5, 8.5)],
    );
    assert_eq!(
        covered(&upper, &state()),
        expected(|i, j| i >= 4 && j >= 2 && i + j <= 11)
    );
    // The lower-right half: the diagonal is its left edge (kept), x = 10.5
    // its right and y = 8.5 its bottom edge (lost).
    let lower = draw(
        "triangles",
        &[&[0, 1, 2]],
        vec![at(10.5, 2.5), at(10.5, 8.5), at(4.5, 8.5)],
    );
    assert_eq!(
        covered(&lower, &state()),
        expected(|i, j| i <= 9 && j <= 7 && i + j >= 12)
    );
}

#[test]
fn coverage_does_not_depend_on_winding() {
    let cw = draw(
        "triangles",
        &[&[0, 1, 2]],
        vec![at(1.2, 0.7), at(14.9, 5.3), at(3.3, 13.1)],
    );
    let mut ccw = cw.clone();
    ccw.workgroups[0].indices = vec![vec![0, 2, 1]];
    assert_eq!(covered(&cw, &state()), covered(&ccw, &state()));
    assert!(!covered(&cw, &state()).is_empty());
}

/// One triangle seen counter-clockwise on the image (y down): down the
/// left side, up to the right, back along the top; and its mirror.
fn wound(counter_clockwise: bool) -> spvsass_sim::MeshDraw {
    let order: &[u32] = if counter_clockwise {
        &[0, 1, 2]
    } else {
        &[0, 2, 1]
    };
    draw(
        "triangles",
        &[order],
        vec![at(2.0, 2.0), at(2.0, 12.0), at(12.0, 2.0)],
    )
}

fn drawn(counter_clockwise: bool, cull_mode: CullMode, front_face: FrontFace) -> bool {
    let s = RenderState {
        cull_mode,
        front_face,
        ..state()
    };
    !covered(&wound(counter_clockwise), &s).is_empty()
}

#[test]
fn back_face_culling_with_counter_clockwise_front_faces() {
    assert!(drawn(true, CullMode::Back, FrontFace::CounterClockwise));
    assert!(!drawn(false, CullMode::Back, FrontFace::CounterClockwise));
}

#[test]
fn back_face_culling_with_clockwise_front_faces() {
    assert!(!drawn(true, CullMode::Back, FrontFace::Clockwise));
    assert!(drawn(false, CullMode::Back, FrontFace::Clockwise));
}

#[test]
fn front_face_culling_keeps_back_faces() {
    assert!(!drawn(true, CullMode::Front, FrontFace::CounterClockwise));
    assert!(drawn(false, CullMode::Front, FrontFace::CounterClockwise));
}

#[test]
fn front_and_back_culling_removes_both_windings() {
    assert!(!drawn(
        true,
        CullMode::FrontAndBack,
        FrontFace::CounterClockwise
    ));
    assert!(!drawn(false, CullMode::FrontAndBack, FrontFace::Clockwise));
}

#[test]
fn no_culling_draws_both_windings() {
    assert!(drawn(true, CullMode::None, FrontFace::CounterClockwise));
    assert!(drawn(false, CullMode::None, FrontFace::CounterClockwise));
}

/// A triangle covering the whole image, with depth z = a + b·x_ndc
/// (w = 1): ndc corners (-1,-1), (3,-1), (-1,3).
fn depth_ramp(a: f32, b: f32) -> spvsass_sim::MeshDraw {
    let v = |x: f32, y: f32| with_position([x, y, a + b * x, 1.0]);
    draw(
        "triangles",
        &[&[0, 1, 2]],
        vec![v(-1.0, -1.0), v(3.0, -1.0), v(-1.0, 3.0)],
    )
}

#[test]
fn near_plane_clips_where_z_is_negative() {
    // z = x_ndc / 2: the near plane z = 0 is the vertical line x_ndc = 0,
    // framebuffer x = 8; columns 8..15 stay.
    assert_eq!(
        covered(&depth_ramp(0.0, 0.5), &state()),
        expected(|i, _| i >= 8)
    );
}

#[test]
fn far_plane_clips_where_z_exceeds_w() {
    // z = 1 + x_ndc / 4: z <= w = 1 where x_ndc <= 0; columns 0..7 stay.
    assert_eq!(
        covered(&depth_ramp(1.0, 0.25), &state()),
        expected(|i, _| i <= 7)
    );
}

#[test]
fn a_triangle_behind_the_eye_is_not_drawn() {
    let v = |x: f32, y: f32| with_position([x, y, -0.5, -1.0]);
    let d = draw(
        "triangles",
        &[&[0, 1, 2]],
        vec![v(-1.0, -1.0), v(3.0, -1.0), v(-1.0, 3.0)],
    );
    assert!(covered(&d, &state()).is_empty());
}

#[test]
fn a_clipped_triangle_keeps_its_facing() {
    // The near-clipped ramp is a quadrilateral; both windings behave as
    // the unclipped triangle does under back-face culling.
    let s = RenderState {
        cull_mode: CullMode::Back,
        ..state()
    };
    let ramp = depth_ramp(0.0, 0.5);
    let mut mirrored = ramp.clone();
    mirrored.workgroups[0].indices = vec![vec![0, 2, 1]];
    // (-1,-1) → (3,-1) → (-1,3) goes right along the top, then down-left:
    // clockwise on the image.
    assert!(covered(&ramp, &s).is_empty());
    assert_eq!(covered(&mirrored, &s), expected(|i, _| i >= 8));
}
