//! Bit fields of the 256-bit texture and sampler headers (docs/TEXTURES.md),
//! numbered as NVIDIA's header files number them: bit 0 is the lowest bit
//! of the first little-endian word, bit 255 the highest of the eighth.

/// A 32-byte header as eight little-endian words.
pub type Words = [u32; 8];

/// Bits `lo..=hi` of a header (at most 64 of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub lo: u32,
    pub hi: u32,
}

/// Bits `lo..=hi`, as the header files write `MW(hi:lo)`.
pub const fn mw(hi: u32, lo: u32) -> Field {
    Field { lo, hi }
}

impl Field {
    pub fn width(self) -> u32 {
        self.hi - self.lo + 1
    }

    pub fn mask(self) -> u64 {
        if self.width() == 64 {
            u64::MAX
        } else {
            (1u64 << self.width()) - 1
        }
    }

    pub fn get(self, w: &Words) -> u64 {
        (0..self.width()).fold(0u64, |acc, i| {
            let bit = self.lo + i;
            let b = (w[(bit / 32) as usize] >> (bit % 32)) & 1;
            acc | (u64::from(b) << i)
        })
    }

    /// Writes the low `width` bits of `value` (higher bits are dropped;
    /// callers range-check what they encode).
    pub fn set(self, w: &mut Words, value: u64) {
        for i in 0..self.width() {
            let bit = self.lo + i;
            let word = &mut w[(bit / 32) as usize];
            let m = 1u32 << (bit % 32);
            if (value >> i) & 1 == 1 {
                *word |= m;
            } else {
                *word &= !m;
            }
        }
    }
}

/// Words from 32 little-endian bytes.
pub fn words(bytes: &[u8]) -> Words {
    let mut w = [0; 8];
    for (i, c) in bytes.chunks_exact(4).take(8).enumerate() {
        w[i] = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    }
    w
}

/// The 32 little-endian bytes of a header.
pub fn bytes(w: &Words) -> [u8; 32] {
    let mut b = [0; 32];
    for (i, x) in w.iter().enumerate() {
        b[4 * i..4 * i + 4].copy_from_slice(&x.to_le_bytes());
    }
    b
}

/// A signed fixed-point value with `frac` fraction bits in a `bits`-wide
/// two's-complement field.
pub fn sfixed_to_f32(raw: u64, bits: u32, frac: u32) -> f32 {
    let shift = 64 - bits;
    let v = ((raw << shift) as i64) >> shift;
    v as f32 / (1u32 << frac) as f32
}

/// The nearest `bits`-wide signed fixed-point value with `frac` fraction
/// bits, saturated to the field's range.
pub fn f32_to_sfixed(x: f32, bits: u32, frac: u32) -> u64 {
    let max = (1i64 << (bits - 1)) - 1;
    let v = ((f64::from(x) * f64::from(1u32 << frac)).round() as i64).clamp(-max - 1, max);
    (v as u64) & ((1u64 << bits) - 1)
}

/// An unsigned fixed-point value with `frac` fraction bits.
pub fn ufixed_to_f32(raw: u64, frac: u32) -> f32 {
    raw as f32 / (1u32 << frac) as f32
}

/// The nearest `bits`-wide unsigned fixed-point value with `frac` fraction
/// bits, saturated to the field's range (NaN gives 0).
pub fn f32_to_ufixed(x: f32, bits: u32, frac: u32) -> u64 {
    let max = (1u64 << bits) - 1;
    let v = (f64::from(x) * f64::from(1u32 << frac)).round();
    if v.is_nan() || v <= 0.0 {
        0
    } else {
        (v as u64).min(max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_cross_words() {
        let mut w = [0; 8];
        let f = mw(56, 9);
        f.set(&mut w, 0xabcd_ef01_2345);
        assert_eq!(f.get(&w), 0xabcd_ef01_2345 & f.mask());
        assert_eq!(w[0] & 0x1ff, 0);
        mw(255, 248).set(&mut w, 0xa5);
        assert_eq!(w[7] >> 24, 0xa5);
    }

    #[test]
    fn fixed_point_round_trips() {
        // The sampler's LOD bias: 13 bits, 8 of them fraction.
        assert_eq!(f32_to_sfixed(-1.5, 13, 8), (1 << 13) - 384);
        assert_eq!(sfixed_to_f32(f32_to_sfixed(-1.5, 13, 8), 13, 8), -1.5);
        assert_eq!(
            sfixed_to_f32(f32_to_sfixed(100.0, 13, 8), 13, 8),
            4095.0 / 256.0
        );
        assert_eq!(ufixed_to_f32(f32_to_ufixed(3.25, 12, 8), 8), 3.25);
        assert_eq!(f32_to_ufixed(-2.0, 12, 8), 0);
        assert_eq!(f32_to_ufixed(1000.0, 12, 8), 4095);
    }
}
