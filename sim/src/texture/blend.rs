//! The weighted sum of a filtered lookup's texels (weights in 1/256
//! steps, summing to 256 over all levels), formed per result component as
//! the H200's and H100's captures show (docs/TEXTURES.md, "Filtering
//! arithmetic", rule 4):
//!
//! - UNORM components (not sRGB colour) filter in 16-bit fixed point:
//!   each n-bit value is widened to 16 bits by repeating its bits (`c·257`
//!   for 8 bits, `c·64 + c/16` for 10), summed with the weights, rounded
//!   to 16 bits (halves up) and returned as `n/65535` rounded to f32;
//! - SNORM components are summed exactly (`c/(2^(n−1) − 1)`, −128 of an
//!   8-bit texel unclamped) and rounded to a multiple of 1/32767 (halves
//!   up), then clamped to −1;
//! - floats of at most 16 bits (half, the 11- and 10-bit floats) are
//!   cut to a grid below the largest texel and rounded to a half
//!   (`half_sum::HalfSum`);
//! - sRGB colour (decoded by the hardware's table) is summed as the
//!   hardware does, on 8-bit mantissas aligned to the texels' coarsest
//!   table segment (`srgb::SrgbSum`);
//! - everything else (32-bit floats, depth compare results) is summed in
//!   f64 and rounded to f32 once.
//!
//! Sums start at −0.0, so a lookup whose texels are all −0.0 returns −0.0
//! (the H100 does).

use super::format::{DataType, FormatInfo, Source};
use super::half_sum::HalfSum;
use super::srgb::SrgbSum;

/// How one result component of a lookup is summed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arithmetic {
    /// 16-bit fixed point; the component's stored width in bits.
    Unorm(u8),
    /// Exact, rounded to 1/32767; the component's stored width in bits.
    Snorm(u8),
    /// Half and small floats: `HalfSum`.
    Half,
    /// sRGB colour: `SrgbSum`.
    Srgb,
    /// f64, rounded to f32 at the end.
    Float,
}

impl Arithmetic {
    /// The arithmetic of each result component of a lookup of a format
    /// with the header's `swizzle` (constant components are exact in any),
    /// `srgb` colour, and whether the lookup compares depth.
    pub fn for_lookup(
        info: &FormatInfo,
        swizzle: [Source; 4],
        srgb: bool,
        compare: bool,
    ) -> [Arithmetic; 4] {
        swizzle.map(|s| {
            let stored = match s {
                Source::R => 0,
                Source::G => 1,
                Source::B => 2,
                Source::A => 3,
                Source::Zero | Source::OneInt | Source::OneFloat => return Arithmetic::Float,
            };
            let bits = info.bits.get(stored).copied().unwrap_or(32);
            match info.data_type {
                _ if compare => Arithmetic::Float,
                DataType::Unorm if srgb && stored < 3 => Arithmetic::Srgb,
                DataType::Unorm if bits <= 16 => Arithmetic::Unorm(bits),
                DataType::Snorm if bits <= 16 => Arithmetic::Snorm(bits),
                DataType::Float if bits <= 16 => Arithmetic::Half,
                DataType::Unorm
                | DataType::Snorm
                | DataType::Float
                | DataType::Uint
                | DataType::Sint => Arithmetic::Float,
            }
        })
    }
}

/// A running weighted sum of four components.
#[derive(Clone, Debug)]
pub struct Blend {
    arithmetic: [Arithmetic; 4],
    /// Fixed-point sums (UNORM: 16-bit units times the weight; SNORM:
    /// stored units times the weight).
    fixed: [i64; 4],
    float: [f64; 4],
    srgb: [SrgbSum; 4],
    half: [HalfSum; 4],
}

/// The largest stored value of an n-bit UNORM or SNORM component.
fn unorm_max(bits: u8) -> f64 {
    f64::from((1u32 << bits) - 1)
}
fn snorm_max(bits: u8) -> f64 {
    f64::from((1u32 << (bits - 1)) - 1)
}

/// An n-bit UNORM component (its value as f32 bits) widened to 16 bits by
/// repeating its bits; a value outside 0..1 (a border colour) is clamped.
fn unorm16(bits: u8, v: u32) -> i64 {
    let v = f64::from(f32::from_bits(v));
    let v = if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
    let c = (v * unorm_max(bits)).round() as i64;
    let bits = i64::from(bits);
    let mut wide = 0;
    let mut shift = 16;
    while shift > 0 {
        shift -= bits;
        wide |= if shift >= 0 { c << shift } else { c >> -shift };
    }
    wide
}

/// An n-bit SNORM component (its value as f32 bits, −128/127 for an 8-bit
/// −128) in stored units; a value outside (a border colour) is clamped.
fn snorm_units(bits: u8, v: u32) -> i64 {
    let v = f64::from(f32::from_bits(v));
    let m = snorm_max(bits);
    let v = if v.is_nan() {
        0.0
    } else {
        v.clamp(-1.0 - 1.0 / m, 1.0)
    };
    (v * m).round() as i64
}

/// A weighted SNORM sum `s` (stored units times 1/256 weights) in units
/// of 1/32767, as the H100 scales it (docs/TEXTURES.md, "Filtering
/// arithmetic", rule 4). An 8-bit sum (−32768..=32512) is scaled by
/// `1 + 2^−7 + 2^−15` (33025/32768, the bit-repeating stand-in for
/// 32767/32512) in 1/128 units where the `2^−15` term keeps only 3
/// fraction bits (`⌊s/4096⌋/8`), then rounded halves up: every word of
/// the H100's tex_snorm8 (each code times each weight) is so. Other widths
/// (16 bits) scale exactly: `s/256` stored units rounded halves up.
fn snorm_to_32767(bits: u8, s: i64) -> i64 {
    if bits == 8 {
        (129 * s + 16 * s.div_euclid(4096) + 64).div_euclid(128)
    } else {
        let m = i128::from((1i64 << (bits - 1)) - 1);
        let num = i128::from(s) * 32767;
        let den = m * 256;
        (2 * num + den).div_euclid(2 * den) as i64
    }
}

impl Blend {
    pub fn new(arithmetic: [Arithmetic; 4]) -> Blend {
        Blend {
            arithmetic,
            fixed: [0; 4],
            float: [-0.0; 4],
            srgb: [SrgbSum::new(); 4],
            half: Default::default(),
        }
    }

    /// Adds texel `v` (four f32 bit patterns) with `weight` 1/256 steps.
    pub fn add(&mut self, weight: u32, v: [u32; 4]) {
        let w = i64::from(weight);
        for (c, &bits) in v.iter().enumerate() {
            match self.arithmetic[c] {
                Arithmetic::Unorm(n) => self.fixed[c] += w * unorm16(n, bits),
                Arithmetic::Snorm(n) => self.fixed[c] += w * snorm_units(n, bits),
                Arithmetic::Srgb => self.srgb[c].add(weight, f32::from_bits(bits)),
                Arithmetic::Half => self.half[c].add(weight, f32::from_bits(bits)),
                Arithmetic::Float => {
                    self.float[c] += f64::from(weight) / 256.0 * f64::from(f32::from_bits(bits));
                }
            }
        }
    }

    /// The result as f32 bit patterns.
    pub fn finish(&self) -> [u32; 4] {
        std::array::from_fn(|c| match self.arithmetic[c] {
            Arithmetic::Unorm(_) => {
                let n = (self.fixed[c] + 128) >> 8;
                ((n as f64 / 65535.0) as f32).to_bits()
            }
            Arithmetic::Snorm(bits) => {
                let n = snorm_to_32767(bits, self.fixed[c]);
                ((n as f64 / 32767.0).max(-1.0) as f32).to_bits()
            }
            Arithmetic::Half => self.half[c].finish().to_bits(),
            Arithmetic::Srgb => self.srgb[c].finish().to_bits(),
            Arithmetic::Float => (self.float[c] as f32).to_bits(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An n-bit UNORM value as the texture unit decodes it.
    fn unorm(c: u32, bits: u8) -> u32 {
        ((f64::from(c) / unorm_max(bits)) as f32).to_bits()
    }

    fn snorm(c: i32, bits: u8) -> u32 {
        ((f64::from(c) / snorm_max(bits)) as f32).to_bits()
    }

    #[test]
    fn unorm8_sums_round_to_16_bits() {
        // The H200's tex_sample invocation 5, red: texels 11 and 48 with
        // weights 213 and 31 of level 0, 91 with 12 of level 1:
        // (11·213 + 48·31 + 91·12)·257 / 256 = 4942.2 → 4942 / 65535.
        let mut b = Blend::new([Arithmetic::Unorm(8); 4]);
        b.add(213, [unorm(11, 8); 4]);
        b.add(31, [unorm(48, 8); 4]);
        b.add(12, [unorm(91, 8); 4]);
        assert_eq!(b.finish()[0], ((4942.0f64 / 65535.0) as f32).to_bits());
        // The word the H200 wrote.
        assert_eq!(b.finish()[0], 1_033_531_546);
        // One texel with all the weight is that texel's value.
        let mut one = Blend::new([Arithmetic::Unorm(8); 4]);
        one.add(
            256,
            [unorm(200, 8), unorm(0, 8), unorm(255, 8), 0x3f80_0000],
        );
        let n = |n: f64| ((n / 65535.0) as f32).to_bits();
        assert_eq!(one.finish(), [n(200.0 * 257.0), 0, n(65535.0), n(65535.0)]);
    }

    #[test]
    fn unorm10_and_unorm2_widen_by_repeating_bits() {
        // The H100's tex_formats invocation 2, A2B10G10R10 blue: 512 and
        // 932 with weights 120 and 136 widen to 32800 and 59706: 47093.8
        // → 47094 (scaling by 65535/1023 would give 47093.3 → 47093).
        let mut b = Blend::new([
            Arithmetic::Unorm(10),
            Arithmetic::Unorm(2),
            Arithmetic::Unorm(16),
            Arithmetic::Unorm(16),
        ]);
        b.add(120, [unorm(512, 10), unorm(1, 2), unorm(1000, 16), 0]);
        b.add(136, [unorm(932, 10), unorm(2, 2), unorm(3000, 16), 0]);
        let out = b.finish();
        assert_eq!(out[0], ((47094.0f64 / 65535.0) as f32).to_bits());
        // 2 bits: 1 → 0x5555, 2 → 0xaaaa: (120·21845 + 136·43690)/256.
        assert_eq!(out[1], ((33450.0f64 / 65535.0) as f32).to_bits());
        // 16 bits are summed as they are: (120·1000 + 136·3000)/256 =
        // 2062.5, halves up.
        assert_eq!(out[2], ((2063.0f64 / 65535.0) as f32).to_bits());
        assert_eq!(out[3], 0);
    }

    #[test]
    fn snorm_sums_round_to_1_32767_with_minus_128_unclamped() {
        // The H100's tex_formats invocation 1, SNORM8 red: −128 and −1
        // with weights 248 and 8 give −32001/32767 (−128 counts as
        // −128/127; clamped to −1 first it would be −31751).
        let mut b = Blend::new([
            Arithmetic::Snorm(8),
            Arithmetic::Snorm(8),
            Arithmetic::Snorm(16),
            Arithmetic::Snorm(8),
        ]);
        b.add(
            248,
            [
                snorm(-128, 8),
                snorm(-69, 8),
                snorm(-32768, 16),
                snorm(127, 8),
            ],
        );
        b.add(
            8,
            [snorm(-1, 8), snorm(-69, 8), snorm(-1, 16), snorm(127, 8)],
        );
        let n = |n: f64| ((n / 32767.0) as f32).to_bits();
        let out = b.finish();
        assert_eq!(out[0], n(-32001.0));
        // One SNORM8 texel: −69/127 on the 1/32767 grid (−17802.54 → −17803).
        assert_eq!(out[1], n(-17803.0));
        // SNORM16's −32768 enters unclamped too (−31743 clamped first);
        // the result is clamped to −1.
        assert_eq!(out[2], n(-31744.0));
        assert_eq!(out[3], 0x3f80_0000);
        let mut all = Blend::new([Arithmetic::Snorm(16); 4]);
        all.add(256, [snorm(-32768, 16); 4]);
        assert_eq!(all.finish()[0], (-1.0f32).to_bits());
    }

    #[test]
    fn snorm8_sums_scale_with_three_fraction_bits_below_the_unit() {
        // Words of the H100's tex_snorm8 (code c beside a zero texel, c
        // with weight w): (c, w, the word).
        let h100 = [
            // 450.506 exactly, but the 2^−15 term's 0.41 is cut to 0.375.
            (3, 149, 0x3c61_01c2),
            // −49.384: ⌊s/4096⌋ = −1 puts −1/8 in, giving −49.51.
            (-1, 49, 0xbac8_0190),
            (17, 244, 0x3e02_a905),
            // 16383.5 exactly, but the 2^−15 term (0.49) is cut to 3/8.
            (64, 254, 0x3eff_fe00),
            (-64, 256, 0xbf01_0102),
            (87, 187, 0x3f00_1900),
            // −128 unclamped: −128·128 = −64·256.
            (-128, 128, 0xbf01_0102),
            (127, 256, 0x3f80_0000),
        ];
        for (c, w, word) in h100 {
            let mut b = Blend::new([Arithmetic::Snorm(8); 4]);
            b.add(w, [snorm(c, 8); 4]);
            b.add(256 - w, [snorm(0, 8); 4]);
            assert_eq!(b.finish()[0], word, "code {c}, weight {w}");
        }
    }

    #[test]
    fn half_formats_round_to_a_half() {
        // The H100's tex_formats invocation 2, R16F: −0.0 and 65504 with
        // weights 120 and 136: 34799 is a half 34784; all −0.0 stays −0.0.
        let mut b = Blend::new([
            Arithmetic::Half,
            Arithmetic::Half,
            Arithmetic::Float,
            Arithmetic::Float,
        ]);
        b.add(120, [(-0.0f32).to_bits(), (-0.0f32).to_bits(), 0, 0]);
        b.add(
            136,
            [65504f32.to_bits(), (-0.0f32).to_bits(), 0x3f80_0000, 0],
        );
        let out = b.finish();
        assert_eq!(f32::from_bits(out[0]), 34784.0);
        assert_eq!(out[1], (-0.0f32).to_bits());
        assert_eq!(f32::from_bits(out[2]), 0.53125);
        assert_eq!(out[3], 0);
        // sRGB colour filters through `SrgbSum` (srgb.rs has the cases).
        let mut c = Blend::new([Arithmetic::Srgb; 4]);
        c.add(244, [(132.0f32 / 32768.0).to_bits(); 4]);
        c.add(12, [(2128.0f32 / 32768.0).to_bits(); 4]);
        assert_eq!(f32::from_bits(c.finish()[0]), 221.75 / 32768.0);
    }

    #[test]
    fn float_sums_are_exact_for_short_fractions() {
        let mut b = Blend::new([Arithmetic::Float; 4]);
        b.add(192, [0.5f32.to_bits(); 4]);
        b.add(64, [0.25f32.to_bits(); 4]);
        assert_eq!(f32::from_bits(b.finish()[0]), 0.4375);
    }
}
