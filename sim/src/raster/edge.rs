//! Edge functions on snapped coordinates and the top-left fill rule: the
//! coverage test of triangles (lines test their rectangles exactly in
//! `line.rs`).

use super::viewport::{ONE, Viewport, centre};

/// A snapped point in sub-pixel units (x right, y down).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    pub x: i64,
    pub y: i64,
}

/// Twice the signed area of triangle `a b c`: `(b - a) × (c - a)`. With y
/// down, positive means clockwise as seen on the image.
pub fn area2(a: Point, b: Point, c: Point) -> i64 {
    (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
}

/// The edge function of the directed edge `a → b` at `p`: positive on the
/// side where the third vertex of a clockwise (positive-area) triangle
/// lies.
#[derive(Clone, Copy, Debug)]
struct Edge {
    /// Value at the pixel centre the scan starts from.
    start: i64,
    /// Change per pixel to the right and per pixel down.
    step_x: i64,
    step_y: i64,
    /// 0 on a top or left edge, 1 elsewhere: a sample exactly on an edge
    /// belongs to the triangle only if the edge is top or left.
    bias: i64,
}

impl Edge {
    fn new(a: Point, b: Point, origin: Point) -> Edge {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        // For a clockwise triangle (y down) the inside is right of each
        // edge: an edge going right with dy = 0 has the inside below it (a
        // top edge); one going up (dy < 0) has it to its right (a left edge).
        let top_left = (dy == 0 && dx > 0) || dy < 0;
        Edge {
            start: dx * (origin.y - a.y) - dy * (origin.x - a.x),
            step_x: -dy * ONE,
            step_y: dx * ONE,
            bias: if top_left { 0 } else { 1 },
        }
    }
}

/// The image pixels whose centres a triangle covers, with the three edge
/// function values there, opposite each vertex (unnormalized barycentric
/// weights: they sum to `area2`).
pub struct Coverage {
    pub x: u32,
    pub y: u32,
    pub weights: [i64; 3],
}

/// Visits every pixel centre covered by the clockwise triangle `v`
/// (`area2(v) > 0`), row by row from the top, in an image of
/// `viewport` size.
pub fn cover(v: [Point; 3], viewport: &Viewport, mut visit: impl FnMut(Coverage)) {
    let min = |f: fn(&Point) -> i64| v.iter().map(f).min().unwrap_or(0);
    let max = |f: fn(&Point) -> i64| v.iter().map(f).max().unwrap_or(0);
    let (x0, x1) = Viewport::centre_span(min(|p| p.x), max(|p| p.x), viewport.width);
    let (y0, y1) = Viewport::centre_span(min(|p| p.y), max(|p| p.y), viewport.height);
    if x0 > x1 || y0 > y1 {
        return;
    }
    let origin = Point {
        x: centre(x0),
        y: centre(y0),
    };
    // Edge i is opposite vertex i, so its value is vertex i's weight.
    let edges = [
        Edge::new(v[1], v[2], origin),
        Edge::new(v[2], v[0], origin),
        Edge::new(v[0], v[1], origin),
    ];
    let mut row = edges.map(|e| e.start);
    for y in y0..=y1 {
        let mut e = row;
        for x in x0..=x1 {
            if (0..3).all(|i| e[i] - edges[i].bias >= 0) {
                // x, y are within the image (u32 sizes).
                visit(Coverage {
                    x: x as u32,
                    y: y as u32,
                    weights: e,
                });
            }
            for i in 0..3 {
                e[i] += edges[i].step_x;
            }
        }
        for i in 0..3 {
            row[i] += edges[i].step_y;
        }
    }
}
