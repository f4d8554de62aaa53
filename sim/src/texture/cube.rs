//! Cube map face selection and face coordinates, as Vulkan's "Cube Map
//! Face Selection and Transformations" table gives them. Where two or
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
/// direction.
pub fn face_coords(d: [f32; 3]) -> (u32, f32, f32) {
    let (face, sc, tc, ma) = select(d);
    let m = ma.abs();
    (face, 0.5 * (sc / m) + 0.5, 0.5 * (tc / m) + 0.5)
}

/// Derivatives of `s` and `t` along one screen axis from the
/// direction's derivative `dd` there (the spec's formula for cube
/// gradients).
pub fn face_derivatives(d: [f32; 3], dd: [f32; 3]) -> [f32; 2] {
    let (face, sc, tc, ma) = select(d);
    let (dsc, dtc, dma) = match face {
        0 => (-dd[2], -dd[1], dd[0]),
        1 => (dd[2], -dd[1], dd[0]),
        2 => (dd[0], dd[2], dd[1]),
        3 => (dd[0], -dd[2], dd[1]),
        4 => (dd[0], -dd[1], dd[2]),
        _ => (-dd[0], -dd[1], dd[2]),
    };
    let m = ma.abs();
    let dm = dma * ma.signum();
    [0.5 * (dsc - sc * dm / m) / m, 0.5 * (dtc - tc * dm / m) / m]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_by_hand() {
        assert_eq!(face_coords([1.0, 0.0, 0.0]), (0, 0.5, 0.5));
        // +X: s from -z, t from -y.
        assert_eq!(face_coords([1.0, -0.5, -0.5]), (0, 0.75, 0.75));
        assert_eq!(face_coords([-1.0, 0.5, -0.5]), (1, 0.25, 0.25));
        assert_eq!(face_coords([0.5, 1.0, 0.5]), (2, 0.75, 0.75));
        assert_eq!(face_coords([0.5, -1.0, 0.5]), (3, 0.75, 0.25));
        assert_eq!(face_coords([0.5, 0.5, 2.0]), (4, 0.625, 0.375));
        assert_eq!(face_coords([0.5, 0.5, -2.0]), (5, 0.375, 0.375));
        // Ties prefer Z, then Y.
        assert_eq!(face_coords([1.0, 1.0, 1.0]).0, 4);
        assert_eq!(face_coords([1.0, -1.0, 0.0]).0, 3);
    }

    #[test]
    fn derivatives_on_the_positive_z_face() {
        // On +Z at (0, 0, 1), moving x by 1 moves s by 1/2.
        assert_eq!(
            face_derivatives([0.0, 0.0, 1.0], [1.0, 0.0, 0.0]),
            [0.5, 0.0]
        );
        assert_eq!(
            face_derivatives([0.0, 0.0, 2.0], [0.0, 1.0, 0.0]),
            [0.0, -0.25]
        );
    }
}
