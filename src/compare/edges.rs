//! Where the primitive edges of a simulated draw lie on the image, to tell
//! pixels whose centre is close to an edge (where sub-pixel snapping and
//! rounding of the viewport transform may legitimately decide coverage
//! differently on hardware) from the others.
//!
//! The geometry is recomputed from the draw's clip-space positions in
//! f64 pixel coordinates, unsnapped: only distances are needed, and the
//! snapping differences are what the distance threshold absorbs.

use crate::sim::raster::{POINT_SIZE_RANGE, RenderState};
use crate::sim::{Attributes, MeshDraw};

/// A segment in framebuffer pixels (x right, y down; pixel centres at
/// `n + 0.5`), on one layer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    pub layer: u32,
    pub a: [f64; 2],
    pub b: [f64; 2],
}

impl Segment {
    /// The distance from point `p` to the segment.
    pub fn distance(&self, p: [f64; 2]) -> f64 {
        let d = [self.b[0] - self.a[0], self.b[1] - self.a[1]];
        let len2 = d[0] * d[0] + d[1] * d[1];
        let t = if len2 == 0.0 {
            0.0
        } else {
            (((p[0] - self.a[0]) * d[0] + (p[1] - self.a[1]) * d[1]) / len2).clamp(0.0, 1.0)
        };
        let q = [self.a[0] + t * d[0], self.a[1] + t * d[1]];
        (p[0] - q[0]).hypot(p[1] - q[1])
    }
}

/// Every edge of every primitive the shader did not cull: triangle sides
/// (after clipping to 0 <= z <= w, w > 0, whose new sides are edges too),
/// the four sides of a point's square, the four sides of a line's
/// rectangle one pixel wide (`sim::raster`'s strict lines). Face culling is ignored: a culled triangle's
/// edges only make more pixels "near an edge", never fewer.
pub fn edges(draw: &MeshDraw, state: &RenderState) -> Vec<Segment> {
    let mut out = Vec::new();
    let to_pixels = |p: [f64; 4]| {
        [
            (p[0] / p[3] + 1.0) * 0.5 * f64::from(state.width),
            (p[1] / p[3] + 1.0) * 0.5 * f64::from(state.height),
        ]
    };
    for wg in &draw.workgroups {
        for (index, vertex_indices) in wg.indices.iter().enumerate() {
            if index >= wg.primitive_count as usize {
                break;
            }
            let primitive = wg.primitives.get(index);
            if primitive.and_then(|p| p.cull) == Some(true) {
                continue;
            }
            let layer = primitive
                .and_then(|p| p.layer)
                .and_then(|l| u32::try_from(l).ok())
                .unwrap_or(0);
            let vertices: Option<Vec<&Attributes>> = vertex_indices
                .iter()
                .map(|&v| wg.vertices.get(v as usize))
                .collect();
            let Some(positions) = vertices.and_then(|vs| {
                vs.iter()
                    .map(|v| v.position.map(|p| p.map(f64::from)))
                    .collect::<Option<Vec<[f64; 4]>>>()
            }) else {
                // The rasterizer reports such a primitive as an error.
                continue;
            };
            let mut push = |a: [f64; 2], b: [f64; 2]| out.push(Segment { layer, a, b });
            match positions.len() {
                1 => {
                    let p = positions[0];
                    if p[3] <= 0.0 {
                        continue;
                    }
                    let size = vertices_point_size(wg, vertex_indices[0])
                        .clamp(POINT_SIZE_RANGE.0, POINT_SIZE_RANGE.1);
                    let [x, y] = to_pixels(p);
                    let h = size / 2.0;
                    let c = [
                        [x - h, y - h],
                        [x + h, y - h],
                        [x + h, y + h],
                        [x - h, y + h],
                    ];
                    for i in 0..4 {
                        push(c[i], c[(i + 1) % 4]);
                    }
                }
                2 => {
                    let clipped = clip_depth(&positions);
                    if clipped.len() == 2 {
                        let [a, b] = [to_pixels(clipped[0]), to_pixels(clipped[1])];
                        // The strict line's rectangle: half a pixel on
                        // each side of the segment, ends through a and b.
                        let d = [b[0] - a[0], b[1] - a[1]];
                        let length = d[0].hypot(d[1]);
                        if length > 0.0 {
                            let n = [-d[1] / length * 0.5, d[0] / length * 0.5];
                            let c = [
                                [a[0] + n[0], a[1] + n[1]],
                                [b[0] + n[0], b[1] + n[1]],
                                [b[0] - n[0], b[1] - n[1]],
                                [a[0] - n[0], a[1] - n[1]],
                            ];
                            for i in 0..4 {
                                push(c[i], c[(i + 1) % 4]);
                            }
                        }
                    }
                }
                _ => {
                    let polygon: Vec<[f64; 2]> =
                        clip_depth(&positions).into_iter().map(to_pixels).collect();
                    for i in 0..polygon.len() {
                        push(polygon[i], polygon[(i + 1) % polygon.len()]);
                    }
                }
            }
        }
    }
    out
}

fn vertices_point_size(wg: &crate::sim::MeshWorkgroup, vertex: u32) -> f64 {
    wg.vertices
        .get(vertex as usize)
        .and_then(|v| v.point_size)
        .map_or(1.0, f64::from)
}

/// The depth half-spaces of the view volume, as signed distances: w > 0,
/// z >= 0, z <= w. x and y need no clipping for distances.
const DEPTH_PLANES: [fn(&[f64; 4]) -> f64; 3] = [|p| p[3] - 1e-12, |p| p[2], |p| p[3] - p[2]];

fn lerp(a: [f64; 4], b: [f64; 4], t: f64) -> [f64; 4] {
    std::array::from_fn(|k| a[k] + (b[k] - a[k]) * t)
}

/// Clips a polygon to the depth planes (Sutherland–Hodgman), or, given
/// two points, a segment.
fn clip_depth(points: &[[f64; 4]]) -> Vec<[f64; 4]> {
    let mut poly = points.to_vec();
    for plane in DEPTH_PLANES {
        if let [a, b] = poly[..] {
            let (da, db) = (plane(&a), plane(&b));
            poly = match (da >= 0.0, db >= 0.0) {
                (true, true) => vec![a, b],
                (true, false) => vec![a, lerp(a, b, da / (da - db))],
                (false, true) => vec![lerp(a, b, da / (da - db)), b],
                (false, false) => Vec::new(),
            };
            continue;
        }
        let mut next = Vec::new();
        for i in 0..poly.len() {
            let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
            let (da, db) = (plane(&a), plane(&b));
            if da >= 0.0 {
                next.push(a);
            }
            if (da >= 0.0) != (db >= 0.0) {
                next.push(lerp(a, b, da / (da - db)));
            }
        }
        poly = next;
    }
    poly
}

/// The distance from the centre of pixel (x, y) of `layer` to the nearest
/// edge on that layer; infinite without one.
pub fn distance_to_edge(edges: &[Segment], layer: u32, x: u32, y: u32) -> f64 {
    let centre = [f64::from(x) + 0.5, f64::from(y) + 0.5];
    edges
        .iter()
        .filter(|e| e.layer == layer)
        .map(|e| e.distance(centre))
        .fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_to_a_segment_are_euclidean() {
        let s = Segment {
            layer: 0,
            a: [0.0, 0.0],
            b: [4.0, 0.0],
        };
        assert_eq!(s.distance([2.0, 0.25]), 0.25);
        assert_eq!(s.distance([7.0, 4.0]), 5.0);
        assert_eq!(distance_to_edge(&[s], 0, 1, 0), 0.5);
        assert_eq!(distance_to_edge(&[s], 1, 1, 0), f64::INFINITY);
    }

    #[test]
    fn depth_clipping_cuts_a_triangle_behind_the_near_plane() {
        // One vertex at z < 0: the triangle becomes a quadrilateral.
        let t = [
            [0.0, 0.0, 0.5, 1.0],
            [1.0, 0.0, 0.5, 1.0],
            [0.0, 1.0, -0.5, 1.0],
        ];
        let q = clip_depth(&t);
        assert_eq!(q.len(), 4);
        assert!(q.iter().all(|p| p[2] >= 0.0));
        // A segment entirely behind it is gone.
        assert!(clip_depth(&[[0.0, 0.0, -1.0, 1.0], [1.0, 0.0, -1.0, 1.0]]).is_empty());
    }
}
