//! The integer weights of a linear footprint's texels, as the H200's
//! captures show the hardware forms them (docs/TEXTURES.md, "Filtering
//! arithmetic"): a level's share of the lookup (in 1/256 units, all
//! shares of a lookup summing to 256) is split axis by axis, u first,
//! then r (3D), then v. Each split gives the upper texel
//! `round(share * frac / 256)` and the lower one the rest, so the weights
//! are whole 1/256 steps that always sum to the level's share. Halves
//! round up at the u split; below it they round up in the u-upper half
//! and down in the u-lower half (ties go toward the footprint's diagonal
//! texels (0, 0, 0) and (1, 1, 1)). Inferred from every filtered word of
//! the tex_sample and tex_misc captures; nothing public documents it.

/// The axes in the order the shares are split: u, r, v.
const ORDER: [usize; 3] = [0, 2, 1];

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
    for (depth, axis) in ORDER.into_iter().filter(|&a| a < fracs.len()).enumerate() {
        let mut next = Vec::with_capacity(nodes.len() * 2);
        for (c, s) in nodes {
            let halves_up = depth == 0 || c & 1 == 1;
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
    fn three_axes_split_u_then_r_then_v() {
        let w = corners(256, &[128, 64, 77]);
        assert_eq!(w.iter().sum::<u32>(), 256);
        // u: 128 | 128; r in each half: 128 * 77 / 256 = 38.5 → lower
        // half 38, upper half 39; then v: 90 * 64 / 256 = 22.5, ...
        assert_eq!(w[0] + w[2], 90);
        assert_eq!(w[4] + w[6], 38);
        assert_eq!(w[1] + w[3], 89);
        assert_eq!(w[5] + w[7], 39);
        assert_eq!((w[0], w[2]), (68, 22));
        assert_eq!((w[1], w[3]), (67, 22));
    }
}
