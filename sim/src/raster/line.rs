//! Lines, rasterized as Vulkan's strict lines (`strictLines`, "Basic Line
//! Segment Rasterization"), as the H100 draws them: the rectangle one
//! pixel wide centred on the segment, its short sides through the two
//! endpoints. A pixel is covered when its centre lies in the rectangle.
//!
//! The test is exact, on the snapped endpoints (1/256 pixel, as
//! triangles): with `d = b - a` and the centre `p`, `t = (p - a)·d` must lie
//! in `[0, |d|²]` and the cross product `c = (p - a)×d` must satisfy
//! `|c| <= |d|/2` (squared, in 128-bit integers). A centre exactly on a
//! side belongs to the line only if that side is a top or left edge, as
//! for triangles: its outward normal points left, or straight up. So two
//! segments meeting end to end in one direction cover the joint once, and
//! a line along a pixel boundary takes the row above or the column to the
//! left. docs/HARDWARE.md, "Lines", compares the rule with the H100's
//! captures. Line width is 1 (mesh pipelines have no per-primitive width).

use super::clip::{ClipVertex, UserPlanes, clip_segment};
use super::interpolate::{ScreenVertex, Shading, perspective};
use super::triangle::Sample;
use super::viewport::{HALF, ONE, Viewport, centre};

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
    let rect = Rectangle::new([a.at.x, a.at.y], [b.at.x, b.at.y]);
    let Some(rect) = rect else {
        return;
    };
    rect.cover(viewport, |x, y, along| {
        let colour = match shading {
            Shading::Flat(colour) => colour,
            Shading::Smooth => {
                // Vulkan's line interpolation: the sample projected onto
                // the segment (inside the rectangle, within its ends).
                let s = along.clamp(0.0, 1.0);
                perspective([&a, &b], [1.0 - s, s])
            }
        };
        emit(Sample { x, y, colour });
    });
}

/// The rectangle of a segment from `a` to `b` (sub-pixel units).
struct Rectangle {
    a: [i64; 2],
    d: [i64; 2],
    /// |d|².
    length2: i128,
    /// Whether a centre on the side where `c > 0`, on the side where
    /// `c < 0`, on the start and on the end edge belongs to the line.
    on_plus: bool,
    on_minus: bool,
    on_start: bool,
    on_end: bool,
}

/// Whether an edge with outward normal `n` is a top or left edge (a
/// centre on it is inside): `n` points left, or straight up (y down).
fn top_left(n: [i64; 2]) -> bool {
    n[0] < 0 || (n[0] == 0 && n[1] < 0)
}

impl Rectangle {
    /// None for a segment of zero length (it covers nothing).
    fn new(a: [i64; 2], b: [i64; 2]) -> Option<Rectangle> {
        let d = [b[0] - a[0], b[1] - a[1]];
        if d == [0, 0] {
            return None;
        }
        // c = (p - a)·(dy, -dx): positive on the side (dy, -dx) points to.
        Some(Rectangle {
            a,
            d,
            length2: i128::from(d[0]) * i128::from(d[0]) + i128::from(d[1]) * i128::from(d[1]),
            on_plus: top_left([d[1], -d[0]]),
            on_minus: top_left([-d[1], d[0]]),
            on_start: top_left([-d[0], -d[1]]),
            on_end: top_left(d),
        })
    }

    /// Whether the centre `p` is covered; with the position of its
    /// projection along the segment (0 at `a`, 1 at `b`).
    fn covers(&self, p: [i64; 2]) -> Option<f64> {
        let r = [i128::from(p[0] - self.a[0]), i128::from(p[1] - self.a[1])];
        let d = self.d.map(i128::from);
        let t = r[0] * d[0] + r[1] * d[1];
        let c = r[0] * d[1] - r[1] * d[0];
        let along = t < self.length2 && t > 0
            || (t == 0 && self.on_start)
            || (t == self.length2 && self.on_end);
        // |c| <= |d| / 2  <=>  4c² <= |d|², in sub-pixel units: the
        // rectangle is HALF wide on each side, c / |d| being the distance.
        let half2 = i128::from(HALF) * i128::from(HALF);
        let (c2, w2) = (c * c, half2 * self.length2);
        let across = c2 < w2 || (c2 == w2 && if c > 0 { self.on_plus } else { self.on_minus });
        (along && across).then(|| t as f64 / self.length2 as f64)
    }

    /// Visits every covered pixel centre of an image of `viewport` size,
    /// row by row from the top: each row's candidates are the centres
    /// within a pixel of the span where the row's centre line crosses the
    /// rectangle, each tested exactly.
    fn cover(&self, viewport: &Viewport, mut visit: impl FnMut(u32, u32, f64)) {
        let (a, d) = (self.a, self.d);
        let b = [a[0] + d[0], a[1] + d[1]];
        // The rectangle's corners lie within HALF of the endpoints.
        let lo = |i: usize| a[i].min(b[i]) - HALF;
        let hi = |i: usize| a[i].max(b[i]) + HALF;
        let (y0, y1) = Viewport::centre_span(lo(1), hi(1), viewport.height);
        let (x0, x1) = Viewport::centre_span(lo(0), hi(0), viewport.width);
        let length = (self.length2 as f64).sqrt();
        for y in y0..=y1 {
            let py = centre(y);
            // The row's line p = (x, py) meets the slabs 0 <= t <= |d|² and
            // |c| <= HALF·|d|, both linear in x; a pixel of margin on each
            // side absorbs the rounding of this float estimate.
            let ry = (py - a[1]) as f64;
            let mut span = (lo(0) as f64, hi(0) as f64);
            let (dx, dy) = (d[0] as f64, d[1] as f64);
            // t(x) = (x - ax)·dx + ry·dy, c(x) = (x - ax)·dy - ry·dx.
            for (slope, offset, min, max) in [
                (dx, ry * dy, 0.0, self.length2 as f64),
                (dy, -ry * dx, -(HALF as f64) * length, HALF as f64 * length),
            ] {
                if slope == 0.0 {
                    if offset < min - 1.0 || offset > max + 1.0 {
                        span = (1.0, 0.0);
                    }
                    continue;
                }
                let (u, v) = ((min - offset) / slope, (max - offset) / slope);
                let (u, v) = (u.min(v) + a[0] as f64, u.max(v) + a[0] as f64);
                span = (span.0.max(u), span.1.min(v));
            }
            if span.0 > span.1 {
                continue;
            }
            let (first, last) = Viewport::centre_span(
                span.0.floor() as i64 - ONE,
                span.1.ceil() as i64 + ONE,
                viewport.width,
            );
            for x in first.max(x0)..=last.min(x1) {
                if let Some(along) = self.covers([centre(x), py]) {
                    // x, y are within the image (u32 sizes).
                    visit(x as u32, y as u32, along);
                }
            }
        }
    }
}
