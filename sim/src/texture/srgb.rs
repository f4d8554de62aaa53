//! The texture unit's sRGB decoding: the linear value of each 8-bit sRGB
//! code as the H100 returns it, measured by fetching every code (the
//! tex_srgb capture, tests/reference/tex_srgb; docs/TEXTURES.md,
//! "Formats"). Every value is a multiple of 1/32768; they are not the
//! EOTF rounded to any precision (code 1 gives 10/32768, the EOTF
//! 9.946/32768; the largest difference is 0.5% of the value), so the
//! table is the hardware's, as measured, not computed.

/// `SRGB_TO_LINEAR[c] / 32768` is the linear value of code `c`.
const SRGB_TO_LINEAR: [u16; 256] = [
    0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 132, 144, 156, 170, 184, 198, 214, 230,
    246, 262, 280, 300, 318, 338, 360, 380, 402, 426, 448, 472, 500, 524, 552, 580, 608, 636, 664,
    696, 728, 760, 792, 824, 860, 896, 932, 968, 1008, 1048, 1088, 1128, 1168, 1208, 1248, 1296,
    1344, 1384, 1432, 1480, 1528, 1576, 1632, 1680, 1728, 1792, 1840, 1888, 1952, 2000, 2064, 2128,
    2176, 2240, 2304, 2368, 2432, 2496, 2560, 2624, 2704, 2768, 2832, 2912, 2976, 3056, 3120, 3200,
    3280, 3344, 3424, 3504, 3584, 3664, 3744, 3840, 3904, 4000, 4096, 4160, 4256, 4352, 4448, 4544,
    4640, 4736, 4832, 4928, 5024, 5120, 5216, 5312, 5408, 5504, 5632, 5728, 5824, 5952, 6048, 6144,
    6272, 6368, 6496, 6592, 6720, 6848, 6944, 7072, 7200, 7328, 7424, 7552, 7680, 7808, 7936, 8064,
    8192, 8320, 8448, 8576, 8704, 8832, 9024, 9152, 9280, 9408, 9536, 9728, 9856, 9984, 10112,
    10304, 10432, 10560, 10752, 10880, 11072, 11200, 11392, 11520, 11648, 11840, 12032, 12160,
    12352, 12480, 12672, 12800, 12992, 13184, 13376, 13504, 13696, 13888, 14016, 14208, 14400,
    14592, 14784, 14976, 15168, 15360, 15488, 15744, 15872, 16128, 16256, 16512, 16640, 16896,
    17024, 17280, 17536, 17664, 17920, 18048, 18304, 18560, 18688, 18944, 19200, 19328, 19584,
    19840, 19968, 20224, 20480, 20608, 20864, 21120, 21376, 21632, 21760, 22016, 22272, 22528,
    22784, 22912, 23168, 23424, 23680, 23936, 24192, 24448, 24704, 24960, 25216, 25472, 25728,
    25984, 26240, 26496, 26752, 27008, 27264, 27520, 27776, 28032, 28288, 28544, 28800, 29056,
    29312, 29696, 29952, 30208, 30464, 30720, 30976, 31232, 31488, 32000, 32256, 32512, 32768,
];

/// The linear value of an 8-bit sRGB code, as the hardware decodes it.
pub fn srgb8_to_linear(code: u8) -> f32 {
    f32::from(SRGB_TO_LINEAR[usize::from(code)]) / 32768.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_monotonic_from_0_to_1_near_the_eotf() {
        assert_eq!(srgb8_to_linear(0), 0.0);
        assert_eq!(srgb8_to_linear(255), 1.0);
        // The linear segment: ten 32768ths a code.
        assert_eq!(srgb8_to_linear(1), 10.0 / 32768.0);
        assert_eq!(srgb8_to_linear(64), 1680.0 / 32768.0);
        for c in 0..255u8 {
            assert!(srgb8_to_linear(c) < srgb8_to_linear(c + 1), "code {c}");
            let eotf = super::super::texel::srgb_to_linear(f32::from(c) / 255.0);
            let v = srgb8_to_linear(c);
            assert!((v - eotf).abs() <= 0.0055 * eotf, "code {c}: {v} vs {eotf}");
        }
    }
}
