//! Clipping in homogeneous clip space, before the perspective divide.
//!
//! Vulkan's view volume is -w <= x, y <= w and 0 <= z <= w. Primitives are
//! clipped against the depth planes exactly (a triangle crossing one
//! becomes a polygon); x and y only against a guard band a few images wide,
//! which keeps snapped coordinates small without changing which pixel
//! centres of the image are covered. Attributes are interpolated linearly
//! in clip space, which is what perspective-correct interpolation needs.

/// The guard band in normalized device coordinates: x/w and y/w within
/// ±4, i.e. 1.5 images beyond each side. Snapped coordinates then stay below
/// 2^24 for images of up to 16384 pixels a side, and edge functions (products
/// of two of them) far below 2^63.
const GUARD_BAND: f64 = 4.0;
/// w must be positive; clipping keeps w at least this, so the divide by w
/// is finite. (0 <= z <= w already implies w >= 0.)
const W_MIN: f64 = 1e-12;

/// A vertex in clip space with the attribute it carries.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClipVertex {
    pub pos: [f64; 4],
    pub colour: [f64; 4],
}

impl ClipVertex {
    /// The point `t` of the way from `self` to `to`.
    fn lerp(&self, to: &ClipVertex, t: f64) -> ClipVertex {
        let mix = |a: [f64; 4], b: [f64; 4]| std::array::from_fn(|i| a[i] + (b[i] - a[i]) * t);
        ClipVertex {
            pos: mix(self.pos, to.pos),
            colour: mix(self.colour, to.colour),
        }
    }
}

/// A half-space `dot(coeffs, pos) - offset >= 0`.
struct Plane {
    coeffs: [f64; 4],
    offset: f64,
}

impl Plane {
    fn distance(&self, v: &ClipVertex) -> f64 {
        (0..4).map(|i| self.coeffs[i] * v.pos[i]).sum::<f64>() - self.offset
    }
}

const fn plane(x: f64, y: f64, z: f64, w: f64, offset: f64) -> Plane {
    Plane {
        coeffs: [x, y, z, w],
        offset,
    }
}

const PLANES: [Plane; 7] = [
    plane(0.0, 0.0, 0.0, 1.0, W_MIN),       // w > 0
    plane(0.0, 0.0, 1.0, 0.0, 0.0),         // near: z >= 0
    plane(0.0, 0.0, -1.0, 1.0, 0.0),        // far: z <= w
    plane(1.0, 0.0, 0.0, GUARD_BAND, 0.0),  // x >= -g w
    plane(-1.0, 0.0, 0.0, GUARD_BAND, 0.0), // x <= g w
    plane(0.0, 1.0, 0.0, GUARD_BAND, 0.0),  // y >= -g w
    plane(0.0, -1.0, 0.0, GUARD_BAND, 0.0), // y <= g w
];

/// The crossing of the edge between an inside and an outside vertex,
/// always computed from the inside one: two triangles sharing an edge get
/// the same new vertex, so clipping keeps them watertight.
fn crossing(inside: &ClipVertex, d_in: f64, outside: &ClipVertex, d_out: f64) -> ClipVertex {
    inside.lerp(outside, d_in / (d_in - d_out))
}

/// Whether a vertex is inside every plane (the common case: no clipping).
pub fn inside_all(v: &ClipVertex) -> bool {
    PLANES.iter().all(|p| p.distance(v) >= 0.0)
}

/// Clips a convex polygon (Sutherland–Hodgman, plane after plane). The
/// result is empty or has at least three vertices.
pub fn clip_polygon(polygon: &[ClipVertex]) -> Vec<ClipVertex> {
    let mut current = polygon.to_vec();
    let mut next = Vec::with_capacity(polygon.len() + PLANES.len());
    for plane in &PLANES {
        next.clear();
        for (i, v) in current.iter().enumerate() {
            let w = &current[(i + 1) % current.len()];
            let (dv, dw) = (plane.distance(v), plane.distance(w));
            if dv >= 0.0 {
                next.push(*v);
            }
            if dv >= 0.0 && dw < 0.0 {
                next.push(crossing(v, dv, w, dw));
            } else if dv < 0.0 && dw >= 0.0 {
                next.push(crossing(w, dw, v, dv));
            }
        }
        std::mem::swap(&mut current, &mut next);
        if current.len() < 3 {
            return Vec::new();
        }
    }
    current
}

/// Clips a segment; `None` when nothing of it is left.
pub fn clip_segment(a: ClipVertex, b: ClipVertex) -> Option<(ClipVertex, ClipVertex)> {
    let (mut a, mut b) = (a, b);
    for plane in &PLANES {
        let (da, db) = (plane.distance(&a), plane.distance(&b));
        match (da >= 0.0, db >= 0.0) {
            (true, true) => {}
            (false, false) => return None,
            (true, false) => b = crossing(&a, da, &b, db),
            (false, true) => a = crossing(&b, db, &a, da),
        }
    }
    Some((a, b))
}

/// Whether a point is drawn: Vulkan passes a point through clipping
/// unchanged when its vertex lies in the view volume, and discards it
/// otherwise (even if its square would reach into the image).
pub fn point_in_volume(v: &ClipVertex) -> bool {
    let [x, y, z, w] = v.pos;
    w > 0.0 && (-w..=w).contains(&x) && (-w..=w).contains(&y) && (0.0..=w).contains(&z)
}
