//! Triangles: clipping, facing and culling, then coverage of the clipped
//! polygon as a fan of triangles sharing its first vertex (the top-left
//! rule makes the fan's inner edges cover each pixel once).

use super::clip::{ClipVertex, UserPlanes, clip_polygon, inside_all};
use super::edge::{Point, area2, cover};
use super::interpolate::{ScreenVertex, Shading, perspective};
use super::viewport::Viewport;
use super::{CullMode, FrontFace};

/// A pixel a primitive covers, with its colour there.
pub struct Sample {
    pub x: u32,
    pub y: u32,
    pub colour: [f32; 4],
}

/// Whether a polygon with twice-signed-area `area2` (y down, clockwise
/// positive) survives face culling. Vulkan's area
/// a = -½ Σ (xᵢ yᵢ₊₁ - xᵢ₊₁ yᵢ) is -area2 / 2 and a > 0 means counter-clockwise.
pub fn survives_culling(area2: i64, cull: CullMode, front_face: FrontFace) -> bool {
    let ccw = area2 < 0;
    let front = ccw == (front_face == FrontFace::CounterClockwise);
    match cull {
        CullMode::None => true,
        CullMode::Front => !front,
        CullMode::Back => front,
        CullMode::FrontAndBack => false,
    }
}

fn on_screen(v: &ClipVertex, viewport: &Viewport) -> ScreenVertex {
    ScreenVertex {
        at: viewport.snap(v.pos),
        colour: v.colour,
    }
}

fn point(v: &ScreenVertex) -> Point {
    Point {
        x: v.at.x,
        y: v.at.y,
    }
}

/// Rasterizes one triangle given in clip space, clipped by the view
/// volume and its `user` clip distances.
pub fn rasterize(
    triangle: [ClipVertex; 3],
    (shading, user): (Shading, UserPlanes),
    viewport: &Viewport,
    cull: (CullMode, FrontFace),
    mut emit: impl FnMut(Sample),
) {
    // Most triangles need no clipping: they skip the polygon's allocation.
    let clipped;
    let polygon: &[ClipVertex] = if triangle.iter().all(|v| inside_all(v, user)) {
        &triangle
    } else {
        clipped = clip_polygon(&triangle, user);
        &clipped
    };
    let Some(first) = polygon.first().map(|v| on_screen(v, viewport)) else {
        return;
    };
    let fan = || {
        polygon[1..].windows(2).map(move |w| {
            [
                first,
                on_screen(&w[0], viewport),
                on_screen(&w[1], viewport),
            ]
        })
    };
    // Facing comes from the whole polygon, so every part of a clipped
    // triangle faces the same way.
    let total: i64 = fan()
        .map(|t| area2(point(&t[0]), point(&t[1]), point(&t[2])))
        .sum();
    if total == 0 || !survives_culling(total, cull.0, cull.1) {
        return;
    }
    for t in fan() {
        // Snapping can flip a sliver of the fan; each part is scanned
        // with its own winding made clockwise. Parts of zero area cover
        // nothing.
        let t = match area2(point(&t[0]), point(&t[1]), point(&t[2])) {
            0 => continue,
            a if a < 0 => [t[0], t[2], t[1]],
            _ => t,
        };
        cover(t.each_ref().map(point), viewport, |c| {
            let colour = match shading {
                Shading::Flat(colour) => colour,
                Shading::Smooth => perspective(t.each_ref(), c.weights.map(|w| w as f64)),
            };
            emit(Sample {
                x: c.x,
                y: c.y,
                colour,
            });
        });
    }
}
