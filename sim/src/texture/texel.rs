//! Texel conversion between memory and the texture unit's four 32-bit
//! results (floats as f32 bits, integers as 32-bit integers), following
//! Vulkan's "Fixed-Point Data Conversions", sRGB and small-float rules
//! (docs/TEXTURES.md). Stored components are named R, G, B, A as NVIDIA
//! names them; the header's swizzle maps them to the result.

use super::format::{DataType, FormatInfo, Source};

const ONE_F32: u32 = 0x3f80_0000;

/// The stored components of one texel (R, G, B, A; absent ones 0).
pub fn decode_stored(info: &FormatInfo, bytes: &[u8], srgb: bool) -> [u32; 4] {
    decode_stored_as(info, bytes, srgb, Snorm::Clamped)
}

/// How an SNORM component's most negative value (−2^(n−1)) decodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Snorm {
    /// −1.0, as Vulkan's conversion gives it (fetches, gathers).
    Clamped,
    /// −2^(n−1)/(2^(n−1) − 1): what filtering sums (the H100's
    /// tex_formats capture; docs/TEXTURES.md, "Filtering arithmetic").
    Unclamped,
}

/// The stored components of one texel, SNORM decoded as `snorm` says.
pub fn decode_stored_as(info: &FormatInfo, bytes: &[u8], srgb: bool, snorm: Snorm) -> [u32; 4] {
    let mut raw = 0u128;
    for (i, b) in bytes.iter().enumerate().take(16) {
        raw |= u128::from(*b) << (8 * i);
    }
    let mut out = [0u32; 4];
    let mut at = 0u32;
    for (c, &bits) in info.bits.iter().enumerate() {
        let n = u32::from(bits);
        let v = ((raw >> at) & ((1u128 << n) - 1)) as u32;
        at += n;
        out[c] = component_to_u32(info.data_type, n, v, srgb && c < 3, snorm);
    }
    out
}

fn component_to_u32(data: DataType, n: u32, v: u32, srgb: bool, snorm: Snorm) -> u32 {
    let max = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
    let sext = |v: u32| ((v << (32 - n)) as i32) >> (32 - n);
    match data {
        DataType::Unorm => {
            let f = (f64::from(v) / f64::from(max)) as f32;
            match (srgb, u8::try_from(v)) {
                // Every sRGB format has 8-bit components: the hardware's
                // table (srgb.rs).
                (true, Ok(code)) if n == 8 => super::srgb::srgb8_to_linear(code),
                (true, _) => srgb_to_linear(f),
                (false, _) => f,
            }
            .to_bits()
        }
        DataType::Snorm => {
            let m = (1i32 << (n - 1)) - 1;
            let x = f64::from(sext(v)) / f64::from(m);
            (match snorm {
                Snorm::Clamped => x.max(-1.0),
                Snorm::Unclamped => x,
            } as f32)
                .to_bits()
        }
        DataType::Uint => v,
        DataType::Sint => sext(v) as u32,
        DataType::Float => match n {
            32 => v,
            16 => half::f16::from_bits(v as u16).to_f32().to_bits(),
            _ => small_float_to_f32(v, n - 5).to_bits(),
        },
    }
}

/// The result components from the stored ones, by the header's swizzle.
pub fn swizzle(stored: [u32; 4], sources: [Source; 4]) -> [u32; 4] {
    sources.map(|s| match s {
        Source::Zero => 0,
        Source::R => stored[0],
        Source::G => stored[1],
        Source::B => stored[2],
        Source::A => stored[3],
        Source::OneInt => 1,
        Source::OneFloat => ONE_F32,
    })
}

/// The result of a border texel: the sampler's border colour, except
/// that components the format lacks take the header's swizzle constant,
/// as for a texel ((R, 0, 0, 1) for a one-component format; the H100's
/// tex_formats capture, docs/TEXTURES.md).
pub fn border(colour: [u32; 4], sources: [Source; 4]) -> [u32; 4] {
    std::array::from_fn(|i| match sources[i] {
        Source::Zero => 0,
        Source::OneInt => 1,
        Source::OneFloat => ONE_F32,
        Source::R | Source::G | Source::B | Source::A => colour[i],
    })
}

/// The bytes of a texel holding `value` (result components, as a store
/// gives them): the swizzle undone, each component converted to its
/// stored form (Vulkan's "Texel Output Format Conversion": normalized
/// values clamped and rounded to nearest, floats rounded to nearest even,
/// small floats saturated to their largest finite value, integers
/// truncated to their low bits).
pub fn encode(info: &FormatInfo, sources: [Source; 4], srgb: bool, value: [u32; 4]) -> Vec<u8> {
    let mut stored = [0u32; 4];
    for (i, s) in sources.iter().enumerate() {
        let c = match s {
            Source::R => 0,
            Source::G => 1,
            Source::B => 2,
            Source::A => 3,
            Source::Zero | Source::OneInt | Source::OneFloat => continue,
        };
        stored[c] = value[i];
    }
    let mut raw = 0u128;
    let mut at = 0u32;
    for (c, &bits) in info.bits.iter().enumerate() {
        let n = u32::from(bits);
        let v = u32_to_component(info.data_type, n, stored[c], srgb && c < 3);
        raw |= u128::from(v) << at;
        at += n;
    }
    raw.to_le_bytes()[..(at / 8) as usize].to_vec()
}

fn u32_to_component(data: DataType, n: u32, v: u32, srgb: bool) -> u32 {
    let mask = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
    let f = f32::from_bits(v);
    match data {
        DataType::Unorm => {
            let f = if srgb { linear_to_srgb(f) } else { f };
            let f = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
            (f64::from(f) * f64::from(mask)).round() as u32
        }
        DataType::Snorm => {
            let f = if f.is_nan() { 0.0 } else { f.clamp(-1.0, 1.0) };
            let m = (1i32 << (n - 1)) - 1;
            ((f64::from(f) * f64::from(m)).round() as i32 as u32) & mask
        }
        DataType::Uint | DataType::Sint => v & mask,
        DataType::Float => match n {
            32 => v,
            16 => u32::from(f16_toward_zero(f)),
            _ => f32_to_small_float(f, n - 5),
        },
    }
}

/// An f32 as a half, rounded toward zero: what the H200 (and lavapipe)
/// store into RGBA16F images (docs/TEXTURES.md; tests/reference/README.md,
/// `image_ops`). A finite value past the half range gives the largest
/// finite half, as rounding toward zero does.
pub fn f16_toward_zero(f: f32) -> u16 {
    let h = half::f16::from_f32(f);
    if f.is_finite() && h.to_f32().abs() > f.abs() {
        // Rounded away from zero: one step back. The magnitude is at least
        // one unit here, so the sign bit is untouched.
        h.to_bits() - 1
    } else {
        h.to_bits()
    }
}

/// sRGB to linear (Vulkan's "sRGB EOTF"), computed in f64 and rounded once
/// (8-bit codes decode through the hardware's table instead, srgb.rs).
pub fn srgb_to_linear(c: f32) -> f32 {
    let c = f64::from(c);
    (if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }) as f32
}

/// Linear to sRGB (the inverse EOTF), computed in f64 and rounded once.
pub fn linear_to_srgb(l: f32) -> f32 {
    let l = f64::from(l);
    (if l.is_nan() {
        0.0
    } else if l <= 0.0031308 {
        12.92 * l
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    }) as f32
}

/// An unsigned float of 5 exponent bits (bias 15) and `m` mantissa bits
/// (6 for the 11-bit, 5 for the 10-bit components of B10G11R11).
pub fn small_float_to_f32(v: u32, m: u32) -> f32 {
    let e = (v >> m) & 31;
    let f = v & ((1 << m) - 1);
    let frac = f64::from(f) / f64::from(1u32 << m);
    (match e {
        0 => frac * 2f64.powi(-14),
        31 if f == 0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1.0 + frac) * 2f64.powi(e as i32 - 15),
    }) as f32
}

/// The nearest unsigned float of 5 exponent bits and `m` mantissa bits
/// (ties to even): negative values and -0 give 0, values beyond the
/// largest finite one saturate to it, infinity stays infinity, NaN stays
/// NaN.
pub fn f32_to_small_float(x: f32, m: u32) -> u32 {
    let inf = 31 << m;
    if x.is_nan() {
        return inf | 1;
    }
    if x == f32::INFINITY {
        return inf;
    }
    if x <= 0.0 {
        return 0;
    }
    let v = f64::from(x);
    let bits = if v < 2f64.powi(-14) {
        // A denormal; rounding up to the smallest normal gives its bits
        // (exponent 1, mantissa 0) too.
        (v / 2f64.powi(-14 - m as i32)).round_ties_even() as u32
    } else {
        let e = ((v.to_bits() >> 52) & 0x7ff) as i32 - 1023;
        let q = (v / 2f64.powi(e - m as i32)).round_ties_even() as u32;
        (((e + 15) as u32) << m) + (q - (1 << m))
    };
    bits.min(inf - 1)
}

#[cfg(test)]
mod tests {

    #[test]
    fn halves_are_stored_rounded_toward_zero() {
        let one_plus_3_4ulp = 1.0 + 3.0 * 2f32.powi(-12);
        assert_eq!(
            f16_toward_zero(one_plus_3_4ulp),
            0x3c00,
            "1 + 3/4 ulp rounds down"
        );
        assert_eq!(f16_toward_zero(-one_plus_3_4ulp), 0xbc00);
        assert_eq!(f16_toward_zero(1.0), 0x3c00);
        assert_eq!(
            f16_toward_zero(70000.0),
            0x7bff,
            "past the range: largest finite"
        );
        assert_eq!(f16_toward_zero(-70000.0), 0xfbff);
        assert_eq!(f16_toward_zero(f32::INFINITY), 0x7c00);
        assert_eq!(f16_toward_zero(1e-10), 0x0000);
        assert_eq!(f16_toward_zero(-1e-10), 0x8000);
        assert!(half::f16::from_bits(f16_toward_zero(f32::NAN)).is_nan());
    }
    use super::super::format::Format;
    use super::*;

    fn read(format: Format, bytes: &[u8]) -> [u32; 4] {
        let info = format.info();
        swizzle(decode_stored(info, bytes, info.srgb), info.swizzle)
    }

    fn f(v: [u32; 4]) -> [f32; 4] {
        v.map(f32::from_bits)
    }

    #[test]
    fn normalized_formats() {
        assert_eq!(f(read(Format::R8Unorm, &[51])), [0.2, 0.0, 0.0, 1.0]);
        assert_eq!(f(read(Format::R8Snorm, &[0x81])), [-1.0, 0.0, 0.0, 1.0]);
        assert_eq!(f(read(Format::R8Snorm, &[0x80])), [-1.0, 0.0, 0.0, 1.0]);
        assert_eq!(
            f(read(Format::R16Unorm, &[0xff, 0xff])),
            [1.0, 0.0, 0.0, 1.0]
        );
        // B8G8R8A8: byte 0 is blue.
        assert_eq!(
            f(read(Format::B8G8R8A8Unorm, &[0, 255, 51, 255])),
            [0.2, 1.0, 0.0, 1.0]
        );
        // A2B10G10R10: R in bits 0..9, alpha in 30..31.
        // G (bits 10..19) is 0.
        let w: u32 = 1023 | (341 << 20) | (1 << 30);
        assert_eq!(
            f(read(Format::A2B10G10R10UnormPack32, &w.to_le_bytes())),
            [1.0, 0.0, 341.0 / 1023.0, 1.0 / 3.0]
        );
    }

    #[test]
    fn integer_formats_sign_extend_and_fill_alpha_with_integer_one() {
        assert_eq!(read(Format::R8Sint, &[0xfe]), [(-2i32) as u32, 0, 0, 1]);
        assert_eq!(
            read(Format::R16G16Uint, &[1, 0, 0xff, 0xff]),
            [1, 0xffff, 0, 1]
        );
        let w: u32 = 5 | (6 << 10) | (7 << 20) | (3 << 30);
        assert_eq!(
            read(Format::A2B10G10R10UintPack32, &w.to_le_bytes()),
            [5, 6, 7, 3]
        );
    }

    #[test]
    fn float_formats() {
        // 0x3c00 is 1.0 in half; 0xc000 is -2.0.
        assert_eq!(
            f(read(Format::R16G16Sfloat, &[0, 0x3c, 0, 0xc0])),
            [1.0, -2.0, 0.0, 1.0]
        );
        // B10G11R11: R = 1.0 (exp 15, mantissa 0), G = 0.5 (exp 14), B = 2.0
        // in 10 bits (exp 16).
        let w: u32 = (15 << 6) | ((14 << 6) << 11) | ((16 << 5) << 22);
        assert_eq!(
            f(read(Format::B10G11R11UfloatPack32, &w.to_le_bytes())),
            [1.0, 0.5, 2.0, 1.0]
        );
        // Depth D16: 0xffff is 1.0, in R.
        assert_eq!(
            f(read(Format::D16Unorm, &[0xff, 0xff])),
            [1.0, 0.0, 0.0, 1.0]
        );
    }

    #[test]
    fn srgb_decodes_colour_but_not_alpha() {
        let v = f(read(Format::R8G8B8A8Srgb, &[255, 0, 188, 128]));
        assert_eq!(v[0], 1.0);
        assert_eq!(v[1], 0.0);
        // 188/255 = 0.737..: ((0.737 + 0.055) / 1.055)^2.4 = 0.5029..; the
        // H100 (and the texture unit, srgb.rs) give 16512/32768 = 0.5039.
        assert_eq!(v[2], 16512.0 / 32768.0);
        assert_eq!(v[3], 128.0 / 255.0);
    }

    #[test]
    fn encode_round_trips_and_rounds() {
        let info = Format::B8G8R8A8Unorm.info();
        let v = [0.2f32, 1.0, -3.0, 0.5].map(f32::to_bits);
        // Red goes to byte 2; 0.5 * 255 = 127.5 rounds to 128.
        assert_eq!(encode(info, info.swizzle, false, v), vec![0, 255, 51, 128]);
        let info = Format::R8Snorm.info();
        assert_eq!(
            encode(info, info.swizzle, false, [(-0.5f32).to_bits(), 0, 0, 0]),
            vec![0xc0]
        );
        let info = Format::R16Uint.info();
        assert_eq!(
            encode(info, info.swizzle, false, [0x12345, 0, 0, 0]),
            vec![0x45, 0x23]
        );
        let info = Format::R8G8B8A8Srgb.info();
        let back = read(
            Format::R8G8B8A8Srgb,
            &encode(info, info.swizzle, true, [0.5f32.to_bits(); 4]),
        );
        // Linear 0.5 is sRGB 0.7354 → 188 → 0.5029 linear; alpha 0.5 → 128.
        assert_eq!(
            encode(info, info.swizzle, true, back),
            vec![188, 188, 188, 128]
        );
    }

    #[test]
    fn small_floats() {
        assert_eq!(f32_to_small_float(1.0, 6), 15 << 6);
        assert_eq!(f32_to_small_float(-1.0, 6), 0);
        assert_eq!(f32_to_small_float(1e9, 6), (30 << 6) | 63);
        assert_eq!(small_float_to_f32((30 << 6) | 63, 6), 65024.0);
        assert_eq!(f32_to_small_float(f32::INFINITY, 5), 31 << 5);
        // The smallest denormal of 11 bits is 2^-20; half of it ties to 0.
        assert_eq!(f32_to_small_float(2f32.powi(-20), 6), 1);
        assert_eq!(f32_to_small_float(2f32.powi(-21), 6), 0);
        // 1 + 1/128 lies halfway between 1 and 1 + 1/64: ties to even (1).
        assert_eq!(f32_to_small_float(1.0 + 1.0 / 128.0, 6), 15 << 6);
        assert_eq!(f32_to_small_float(1.0 + 3.0 / 128.0, 6), (15 << 6) + 2);
        for v in 0..(31 << 6) {
            assert_eq!(f32_to_small_float(small_float_to_f32(v, 6), 6), v);
        }
    }
}
