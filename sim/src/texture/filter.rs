//! Level selection and filter weights. Vulkan fixes the formulas
//! ("Texel Filtering", "Scale Factor Operation, LOD Operation and Image
//! Level(s) Selection") up to precision; the precision is inferred from
//! what NVIDIA's Vulkan driver reports (subTexelPrecisionBits = 8,
//! mipmapPrecisionBits = 8) and is documented in docs/TEXTURES.md:
//!
//! - a linear filter's weights are multiples of 1/256: `u - 0.5` is
//!   rounded to the nearest 1/256 before its integer and fraction parts
//!   are taken;
//! - the LOD is rounded to the nearest 1/256 after bias and clamps, so a
//!   linear mip filter's weight is a multiple of 1/256 too;
//! - weighted sums are formed in f64 and rounded to f32 once.

use super::header::TextureHeader;
use super::sampler::{Filter, MipFilter, SamplerHeader};

/// Rounds to the nearest multiple of 1/256.
pub fn quantize(x: f32) -> f32 {
    (f64::from(x) * 256.0).round() as f32 / 256.0
}

/// The texel to the left of a linear filter's footprint and the weight
/// of the one to its right (in 1/256 units, 0..256), for coordinate `u`
/// in texels.
pub fn linear_footprint(u: f32) -> (i64, u32) {
    let q = (f64::from(u - 0.5) * 256.0).round();
    // Coordinates far outside any image saturate; they wrap or clamp the
    // same way after.
    let q = q.clamp(-(1i64 << 52) as f64, (1i64 << 52) as f64) as i64;
    (q.div_euclid(256), q.rem_euclid(256) as u32)
}

/// The texel a nearest filter reads for coordinate `u` in texels.
pub fn nearest(u: f32) -> i64 {
    let f = f64::from(u).floor();
    f.clamp(-(1i64 << 52) as f64, (1i64 << 52) as f64) as i64
}

/// The levels a lookup reads and their weights (1 or 2 levels), and the
/// filter to use within them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelChoice {
    pub levels: [(u32, f32); 2],
    pub count: usize,
    pub filter: Filter,
}

/// Chooses levels for LOD `lambda` (before the sampler's bias and
/// clamps): Vulkan's selection with the view's first level as the base.
pub fn choose_levels(h: &TextureHeader, s: &SamplerHeader, lambda: f32) -> LevelChoice {
    let base = h.view_levels.0;
    let q = (h.view_levels.1 - base) as f32;
    let mut l = lambda + s.lod_bias;
    l = l.min(s.max_lod).max(s.min_lod).max(h.min_lod_clamp);
    let l = if l.is_nan() { 0.0 } else { quantize(l) };
    let filter = if l > 0.0 { s.min } else { s.mag };
    let d = l.clamp(0.0, q);
    let one = |level: u32| LevelChoice {
        levels: [(level, 1.0), (level, 0.0)],
        count: 1,
        filter,
    };
    match s.mip {
        MipFilter::None => one(base),
        // ⌈d + 0.5⌉ − 1: halves round down.
        MipFilter::Nearest => one(base + ((d + 0.5).ceil() - 1.0).max(0.0) as u32),
        MipFilter::Linear => {
            let hi = d.floor();
            let delta = d - hi;
            let lo = (hi + 1.0).min(q);
            if delta == 0.0 {
                one(base + hi as u32)
            } else {
                LevelChoice {
                    levels: [(base + hi as u32, 1.0 - delta), (base + lo as u32, delta)],
                    count: 2,
                    filter,
                }
            }
        }
    }
}

/// λ = log2 ρ for derivatives `dx`, `dy` of the coordinates in texels of
/// the base level: ρ is the longer of the two axis lengths (Vulkan's
/// isotropic ρmax; anisotropy is not modelled).
pub fn gradient_lod(dx: [f32; 3], dy: [f32; 3]) -> f32 {
    let len = |d: [f32; 3]| {
        d.iter()
            .map(|v| f64::from(*v) * f64::from(*v))
            .sum::<f64>()
            .sqrt()
    };
    len(dx).max(len(dy)).log2() as f32
}

#[cfg(test)]
mod tests {
    use super::super::format::Format;
    use super::super::header::Dim;
    use super::*;

    #[test]
    fn footprints_use_1_256_steps() {
        // u = 1.25 texels: left texel 0, weight of texel 1 is 0.75.
        assert_eq!(linear_footprint(1.25), (0, 192));
        assert_eq!(linear_footprint(0.25), (-1, 192));
        // 1/1000 of a texel is below the weights' precision.
        assert_eq!(linear_footprint(0.501), (0, 0));
        assert_eq!(linear_footprint(0.503), (0, 1));
        assert_eq!(nearest(-0.25), -1);
    }

    #[test]
    fn levels_for_each_mip_filter() {
        let mut h = TextureHeader::new(0, Format::R8Unorm, Dim::D2, [8, 8, 1], 4);
        let mut s = SamplerHeader {
            mag: Filter::Nearest,
            min: Filter::Linear,
            ..SamplerHeader::default()
        };
        let c = choose_levels(&h, &s, 1.5);
        assert_eq!((c.levels[0].0, c.count, c.filter), (1, 1, Filter::Linear));
        assert_eq!(choose_levels(&h, &s, 1.51).levels[0].0, 2);
        assert_eq!(choose_levels(&h, &s, 0.0).filter, Filter::Nearest);
        assert_eq!(choose_levels(&h, &s, 9.0).levels[0].0, 3);
        s.mip = MipFilter::Linear;
        let c = choose_levels(&h, &s, 1.25);
        assert_eq!(c.count, 2);
        assert_eq!(c.levels, [(1, 0.75), (2, 0.25)]);
        s.lod_bias = 1.0;
        s.max_lod = 1.5;
        assert_eq!(choose_levels(&h, &s, 0.5).levels, [(1, 0.5), (2, 0.5)]);
        // The view's base level counts as level 0 of the lookup.
        h.view_levels = (2, 3);
        s.lod_bias = 0.0;
        s.mip = MipFilter::None;
        assert_eq!(choose_levels(&h, &s, 3.0).levels[0].0, 2);
    }

    #[test]
    fn gradient_lod_is_log2_of_the_longer_axis() {
        assert_eq!(gradient_lod([4.0, 0.0, 0.0], [0.0, 2.0, 0.0]), 2.0);
        assert_eq!(gradient_lod([3.0, 4.0, 0.0], [0.0, 0.0, 0.0]), 5f32.log2());
    }
}
