//! Clipping in homogeneous clip space, before the perspective divide.
//!
//! Vulkan's view volume is -w <= x, y <= w and 0 <= z <= w. Primitives are
//! clipped against the depth planes exactly (a triangle crossing one
//! becomes a polygon); x and y only against a guard band a few images wide,
//! which keeps snapped coordinates small without changing which pixel
//! centres of the image are covered. Attributes are interpolated linearly
//! in clip space, which is what perspective-correct interpolation needs.
//!
//! User clip distances (gl_ClipDistance) add one half-space each,
//! distance >= 0: Vulkan interpolates a distance linearly in clip space
//! along the primitive, so each is clipped like a plane whose distance at
//! a vertex is the shader's value, and new vertices carry the
//! interpolated distances of the planes still to come. A NaN distance is
//! outside (it fails `>= 0`); where an edge runs to such a vertex the
//! crossing is the inside end, as the interpolated distance is NaN
//! everywhere else on the edge.

/// The guard band in normalized device coordinates: x/w and y/w within
/// ±4, i.e. 1.5 images beyond each side. Snapped coordinates then stay below
/// 2^24 for images of up to 16384 pixels a side, and edge functions (products
/// of two of them) far below 2^63.
const GUARD_BAND: f64 = 4.0;
/// w must be positive; clipping keeps w at least this, so the divide by w
/// is finite. (0 <= z <= w already implies w >= 0.)
const W_MIN: f64 = 1e-12;

/// The user clip distances a vertex can have (the eight clip/cull words
/// of the output layout).
pub const MAX_CLIP_DISTANCES: usize = 8;

/// A vertex in clip space with the attribute it carries.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClipVertex {
    pub pos: [f64; 4],
    pub colour: [f64; 4],
    /// gl_ClipDistance by index; the primitive's `UserPlanes` say which
    /// are used (the others are 0).
    pub clip: [f64; MAX_CLIP_DISTANCES],
}

impl ClipVertex {
    /// The point `t` of the way from `self` to `to`. The ends are
    /// returned as they are, so an infinite or NaN value at the other
    /// end does not leak into a crossing at this one (∞ · 0 is NaN).
    fn lerp(&self, to: &ClipVertex, t: f64) -> ClipVertex {
        if t == 0.0 {
            return *self;
        }
        if t == 1.0 {
            return *to;
        }
        fn mix<const N: usize>(a: [f64; N], b: [f64; N], t: f64) -> [f64; N] {
            std::array::from_fn(|i| a[i] + (b[i] - a[i]) * t)
        }
        ClipVertex {
            pos: mix(self.pos, to.pos, t),
            colour: mix(self.colour, to.colour, t),
            clip: mix(self.clip, to.clip, t),
        }
    }
}

/// The user clip distances a primitive is clipped by: bit k for
/// `gl_ClipDistance[k]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UserPlanes(pub u8);

/// One half-space a primitive is clipped against.
#[derive(Clone, Copy)]
enum Boundary<'a> {
    Volume(&'a Plane),
    /// `gl_ClipDistance[k] >= 0`.
    User(usize),
}

impl Boundary<'_> {
    fn distance(self, v: &ClipVertex) -> f64 {
        match self {
            Boundary::Volume(plane) => plane.distance(v),
            Boundary::User(k) => v.clip[k],
        }
    }
}

/// The view volume's planes, then the primitive's user planes.
fn boundaries(user: UserPlanes) -> impl Iterator<Item = Boundary<'static>> {
    let users = (0..MAX_CLIP_DISTANCES).filter(move |&k| user.0 & (1 << k) != 0);
    PLANES
        .iter()
        .map(Boundary::Volume)
        .chain(users.map(Boundary::User))
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
///
/// Only user distances can be NaN or infinite (positions are finite): a
/// NaN outside end puts the crossing at the inside end, an infinite inside
/// end at the outside end (the distance is infinite up to it).
fn crossing(inside: &ClipVertex, d_in: f64, outside: &ClipVertex, d_out: f64) -> ClipVertex {
    let t = d_in / (d_in - d_out);
    let t = if d_out.is_nan() {
        0.0
    } else if t.is_nan() {
        1.0
    } else {
        t.clamp(0.0, 1.0)
    };
    inside.lerp(outside, t)
}

/// Whether a vertex is inside every plane (the common case: no clipping).
pub fn inside_all(v: &ClipVertex, user: UserPlanes) -> bool {
    boundaries(user).all(|b| b.distance(v) >= 0.0)
}

/// Clips a convex polygon (Sutherland–Hodgman, plane after plane). The
/// result is empty or has at least three vertices.
pub fn clip_polygon(polygon: &[ClipVertex], user: UserPlanes) -> Vec<ClipVertex> {
    let mut current = polygon.to_vec();
    let mut next = Vec::with_capacity(polygon.len() + PLANES.len() + MAX_CLIP_DISTANCES);
    for plane in boundaries(user) {
        next.clear();
        for (i, v) in current.iter().enumerate() {
            let w = &current[(i + 1) % current.len()];
            let (dv, dw) = (plane.distance(v), plane.distance(w));
            // Not `< 0`: a NaN distance is outside.
            match (dv >= 0.0, dw >= 0.0) {
                (true, true) => next.push(*v),
                (true, false) => {
                    next.push(*v);
                    next.push(crossing(v, dv, w, dw));
                }
                (false, true) => next.push(crossing(w, dw, v, dv)),
                (false, false) => {}
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
pub fn clip_segment(
    a: ClipVertex,
    b: ClipVertex,
    user: UserPlanes,
) -> Option<(ClipVertex, ClipVertex)> {
    let (mut a, mut b) = (a, b);
    for plane in boundaries(user) {
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
/// unchanged when its vertex lies in the view volume and in every user
/// half-space, and discards it otherwise (even if its square would reach
/// into the image).
pub fn point_in_volume(v: &ClipVertex, user: UserPlanes) -> bool {
    let [x, y, z, w] = v.pos;
    let mut users = (0..MAX_CLIP_DISTANCES).filter(|&k| user.0 & (1 << k) != 0);
    w > 0.0
        && (-w..=w).contains(&x)
        && (-w..=w).contains(&y)
        && (0.0..=w).contains(&z)
        && users.all(|k| v.clip[k] >= 0.0)
}
