//! The texture unit's sRGB decoding: the linear value of each 8-bit sRGB
//! code as the H100 returns it, measured by fetching every code (the
//! tex_srgb capture, tests/reference/tex_srgb; docs/TEXTURES.md,
//! "Formats"). Every value is a multiple of 1/32768; they are not the
//! EOTF rounded to any precision (code 1 gives 10/32768, the EOTF
//! 9.946/32768; the largest difference is 0.5% of the value), so the
//! table is the hardware's, as measured, not computed.
//!
//! Filtering (`SrgbSum`) does not sum these values as they are: the
//! hardware holds each decoded value as an 8-bit mantissa on a step fixed
//! by the code's segment of the table (`SEGMENTS`), aligns the texels of
//! a lookup to the coarsest step among them (dropping the finer texels'
//! low bits), sums mantissa × weight exactly and rounds the sum to a
//! half (halves up). Fitted to every filtered sRGB word of the H100's
//! tex_srgb and tex_formats captures (docs/TEXTURES.md, "Filtering
//! arithmetic", rule 4).

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

/// The segments of the table as filtering sees them: the first code of
/// each and log2 of its step in units of 1/32768. Every value of a
/// segment is a multiple of its step below 256 steps (an 8-bit
/// mantissa). The boundaries are the H100's: which step a code takes is
/// what tex_srgb's lookups between a code and a much smaller one show
/// (e.g. code 70, 2000/32768, filters on steps of 16/32768, although
/// 2000 would fit 8-bit mantissas of 8/32768); codes below 32 are even
/// multiples of 1/32768, so steps of 1 or 2 filter alike there.
const SEGMENTS: [(u8, u32); 8] = [
    (0, 1),
    (32, 2),
    (48, 3),
    (64, 4),
    (96, 5),
    (136, 6),
    (184, 7),
    (248, 8),
];

/// The largest step exponent (`SEGMENTS`), which 1.0 takes.
const TOP_STEP: u32 = SEGMENTS[SEGMENTS.len() - 1].1;

/// The step exponent of a decoded value of `units` /32768: that of the
/// last segment whose first code decodes to at most `units` (a value
/// between codes, a border colour, takes the lower code's segment).
fn step_of(units: u32) -> u32 {
    SEGMENTS
        .iter()
        .rev()
        .find(|&&(code, _)| u32::from(SRGB_TO_LINEAR[usize::from(code)]) <= units)
        .map_or(SEGMENTS[0].1, |&(_, step)| step)
}

/// A running sum of sRGB colour texels with their weights (1/256 steps,
/// summing to 256 over the lookup), as the hardware filters them. The
/// alignment step is known only once every texel is in, so the sum is
/// kept for each step a texel can take.
#[derive(Clone, Copy, Debug, Default)]
pub struct SrgbSum {
    /// `by_step[e]`: the sum of weight × (value >> e).
    by_step: [u64; TOP_STEP as usize + 1],
    /// The coarsest step of the texels so far (0: none yet).
    step: u32,
}

impl SrgbSum {
    pub fn new() -> SrgbSum {
        SrgbSum::default()
    }

    /// Adds a texel's decoded value (f32; a border colour outside 0..1 is
    /// clamped) with `weight` 1/256 steps. A texel of weight 0 does not
    /// count towards the step.
    pub fn add(&mut self, weight: u32, value: f32) {
        if weight == 0 {
            return;
        }
        let v = if value.is_nan() {
            0.0
        } else {
            value.clamp(0.0, 1.0)
        };
        let units = (f64::from(v) * 32768.0).round() as u32;
        self.step = self.step.max(step_of(units));
        for (e, sum) in self.by_step.iter_mut().enumerate() {
            *sum += u64::from(weight) * u64::from(units >> e);
        }
    }

    /// The filtered value: the sum on the coarsest step, rounded to 11
    /// significant bits (a half's precision) with halves up.
    pub fn finish(&self) -> f32 {
        let sum = self.by_step[self.step as usize];
        let bits = u64::BITS - sum.leading_zeros();
        let rounded = match bits.checked_sub(11) {
            Some(drop) if drop > 0 => ((sum + (1 << (drop - 1))) >> drop) << drop,
            _ => sum,
        };
        // sum / 256 steps of 2^step / 32768.
        (rounded as f64 * f64::from(self.step as i32 - 23).exp2()) as f32
    }
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

    #[test]
    fn every_code_is_an_8_bit_mantissa_on_its_segment_step() {
        for (i, &(first, step)) in SEGMENTS.iter().enumerate() {
            let end = SEGMENTS.get(i + 1).map_or(256, |&(c, _)| usize::from(c));
            for (code, &v) in SRGB_TO_LINEAR
                .iter()
                .enumerate()
                .take(end)
                .skip(first.into())
            {
                let v = u32::from(v);
                assert_eq!(v % (1 << step), 0, "code {code}");
                assert!(v >> step < 256, "code {code}");
                assert_eq!(step_of(v), step, "code {code}");
            }
        }
    }

    fn filtered(texels: &[(u32, u8)]) -> f32 {
        let mut s = SrgbSum::new();
        for &(w, code) in texels {
            s.add(w, srgb8_to_linear(code));
        }
        s.finish()
    }

    #[test]
    fn filtering_aligns_texels_to_the_coarsest_segment_step() {
        // The H100's tex_srgb invocation 0, blue: codes 13 (132/32768) and
        // 72 (2128, step 16) with weights 244 and 12: 132 drops to 128,
        // (128·244 + 2128·12)/256 = 221.75 (the exact sum is 225.56).
        assert_eq!(filtered(&[(244, 13), (12, 72)]), 221.75 / 32768.0);
        // Invocation 26, blue, halfway: codes 11 (110) and 70 (2000, whose
        // segment steps by 16 although 2000 < 2048): (96 + 2000)/2.
        assert_eq!(filtered(&[(128, 11), (128, 70)]), 1048.0 / 32768.0);
        // Invocation 234, blue: code 251 with 1/256 and 54 with 255/256;
        // 1208 on steps of 256 is 1024, below code 54 alone.
        assert_eq!(filtered(&[(1, 251), (255, 54)]), 1143.0 / 32768.0);
        // The sum rounds to a half, halves up (invocation 11, red:
        // (110·92 + 120·164)/256 = 116.40625 → 116.4375).
        assert_eq!(filtered(&[(92, 11), (164, 12)]), 116.4375 / 32768.0);
        // A weight of 0 does not set the step; one texel is itself.
        assert_eq!(filtered(&[(256, 13), (0, 255)]), 132.0 / 32768.0);
        assert_eq!(filtered(&[(256, 255)]), 1.0);
    }
}
