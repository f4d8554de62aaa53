//! What the rasterizer colours pixels with: perspective-correct and flat
//! interpolation, per-primitive colours, primitives the shader culled,
//! layers, and the errors for outputs it cannot draw.

use crate::raster_common;

use raster_common::*;
use spvsass_sim::raster::{Interpolation, RasterError, RenderState, render};
use spvsass_sim::{Attributes, MeshDraw};

const BLACK: [f32; 4] = [0.0, 0.0, 0.0, 1.0];
const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];

/// A right triangle with corners at framebuffer (0,0), (16,0), (0,16);
/// the vertex at (16,0) has w = 4 and is red, the others w = 1 and black.
fn perspective_triangle() -> MeshDraw {
    let v = |x, y, w, c| coloured(with_position(clip_at(x, y, 0.0, w)), c);
    draw(
        "triangles",
        &[&[0, 1, 2]],
        vec![
            v(0.0, 0.0, 1.0, BLACK),
            v(16.0, 0.0, 4.0, RED),
            v(0.0, 16.0, 1.0, BLACK),
        ],
    )
}

#[test]
fn interpolation_is_perspective_correct() {
    // Pixel (7, 0), centre (7.5, 0.5): screen weights λ = (½, 7.5/16,
    // 0.5/16). Red = (λ₁/4) / (λ₀/1 + λ₁/4 + λ₂/1) = 7.5/64 ÷ 41.5/64 = 15/83
    // (screen-linear interpolation would give 7.5/16 = 0.46875).
    let c = colours(&perspective_triangle(), &state());
    let red = c[&(7, 0)][0];
    assert!((red - 15.0 / 83.0).abs() < 1e-6, "{red}");
    assert_eq!(c[&(7, 0)][3], 1.0);
}

#[test]
fn flat_interpolation_takes_the_first_vertex() {
    let s = RenderState {
        interpolation: Interpolation::Flat,
        ..state()
    };
    let mut d = perspective_triangle();
    d.workgroups[0].indices = vec![vec![1, 2, 0]];
    let c = colours(&d, &s);
    assert!(!c.is_empty());
    assert!(c.values().all(|&v| v == RED), "{c:?}");
}

#[test]
fn flat_lines_take_the_first_vertex() {
    let s = RenderState {
        interpolation: Interpolation::Flat,
        ..state()
    };
    let d = draw(
        "lines",
        &[&[0, 1]],
        vec![coloured(at(1.5, 4.5), BLACK), coloured(at(12.5, 4.5), RED)],
    );
    let c = colours(&d, &s);
    assert_eq!(c.len(), 11);
    assert!(c.values().all(|&v| v == BLACK), "{c:?}");
}

#[test]
fn line_colours_follow_the_projection_onto_the_segment() {
    // Pixel (6, 4), centre 6.5: t = (6.5 - 1.5) / 11 = 5/11 (equal w).
    let d = draw(
        "lines",
        &[&[0, 1]],
        vec![coloured(at(1.5, 4.5), BLACK), coloured(at(12.5, 4.5), RED)],
    );
    let red = colours(&d, &state())[&(6, 4)][0];
    assert!((red - 5.0 / 11.0).abs() < 1e-6, "{red}");
}

fn per_primitive(draw: &mut MeshDraw, attrs: Vec<Attributes>) {
    draw.workgroups[0].primitives = attrs;
}

#[test]
fn per_primitive_colour_is_flat_over_the_primitive() {
    let mut d = perspective_triangle();
    let green = [0.0, 1.0, 0.0, 0.5];
    per_primitive(&mut d, vec![coloured(Attributes::default(), green)]);
    let c = colours(&d, &state());
    assert!(!c.is_empty());
    assert!(c.values().all(|&v| v == green), "{c:?}");
}

#[test]
fn missing_colour_components_read_as_0_0_0_1() {
    let mut v = at(3.5, 3.5);
    v.generic.insert(0, [Some(0.25), None, None, None]);
    let c = colours(&draw("points", &[&[0]], vec![v]), &state());
    assert_eq!(c[&(3, 3)], [0.25, 0.0, 0.0, 1.0]);
}

#[test]
fn without_a_colour_output_fragments_are_white() {
    let c = colours(&draw("points", &[&[0]], vec![at(3.5, 3.5)]), &state());
    assert_eq!(c[&(3, 3)], [1.0; 4]);
}

fn culled(cull: bool) -> Attributes {
    Attributes {
        cull: Some(cull),
        ..Attributes::default()
    }
}

fn on_layer(layer: i32) -> Attributes {
    Attributes {
        layer: Some(layer),
        ..Attributes::default()
    }
}

#[test]
fn a_primitive_the_shader_culls_is_dropped() {
    let quad = || {
        draw(
            "triangles",
            &[&[0, 1, 2], &[0, 2, 3]],
            vec![at(0.0, 0.0), at(16.0, 0.0), at(16.0, 16.0), at(0.0, 16.0)],
        )
    };
    let mut d = quad();
    per_primitive(&mut d, vec![culled(false), culled(true)]);
    // Only the first (upper-right) half is left.
    assert_eq!(covered(&d, &state()), {
        let mut first = quad();
        first.workgroups[0].primitive_count = 1;
        covered(&first, &state())
    });
    assert_eq!(covered(&d, &state()).len(), 16 * 17 / 2);
}

#[test]
fn primitives_go_to_their_layer() {
    let mut d = draw("points", &[&[0], &[0]], vec![coloured(at(3.5, 3.5), RED)]);
    per_primitive(&mut d, vec![on_layer(0), on_layer(2)]);
    let image = render(
        &d,
        &RenderState {
            layers: 3,
            ..state()
        },
    )
    .unwrap();
    assert_eq!(image.pixel(3, 3, 0), Some(RED));
    assert_eq!(image.pixel(3, 3, 1), Some([0.0; 4]));
    assert_eq!(image.pixel(3, 3, 2), Some(RED));
}

#[test]
fn a_layer_outside_the_image_is_an_error() {
    let mut d = draw("points", &[&[0]], vec![at(3.5, 3.5)]);
    per_primitive(&mut d, vec![on_layer(-1)]);
    let err = render(&d, &state()).unwrap_err();
    assert_eq!(
        err,
        RasterError::LayerOutOfRange {
            workgroup: [0, 0, 0],
            primitive: 0,
            layer: -1,
            layers: 1
        }
    );
    assert!(err.to_string().contains("gl_Layer -1"), "{err}");
}

#[test]
fn the_last_primitive_wins_where_they_overlap() {
    let d = draw(
        "points",
        &[&[0], &[1]],
        vec![coloured(at(3.5, 3.5), BLACK), coloured(at(3.5, 3.5), RED)],
    );
    let image = render(&d, &state()).unwrap();
    assert_eq!(image.pixel(3, 3, 0), Some(RED));
    assert_eq!(image.pixel(4, 3, 0), Some([0.0; 4]), "cleared to 0,0,0,0");
}

#[test]
fn a_vertex_without_position_is_an_error() {
    let d = draw("points", &[&[0]], vec![Attributes::default()]);
    let err = render(&d, &state()).unwrap_err();
    assert_eq!(
        err,
        RasterError::NoPosition {
            workgroup: [0, 0, 0],
            vertex: 0
        }
    );
}

#[test]
fn a_nan_position_is_an_error_naming_the_component() {
    let d = draw(
        "triangles",
        &[&[0, 1, 2]],
        vec![
            at(0.0, 0.0),
            with_position([0.0, f32::NAN, 0.0, 1.0]),
            at(0.0, 9.0),
        ],
    );
    let err = render(&d, &state()).unwrap_err();
    assert!(
        matches!(
            err,
            RasterError::NotFinite {
                vertex: 1,
                what: "gl_Position.y",
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn an_image_without_pixels_is_an_error() {
    let d = draw("points", &[&[0]], vec![at(3.5, 3.5)]);
    let err = render(
        &d,
        &RenderState {
            width: 0,
            ..state()
        },
    )
    .unwrap_err();
    assert!(err.to_string().contains("image size 0x16"), "{err}");
}

#[test]
fn a_viewport_index_other_than_0_is_an_error() {
    let mut d = draw("points", &[&[0]], vec![at(3.5, 3.5)]);
    per_primitive(
        &mut d,
        vec![Attributes {
            viewport_index: Some(2),
            ..Attributes::default()
        }],
    );
    let err = render(&d, &state()).unwrap_err();
    assert!(
        matches!(err, RasterError::ViewportOutOfRange { viewport: 2, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("gl_ViewportIndex 2"), "{err}");
}
