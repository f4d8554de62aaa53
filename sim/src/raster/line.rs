//! Lines, rasterized as Vulkan's non-strict lines: the parallelogram
//! with the segment as its major axis and sides one pixel long along the
//! minor axis (x-major when |Δx| >= |Δy|).
//!
//! Why the parallelogram and not the diamond-exit ("Bresenham") rule:
//! it is what Vulkan describes when `strictLines` is false and what
//! `VK_EXT_line_rasterization` calls the default for non-strict lines;
//! it reuses the exact fixed-point edge functions and top-left rule of
//! triangles, so segments meeting end to end share their end edge and
//! cover each pixel centre there once, with no separate per-pixel diamond
//! test. Line width is 1 (mesh pipelines have no per-primitive width).

use super::clip::{ClipVertex, UserPlanes, clip_segment};
use super::edge::{Point, area2, cover};
use super::interpolate::{ScreenVertex, Shading, perspective};
use super::triangle::Sample;
use super::viewport::{HALF, Viewport, centre};

/// Rasterizes one segment given in clip space.
pub fn rasterize(
    segment: [ClipVertex; 2],
    shading: Shading,
    user: UserPlanes,
    viewport: &Viewport,
    mut emit: impl FnMut(Sample),
) {
    let Some((a, b)) = clip_segment(segment[0], segment[1], user) else {
        return;
    };
    let [a, b] = [a, b].map(|v| ScreenVertex {
        at: viewport.snap(v.pos),
        colour: v.colour,
    });
    let (dx, dy) = (b.at.x - a.at.x, b.at.y - a.at.y);
    if dx == 0 && dy == 0 {
        return;
    }
    let (ox, oy) = if dx.abs() >= dy.abs() {
        (0, HALF)
    } else {
        (HALF, 0)
    };
    let corner = |v: &ScreenVertex, s: i64| Point {
        x: v.at.x + s * ox,
        y: v.at.y + s * oy,
    };
    let quad = [corner(&a, -1), corner(&b, -1), corner(&b, 1), corner(&a, 1)];
    let length2 = (dx * dx + dy * dy) as f64;
    for t in [[quad[0], quad[1], quad[2]], [quad[0], quad[2], quad[3]]] {
        let t = if area2(t[0], t[1], t[2]) < 0 {
            [t[0], t[2], t[1]]
        } else {
            t
        };
        cover(t, viewport, |c| {
            let colour = match shading {
                Shading::Flat(colour) => colour,
                Shading::Smooth => {
                    // Vulkan's line interpolation: the sample projected
                    // onto the segment, clamped to its ends.
                    let (px, py) = (centre(i64::from(c.x)), centre(i64::from(c.y)));
                    let along = ((px - a.at.x) * dx + (py - a.at.y) * dy) as f64 / length2;
                    let s = along.clamp(0.0, 1.0);
                    perspective([&a, &b], [1.0 - s, s])
                }
            };
            emit(Sample {
                x: c.x,
                y: c.y,
                colour,
            });
        });
    }
}
