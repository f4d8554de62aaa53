//! The weighted sum of a filtered lookup's texels (weights in 1/256
//! steps, summing to 256 over all levels), formed as the H200's captures
//! show (docs/TEXTURES.md, "Filtering arithmetic"):
//!
//! - 8-bit UNORM formats (not sRGB) filter in 16-bit fixed point: each
//!   component is widened to 16 bits (`c * 257`, the same value), summed
//!   with the weights, rounded to 16 bits (halves up) and returned as
//!   `n / 65535` rounded to f32 once;
//! - every other format (floats, 16-bit and sRGB formats, depth compare
//!   results) is summed in f64 and rounded to f32 once: exact for the
//!   captured float formats, whose values are short fractions; the
//!   hardware's float arithmetic for longer values is not measured.

/// How a lookup's texels are summed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arithmetic {
    /// 16-bit fixed point (8-bit UNORM formats).
    Unorm16,
    /// f64, rounded to f32 at the end.
    Float,
}

/// A running weighted sum of four components.
#[derive(Clone, Copy, Debug)]
pub struct Blend {
    arithmetic: Arithmetic,
    fixed: [u64; 4],
    float: [f64; 4],
}

/// A component (f32 bits) as a 16-bit UNORM value: exact for the texels
/// of 8-bit UNORM formats (`c / 255`); a border colour outside 0..1 is
/// clamped (its conversion is not measured).
fn unorm16(bits: u32) -> u64 {
    let v = f64::from(f32::from_bits(bits));
    let v = if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
    (v * 65535.0).round() as u64
}

impl Blend {
    pub fn new(arithmetic: Arithmetic) -> Blend {
        Blend {
            arithmetic,
            fixed: [0; 4],
            float: [0.0; 4],
        }
    }

    /// Adds texel `v` (four f32 bit patterns) with `weight` 1/256 steps.
    pub fn add(&mut self, weight: u32, v: [u32; 4]) {
        match self.arithmetic {
            Arithmetic::Unorm16 => {
                for (sum, c) in self.fixed.iter_mut().zip(v) {
                    *sum += u64::from(weight) * unorm16(c);
                }
            }
            Arithmetic::Float => {
                for (sum, c) in self.float.iter_mut().zip(v) {
                    *sum += f64::from(weight) / 256.0 * f64::from(f32::from_bits(c));
                }
            }
        }
    }

    /// The result as f32 bit patterns.
    pub fn finish(&self) -> [u32; 4] {
        match self.arithmetic {
            Arithmetic::Unorm16 => self.fixed.map(|s| {
                let n = (s + 128) >> 8;
                ((n as f64 / 65535.0) as f32).to_bits()
            }),
            Arithmetic::Float => self.float.map(|x| (x as f32).to_bits()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unorm8(c: u32) -> u32 {
        (c as f32 / 255.0).to_bits()
    }

    #[test]
    fn unorm8_sums_round_to_16_bits() {
        // The H200's tex_sample invocation 5, red: texels 11 and 48 with
        // weights 213 and 31 of level 0, 91 with 12 of level 1:
        // (11·213 + 48·31 + 91·12)·257 / 256 = 4942.2 → 4942 / 65535.
        let mut b = Blend::new(Arithmetic::Unorm16);
        b.add(213, [unorm8(11); 4]);
        b.add(31, [unorm8(48); 4]);
        b.add(12, [unorm8(91); 4]);
        assert_eq!(b.finish()[0], ((4942.0f64 / 65535.0) as f32).to_bits());
        // The word the H200 wrote.
        assert_eq!(b.finish()[0], 1_033_531_546);
        // One texel with all the weight is that texel's value.
        let mut one = Blend::new(Arithmetic::Unorm16);
        one.add(256, [unorm8(200), unorm8(0), unorm8(255), 0x3f80_0000]);
        let n = |n: f64| ((n / 65535.0) as f32).to_bits();
        assert_eq!(one.finish(), [n(200.0 * 257.0), 0, n(65535.0), n(65535.0)]);
    }

    #[test]
    fn float_sums_are_exact_for_short_fractions() {
        let mut b = Blend::new(Arithmetic::Float);
        b.add(192, [0.5f32.to_bits(); 4]);
        b.add(64, [0.25f32.to_bits(); 4]);
        assert_eq!(f32::from_bits(b.finish()[0]), 0.4375);
    }
}
