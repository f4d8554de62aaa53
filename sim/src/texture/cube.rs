//! Cube map face selection and face coordinates, as Vulkan's "Cube Map
//! Face Selection and Transformations" table gives them, and the texels
//! across a face's edge that seamless filtering reads ("Cube Map Edge
//! Handling"). Where two or
//! more components tie for the largest magnitude, Z is preferred to Y and
//! Y to X (the spec leaves ties to the implementation; an inference).

/// The face (0..6: +X, -X, +Y, -Y, +Z, -Z) a direction selects, its
/// `sc`, `tc` and major-axis `ma` (with sign), before `s = (sc/|ma| + 1)/2`.
pub fn select(d: [f32; 3]) -> (u32, f32, f32, f32) {
    let [x, y, z] = d;
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    if az >= ax && az >= ay {
        if z >= 0.0 {
            (4, x, -y, z)
        } else {
            (5, -x, -y, z)
        }
    } else if ay >= ax {
        if y >= 0.0 {
            (2, x, z, y)
        } else {
            (3, x, -z, y)
        }
    } else if x >= 0.0 {
        (0, -z, -y, x)
    } else {
        (1, z, -y, x)
    }
}

/// The face and the face's normalised coordinates `s`, `t` of a
/// direction whose major component has magnitude 1, as the texture unit
/// takes them: `sc` and `tc` are not divided by `|ma|`, so a longer
/// direction reaches past the face's edges and a shorter one stays near
/// its centre (the H200 under CUDA, docs/TEXTURES.md "Cube directions";
/// compiled code scales the direction first).
pub fn face_coords(d: [f32; 3]) -> (u32, f32, f32) {
    let (face, sc, tc, _) = select(d);
    (
        face,
        0.5 * sc.clamp(-1.0, 1.0) + 0.5,
        0.5 * tc.clamp(-1.0, 1.0) + 0.5,
    )
}

/// `sc`, `tc` and the major-axis component `ma` of vector `v` on `face`
/// (the face table's row, whichever component of `v` is largest).
fn on_face(face: u32, v: [f32; 3]) -> (f32, f32, f32) {
    match face {
        0 => (-v[2], -v[1], v[0]),
        1 => (v[2], -v[1], v[0]),
        2 => (v[0], v[2], v[1]),
        3 => (v[0], -v[2], v[1]),
        4 => (v[0], -v[1], v[2]),
        _ => (-v[0], -v[1], v[2]),
    }
}

/// Derivatives of `s` and `t` along one screen axis from the
/// direction's derivative `dd` there, as the spec's formula for cube
/// gradients projects them (what lavapipe does; the H100 does
/// [`face_derivatives`]).
pub fn projected_derivatives(d: [f32; 3], dd: [f32; 3]) -> [f32; 2] {
    let (face, sc, tc, ma) = select(d);
    let (dsc, dtc, dma) = on_face(face, dd);
    let m = ma.abs();
    let dm = dma * ma.signum();
    [0.5 * (dsc - sc * dm / m) / m, 0.5 * (dtc - tc * dm / m) / m]
}

/// Face coordinates in a cube derivative are rounded up to multiples of
/// 2^−23 (docs/TEXTURES.md, "3D and cube gradients").
const FACE_UNITS: f32 = (1u32 << 23) as f32;

/// The face derivative in texels (faces of `size` texels) of direction
/// `d` moving by `dd`, as the H100 takes it: a forward difference of the
/// face coordinates `s`, `t` of `d + dd` and `d` on `d`'s face, each
/// rounded up to a multiple of 2^−23; where `d + dd` lies past an edge
/// (a tangent component `x` larger than its major component `m'`, taken
/// with the sign it has on `d`'s side of the centre, and than the other
/// tangent), its coordinate across that edge is unfolded onto the
/// neighbouring face, ±(2 − m'/|x|), and the other divided by |x|. Past
/// the centre (`m'` negative) that unfolding reaches on across the
/// neighbour, beyond 2; only where no tangent is the largest there (on a
/// diagonal or the axis itself) are both infinite (fitted to the H200's
/// tex_grad3d_rho and tex_grad_pair and the H100's tex_grad3d;
/// docs/TEXTURES.md, "3D and cube gradients"). The f32 operations are
/// those backend/src/from_ir/image_grad.rs emits.
pub fn face_derivatives(d: [f32; 3], dd: [f32; 3], size: f32) -> [f32; 2] {
    let (face, sc, tc, ma) = select(d);
    let (sc2, tc2, ma2) = on_face(face, [d[0] + dd[0], d[1] + dd[1], d[2] + dd[2]]);
    let sign = if ma < 0.0 { -1.0 } else { 1.0 };
    let (m, m2) = (ma.abs(), ma2 * sign);
    let big = sc2.abs().max(tc2.abs()).max(m2);
    // Whether tangent `x` of the moved point is its largest component:
    // the point lies past that edge of the face.
    let past = |x: f32, other: f32| x.abs() > m2 && x.abs() > other.abs();
    if m2 < 0.0 && !past(sc2, tc2) && !past(tc2, sc2) {
        // Behind the centre with no edge to cross: λ the largest.
        return [f32::INFINITY; 2];
    }
    // The moved point's coordinate on the direction's face, unfolded
    // across an edge where its tangent `x` is the largest component.
    let unfolded = |x: f32, other: f32| {
        if past(x, other) {
            let r = m2 / x.abs();
            if x < 0.0 { r - 2.0 } else { 2.0 - r }
        } else {
            x / big
        }
    };
    let coord = |q: f32| (q.mul_add(0.5, 0.5) * FACE_UNITS).ceil();
    let step = size * (1.0 / FACE_UNITS);
    [
        (coord(unfolded(sc2, tc2)) - coord(sc / m)) * step,
        (coord(unfolded(tc2, sc2)) - coord(tc / m)) * step,
    ]
}

/// λ of a cube lookup at direction `d` with direction derivatives `dx`,
/// `dy` (faces of `size` texels): the texture unit's 2D gradient rule
/// (`filter::gradient_lod_2d`) on the face derivatives, as it takes the
/// quad NVIDIA's driver builds (docs/TEXTURES.md, "What NVIDIA's driver
/// emits for a cube textureGrad").
pub fn gradient_lod(d: [f32; 3], dx: [f32; 3], dy: [f32; 3], size: f32) -> f32 {
    super::filter::gradient_lod_2d(
        own_face_derivatives(d, dx, size),
        own_face_derivatives(d, dy, size),
    )
}

/// The face derivative (s, t) of direction `d` moving by `dd` in the
/// frame of the face `d + dd` selects: `face_derivatives` where that is
/// `d`'s face; where it is another (past an edge, or on an edge the tie
/// rule gives to the other face), the negated derivative of `-dd` at
/// `d + dd`, `d` unfolded onto that face. The two derivatives of a pair
/// are then combined (s with s, t with t) whatever faces they were taken
/// on (fitted to tex_grad_pair's slot 4, the moved direction exactly on
/// the +x/+y edge; docs/TEXTURES.md, "3D and cube gradients", rule 1).
/// The f32 operations are those backend/src/from_ir/image_grad.rs emits.
pub fn own_face_derivatives(d: [f32; 3], dd: [f32; 3], size: f32) -> [f32; 2] {
    let moved = [d[0] + dd[0], d[1] + dd[1], d[2] + dd[2]];
    if select(moved).0 == select(d).0 {
        face_derivatives(d, dd, size)
    } else {
        let [s, t] = face_derivatives(moved, [-dd[0], -dd[1], -dd[2]], size);
        [-s, -t]
    }
}

/// The direction through face coordinates `sc`, `tc` (−1..1 on the face)
/// of `face`: the inverse of the face table.
fn direction(face: u32, sc: f32, tc: f32) -> [f32; 3] {
    match face {
        0 => [1.0, -tc, -sc],
        1 => [-1.0, -tc, sc],
        2 => [sc, 1.0, tc],
        3 => [sc, -1.0, -tc],
        4 => [sc, -tc, 1.0],
        _ => [-sc, -tc, -1.0],
    }
}

/// The face and texel that texel `i`, `j` of an `n`×`n` face lands on when
/// it lies across an edge (one of them −1 or `n`): the texel of the
/// neighbouring face whose centre is nearest the direction through this
/// texel's centre. A footprint's corner texel (both across) never reaches
/// here: [`share_corner`] gives its weight to the other three.
pub fn across_edge(face: u32, i: i64, j: i64, n: u32) -> (u32, i64, i64) {
    let n_f = n as f32;
    let sc = 2.0 * (i as f32 + 0.5) / n_f - 1.0;
    let tc = 2.0 * (j as f32 + 0.5) / n_f - 1.0;
    let (f, s, t) = face_coords(direction(face, sc, tc));
    let texel = |x: f32| ((x * n_f).floor() as i64).clamp(0, i64::from(n) - 1);
    (f, texel(s), texel(t))
}

/// Gives the weight of a linear footprint's texel that lies beyond a cube
/// corner (both coordinates outside the `n`×`n` face; there is no such
/// texel) to the footprint's other three, the three texels meeting at the
/// corner, as the H100 does (its tex_cube_corner capture, all 1,024
/// one-hot lookups; docs/TEXTURES.md): the two beside it across an edge
/// each take a third rounded to nearest, the face's own texel the rest.
/// `weights` are the footprint's (entry `c`: bit 0 the upper x, bit 1 the
/// upper y), `base` its lower texel.
pub fn share_corner(weights: &mut [u32], base: [i64; 2], n: u32) {
    let outside = |v: i64| !(0..i64::from(n)).contains(&v);
    for c in 0..4 {
        let (x, y) = (base[0] + (c & 1) as i64, base[1] + (c >> 1) as i64);
        if outside(x) && outside(y) && weights[c] > 0 {
            let w = std::mem::take(&mut weights[c]);
            let third = (w + 1) / 3;
            weights[c ^ 1] += third;
            weights[c ^ 2] += third;
            weights[c ^ 3] += w - 2 * third;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_corner_texel_s_weight_goes_to_the_three_real_ones() {
        // tex_cube_corner invocation 0 on the 2×2 cube: +Z face, lower
        // texel (1, -1); (2, -1) is beyond the corner with weight 1: it
        // goes to the face's own texel (1, 0).
        let mut w = [18, 1, 221, 16];
        share_corner(&mut w, [1, -1], 2);
        assert_eq!(w, [18, 0, 222, 16]);
        // Weight 2: one to each texel across an edge.
        let mut w = [2, 6, 65, 183];
        share_corner(&mut w, [-1, -1], 2);
        assert_eq!(w, [0, 7, 66, 183]);
        // Weight 54: 18 each.
        let mut w = [74, 72, 56, 54];
        share_corner(&mut w, [1, 1], 2);
        assert_eq!(w, [92, 90, 74, 0]);
        // Inside the face, or across one edge only: unchanged.
        let mut w = [64, 64, 64, 64];
        share_corner(&mut w, [1, -1], 4);
        assert_eq!(w, [64; 4]);
    }

    #[test]
    fn faces_by_hand() {
        assert_eq!(face_coords([1.0, 0.0, 0.0]), (0, 0.5, 0.5));
        // +X: s from -z, t from -y.
        assert_eq!(face_coords([1.0, -0.5, -0.5]), (0, 0.75, 0.75));
        assert_eq!(face_coords([-1.0, 0.5, -0.5]), (1, 0.25, 0.25));
        assert_eq!(face_coords([0.5, 1.0, 0.5]), (2, 0.75, 0.75));
        assert_eq!(face_coords([0.5, -1.0, 0.5]), (3, 0.75, 0.25));
        assert_eq!(face_coords([0.25, 0.25, 1.0]), (4, 0.625, 0.375));
        assert_eq!(face_coords([0.25, 0.25, -1.0]), (5, 0.375, 0.375));
        // Not divided by the major axis: a longer direction reaches
        // further (clamped to the face), a shorter one stays nearer the
        // centre.
        assert_eq!(face_coords([0.5, 0.5, 2.0]), (4, 0.75, 0.25));
        assert_eq!(face_coords([1.5, 0.5, 2.0]), (4, 1.0, 0.25));
        assert_eq!(face_coords([0.25, 0.25, 0.5]), (4, 0.625, 0.375));
        // Ties prefer Z, then Y.
        assert_eq!(face_coords([1.0, 1.0, 1.0]).0, 4);
        assert_eq!(face_coords([1.0, -1.0, 0.0]).0, 3);
    }

    #[test]
    fn derivatives_on_the_positive_z_face() {
        // On +Z at (0, 0, 1), moving x by 1 moves s by 1/2 (the spec's
        // projection).
        assert_eq!(
            projected_derivatives([0.0, 0.0, 1.0], [1.0, 0.0, 0.0]),
            [0.5, 0.0]
        );
        assert_eq!(
            projected_derivatives([0.0, 0.0, 2.0], [0.0, 1.0, 0.0]),
            [0.0, -0.25]
        );
        // The forward difference in texels of 8-texel faces: the same
        // along the face; along the major axis (z from 1 to 2 at x = 0.5)
        // s moves from 0.75 to 0.625, 1 texel, where the projection gives
        // −0.25 of s, 2 texels.
        assert_eq!(
            face_derivatives([0.0, 0.0, 1.0], [1.0, 0.0, 0.0], 8.0),
            [4.0, 0.0]
        );
        assert_eq!(
            face_derivatives([0.5, 0.0, 1.0], [0.0, 0.0, 1.0], 8.0),
            [-1.0, 0.0]
        );
        assert_eq!(
            projected_derivatives([0.5, 0.0, 1.0], [0.0, 0.0, 1.0]),
            [-0.25, 0.0]
        );
    }

    #[test]
    fn past_the_centre_the_unfolding_goes_on() {
        // +Z at (0, 0, 1) moved to (0, 0.5, -0.25): behind the centre,
        // y the largest, so t unfolds across +Z's top edge and beyond:
        // −(2 − (−0.25)/0.5) = −2.5 (from t = 0: −2.5/2 of 8 texels),
        // s = 0/0.5 stays.
        assert_eq!(
            face_derivatives([0.0, 0.0, 1.0], [0.0, 0.5, -1.25], 8.0),
            [0.0, -10.0]
        );
        // Straight through the centre, or behind it on a diagonal: no
        // edge is the one crossed, λ the largest.
        assert_eq!(
            face_derivatives([0.0, 0.0, 1.0], [0.0, 0.0, -2.0], 8.0),
            [f32::INFINITY; 2]
        );
        assert_eq!(
            face_derivatives([0.0, 0.0, 1.0], [0.5, 0.5, -1.25], 8.0),
            [f32::INFINITY; 2]
        );
    }

    #[test]
    fn texels_across_edges_are_the_neighbours() {
        // Left of +X's texel (0, 0) (its -Z edge... sc = -z) is +Z's
        // right column: +Z's s grows with x, and +X's left edge is z = 1.
        assert_eq!(across_edge(0, -1, 0, 4), (4, 3, 0));
        // Above +Z's top row (t from -y: y = 1) is +Y's bottom row.
        assert_eq!(across_edge(4, 1, -1, 4), (2, 1, 3));
        // Right of -X's right column (sc = z: z = 1) is +Z's left column.
        assert_eq!(across_edge(1, 4, 2, 4), (4, 0, 2));
        for face in 0..6 {
            for (i, j) in [(-1, 1), (4, 2), (2, -1), (1, 4)] {
                let (f, x, y) = across_edge(face, i, j, 4);
                assert_ne!(f, face);
                // Going back across the same edge lands on the start's
                // neighbour, one texel inside.
                let (i2, j2) = (i.clamp(0, 3), j.clamp(0, 3));
                let back = [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
                    .into_iter()
                    .filter(|&(a, b)| !(0..4).contains(&a) || !(0..4).contains(&b))
                    .map(|(a, b)| across_edge(f, a, b, 4))
                    .any(|r| r == (face, i2, j2));
                assert!(back, "face {face} ({i}, {j}) → {f} ({x}, {y})");
            }
        }
    }
}
