//! The weighted sum of a filtered lookup's half-float components (R16F
//! and its wider forms, the 11- and 10-bit floats of B10G11R11), as the
//! H100 forms it (docs/TEXTURES.md, "Filtering arithmetic", rule 4):
//! every texel is cut to a grid 14 bits below the leading bit of the
//! largest texel of the lookup (truncated toward zero, the low bits of
//! much smaller texels lost), the cut values are summed with their
//! weights exactly, and the sum is rounded to a half with halves away
//! from zero. Fitted to all 256 filtered half-float words of the H100's
//! tex_formats capture; a sum without a finite non-zero texel (all
//! zeros, an infinity, a NaN) is the plain sum, so all −0.0 stays −0.0.

/// Bits kept below the leading bit of the largest texel.
const GRID_BITS: i32 = 14;

/// A running sum of texels with weights in 1/256 steps.
#[derive(Clone, Debug)]
pub struct HalfSum {
    /// (weight, value) of every texel of weight > 0.
    terms: Vec<(u32, f64)>,
    /// The sum in f64 (from −0.0), for sums the grid does not apply to.
    plain: f64,
}

impl Default for HalfSum {
    fn default() -> HalfSum {
        HalfSum {
            terms: Vec::new(),
            plain: -0.0,
        }
    }
}

/// The exponent of `x`'s leading bit (x finite, not zero).
fn exponent(x: f64) -> i32 {
    // f64's biased exponent; values of f32 texels are normal in f64.
    ((x.to_bits() >> 52) & 0x7ff) as i32 - 1023
}

impl HalfSum {
    /// Adds texel `value` with `weight` 1/256 steps.
    pub fn add(&mut self, weight: u32, value: f32) {
        let v = f64::from(value);
        self.plain += f64::from(weight) / 256.0 * v;
        if weight > 0 {
            self.terms.push((weight, v));
        }
    }

    pub fn finish(&self) -> f32 {
        let finite = self.terms.iter().all(|&(_, v)| v.is_finite());
        let top = self
            .terms
            .iter()
            .filter(|&&(_, v)| v != 0.0)
            .map(|&(_, v)| exponent(v))
            .max();
        let Some(top) = top.filter(|_| finite) else {
            return round_to_half(self.plain);
        };
        let grid = f64::from(top - GRID_BITS).exp2();
        // Exact: every cut value is a multiple of `grid` below 2^15 of
        // them, times a weight below 2^9, 16 texels at most.
        let sum: f64 = self
            .terms
            .iter()
            .map(|&(w, v)| f64::from(w) * (v / grid).trunc() * grid)
            .sum();
        round_to_half(sum / 256.0)
    }
}

/// `x` rounded once to the nearest half, halves away from zero, as f32
/// (infinite beyond the largest half, 65504, by half a step or more).
pub fn round_to_half(x: f64) -> f32 {
    if !x.is_finite() || x == 0.0 {
        return x as f32;
    }
    // The spacing of halves at x: 2^(e − 10) for normal values, 2^−24
    // below 2^−14.
    let step = f64::from(exponent(x).max(-14) - 10).exp2();
    let r = (x / step).round() * step;
    if r.abs() >= 65520.0 {
        return f32::INFINITY.copysign(x as f32);
    }
    r as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filtered(texels: &[(u32, f32)]) -> f32 {
        let mut s = HalfSum::default();
        for &(w, v) in texels {
            s.add(w, v);
        }
        s.finish()
    }

    #[test]
    fn small_texels_lose_the_bits_below_the_largest_texels_grid() {
        // The H100's tex_formats invocation 28, R16F: 40384 sets the grid
        // to 2 (2^(15 − 14)); −25.015625 is cut to −24 (toward zero) and
        // the ±0.0004 texels to 0: 2036.69 → 2037 (the exact sum is
        // 2036.09 → 2036).
        let got = filtered(&[
            (59, -0.000_365_257_26),
            (13, 40384.0),
            (150, -25.015_625),
            (34, 0.000_378_370_3),
        ]);
        assert_eq!(got, 2037.0);
        // Invocation 58: 0.333740234375 (1367/4096) sets a grid of 2^−16;
        // −0.00601959228515625 (−394.5 steps) is cut to −394 steps.
        // (−394.5 · 2^−16; the result is 1207 · 2^−18.)
        let got = filtered(&[(8, 1367.0 / 4096.0), (248, -789.0 / 131_072.0)]);
        assert_eq!(got, 1207.0 / 262_144.0);
    }

    #[test]
    fn sums_round_to_a_half_with_halves_away_from_zero() {
        // tex_formats invocation 1, B10G11R11 red: 65024 with 248/256 is
        // 62992, halfway between the halves 62976 and 63008; the H100
        // gives 63008 (0.017334 with 8/256 is below the grid of 2).
        assert_eq!(filtered(&[(248, 65024.0), (8, 0.017_334)]), 63008.0);
        assert_eq!(round_to_half(-62992.0), -63008.0);
        assert_eq!(round_to_half(-2.0f64.powi(-25) * 3.0), -(2.0f32.powi(-23)));
        assert_eq!(round_to_half(65519.0), 65504.0);
        assert_eq!(round_to_half(65520.0), f32::INFINITY);
    }

    #[test]
    fn zeros_infinities_and_nans_are_summed_plainly() {
        assert_eq!(
            filtered(&[(120, -0.0), (136, -0.0)]).to_bits(),
            (-0.0f32).to_bits()
        );
        assert_eq!(filtered(&[(128, f32::INFINITY), (128, 1.0)]), f32::INFINITY);
        assert!(filtered(&[(128, f32::NAN), (128, 1.0)]).is_nan());
        // A texel of weight 0 does not set the grid.
        assert_eq!(
            filtered(&[(256, 1.0e-3), (0, 60000.0)]),
            round_to_half(1.0e-3)
        );
    }
}
