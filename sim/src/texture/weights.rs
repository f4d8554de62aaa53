//! The integer weights of a linear footprint's texels, as the H200's and
//! H100's captures show the hardware forms them (docs/TEXTURES.md,
//! "Filtering arithmetic"): a level's share of the lookup (in 1/256
//! units, all shares of a lookup summing to 256) is split axis by axis,
//! r (3D) first, then u, then v. Each split gives the upper texel
//! `round(share * frac / 256)` and the lower one the rest, so the weights
//! are whole 1/256 steps that always sum to the level's share. Halves
//! round down at the r split and up at the u split; at the v split up in
//! the u-upper half and down in the u-lower half (ties go toward the
//! diagonal texels (0, 0) and (1, 1) of each r slice). Inferred from
//! every filtered word of the tex_sample, tex_misc and tex_grad3d
//! captures; nothing public documents it.

/// Axis indices of `fracs`.
const U: usize = 0;
const V: usize = 1;
const R: usize = 2;

/// The axes in the order the shares are split: r (3D), u, v.
const ORDER: [usize; 3] = [R, U, V];

/// The upper side's part of `share` for fraction `frac` (0..256): the
/// rounded `share * frac / 256`, halves up or down.
fn upper(share: u32, frac: u32, halves_up: bool) -> u32 {
    let x = share * frac;
    if halves_up {
        (x + 128) >> 8
    } else {
        (x + 127) >> 8
    }
}

/// The weights of the `2^fracs.len()` texels of a footprint whose axes
/// have fractions `fracs` (0..256 each; 1 to 3 axes), for a level share
/// `share` (0..=256). Entry `c` is the texel whose coordinate along axis
/// `a` is the upper one where bit `a` of `c` is set; entries beyond the
/// footprint are 0.
pub fn corners(share: u32, fracs: &[u32]) -> [u32; 8] {
    // (corner bits so far, share) of each node of the split tree.
    let mut nodes = vec![(0usize, share)];
    for axis in ORDER.into_iter().filter(|&a| a < fracs.len()) {
        let mut next = Vec::with_capacity(nodes.len() * 2);
        for (c, s) in nodes {
            // r: halves down; u: up; v: up in the u-upper half only.
            let halves_up = axis == U || (axis == V && c & 1 == 1);
            let hi = upper(s, fracs[axis], halves_up);
            next.push((c, s - hi));
            next.push((c | 1 << axis, hi));
        }
        nodes = next;
    }
    let mut w = [0u32; 8];
    for (c, s) in nodes {
        w[c] = s;
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_axis_rounds_halves_up() {
        // 244 * 32 / 256 = 30.5: the upper texel takes 31.
        assert_eq!(corners(244, &[32])[..2], [213, 31]);
        assert_eq!(corners(256, &[64])[..2], [192, 64]);
        assert_eq!(corners(256, &[0])[..2], [256, 0]);
    }

    #[test]
    fn two_axes_round_toward_the_diagonal() {
        // u: 168 * 0 → all in the lower column; v: 168 * 48 / 256 = 31.5
        // rounds down there (the H200's tex_sample invocation 80).
        assert_eq!(corners(168, &[0, 48])[..4], [137, 0, 31, 0]);
        // u gives the upper column 168 and the lower 88; v's halves
        // (88 * 48 / 256 = 16.5, 168 * 48 / 256 = 31.5) round down in the
        // lower column and up in the upper one.
        assert_eq!(corners(256, &[168, 48])[..4], [72, 136, 16, 32]);
        let w = corners(256, &[100, 200]);
        assert_eq!(w[..4].iter().sum::<u32>(), 256);
        assert_eq!(w[4..], [0; 4]);
    }

    #[test]
    fn three_axes_split_r_then_u_then_v() {
        // The H100's tex_grad3d (invocation 63, lookup 0): a level share
        // of 40 with fractions u 224, v 208, r 240. r: 40 * 240 / 256 =
        // 37.5 rounds down (37 | 3); u: 37 * 224 / 256 = 32.375 → 32,
        // 3 * 224 / 256 = 2.625 → 3; v (upper part): 32 * 208 / 256 =
        // 26, 5 → 4.0625 → 4, 3 → 2.4375 → 2, 0 → 0. The H100's word
        // needs corner 1 (u upper, v and r lower) at 1 and corner 7 at
        // 26, which rounding 37.5 up (38 | 2) gives neither.
        let w = corners(40, &[224, 208, 240]);
        assert_eq!(w, [0, 1, 0, 2, 1, 6, 4, 26]);
        let w = corners(256, &[128, 64, 77]);
        assert_eq!(w.iter().sum::<u32>(), 256);
        // r: 256 * 77 / 256 = 77 | 179; u halves each slice: 90 | 89
        // and 39 | 38 (38.5 up to the upper column).
        assert_eq!(w[0] + w[2] + w[1] + w[3], 179);
        assert_eq!((w[0] + w[2], w[1] + w[3]), (89, 90));
        assert_eq!((w[4] + w[6], w[5] + w[7]), (38, 39));
    }
}
