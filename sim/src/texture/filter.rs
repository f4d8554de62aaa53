//! Level selection, footprints and LOD from gradients. Vulkan fixes the
//! formulas ("Texel Filtering", "Scale Factor Operation, LOD Operation
//! and Image Level(s) Selection") up to precision; the precision here is
//! what the H200's captures show (docs/TEXTURES.md, "Filtering
//! arithmetic"):
//!
//! - a linear footprint's coordinate `u - 0.5` (in texels) is rounded to
//!   the nearest 1/256 (halves up); clamp-to-edge clamps it to the image
//!   (0 to size - 1) before its integer and fraction parts are taken;
//! - a nearest filter takes `floor(u)` of the float coordinate;
//! - the LOD, after bias and clamps, is truncated to 1/256, so the two
//!   levels of a linear mip filter weigh `256 - f` and `f` 1/256 steps;
//! - gradients give ρ = the longest component + 701/2048 of the others
//!   (per screen axis), λ = log2 ρ + 17/16384 (a fit to the gradient
//!   pairs of an H200 and an H100 capture, see the doc).

use super::header::TextureHeader;
use super::sampler::{Filter, MipFilter, SamplerHeader};

/// The lower texel of a linear footprint along one axis and the upper
/// texel's fraction (0..256, in 1/256 steps), for coordinate `u` in
/// texels, a texel `offset`, and for clamp-to-edge the axis's size (the
/// coordinate is clamped to 0..size - 1 first).
pub fn linear_axis(u: f64, offset: i32, clamp_to: Option<u32>) -> (i64, u32) {
    // Coordinates far outside any image saturate; they wrap or clamp the
    // same way after.
    let limit = (1i64 << 52) as f64;
    let mut q = ((u - 0.5) * 256.0 + 0.5).floor().clamp(-limit, limit) as i64;
    q += i64::from(offset) * 256;
    if let Some(n) = clamp_to {
        q = q.clamp(0, 256 * (i64::from(n.max(1)) - 1));
    }
    (q.div_euclid(256), q.rem_euclid(256) as u32)
}

/// The texel a nearest filter reads for coordinate `u` in texels.
pub fn nearest(u: f32) -> i64 {
    let f = f64::from(u).floor();
    f.clamp(-(1i64 << 52) as f64, (1i64 << 52) as f64) as i64
}

/// The levels a lookup reads with their shares of it in 1/256 steps
/// (one level with 256, or two summing to 256), and the filter to use
/// within them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelChoice {
    pub levels: [(u32, u32); 2],
    pub count: usize,
    pub filter: Filter,
}

impl LevelChoice {
    /// All of the lookup from `level`.
    pub fn one(level: u32, filter: Filter) -> LevelChoice {
        LevelChoice {
            levels: [(level, 256), (level, 0)],
            count: 1,
            filter,
        }
    }
}

/// Chooses levels for LOD `lambda` (before the sampler's bias and
/// clamps): Vulkan's selection with the view's first level as the base,
/// the LOD truncated to 1/256.
pub fn choose_levels(h: &TextureHeader, s: &SamplerHeader, lambda: f32) -> LevelChoice {
    let base = h.view_levels.0;
    let q = h.view_levels.1 - base;
    let mut l = lambda + s.lod_bias;
    l = l.min(s.max_lod).max(s.min_lod).max(h.min_lod_clamp);
    // In 1/256 steps; NaN selects level 0.
    let l = if l.is_nan() {
        0
    } else {
        (f64::from(l) * 256.0).floor().clamp(-1e9, 1e9) as i64
    };
    let filter = if l > 0 { s.min } else { s.mag };
    let d = l.clamp(0, 256 * i64::from(q));
    match s.mip {
        MipFilter::None => LevelChoice::one(base, filter),
        // ⌈d + 0.5⌉ − 1: halves round down.
        MipFilter::Nearest => LevelChoice::one(base + ((d + 127) >> 8) as u32, filter),
        MipFilter::Linear => {
            let hi = (d >> 8) as u32;
            let f = (d & 255) as u32;
            if f == 0 {
                LevelChoice::one(base + hi, filter)
            } else {
                LevelChoice {
                    levels: [(base + hi, 256 - f), (base + (hi + 1).min(q), f)],
                    count: 2,
                    filter,
                }
            }
        }
    }
}

/// Added to λ as backend/src/from_ir/image_grad.rs adds it: 17/64 of a
/// 1/256 step, below the table's steps (the exact log2 with this offset
/// was the first fit to tex_grad; docs/TEXTURES.md).
const LOD_OFFSET: f64 = 17.0 / 16384.0;

/// λ of a 3D TXD (which the compiler does not emit; 1D and 2D lookups
/// and cube faces take `gradient_lod_2d`) for derivatives `dx`, `dy` of
/// the coordinates in texels of the base level: ρ of each derivative is
/// its longest component cut to 9 mantissa bits plus 11/32 of the middle
/// one and 1/4 of the shortest, the pair counts as the largest of ρ(dx),
/// ρ(dy) and 11/16 of ρ(dx + dy) and ρ(dx − dy), and λ is `table_lod` of
/// that, ρ rounded up to a multiple of 2^-11 (the 2D rule before
/// 2026-11-27 extended to three axes, not measured in 3D;
/// docs/TEXTURES.md, "Filtering arithmetic", rule 5).
pub fn gradient_lod(dx: [f32; 3], dy: [f32; 3]) -> f32 {
    let rho = pair_rho(dx, dy);
    // Rounded up to a multiple of 2^-11 texel (what matched tex_grad_pair's
    // 2D words with this rule).
    table_lod(((f64::from(rho) * 2048.0).ceil() / 2048.0) as f32)
}

/// λ of a 2D lookup (or a cube lookup's face derivatives) with gradients
/// `dx`, `dy` in texels of the base level: `table_lod` of `pair_rho2`.
pub fn gradient_lod_2d(dx: [f32; 2], dy: [f32; 2]) -> f32 {
    table_lod(pair_rho2(dx, dy))
}

/// Keeps the top 9 of an f32's 23 mantissa bits (truncated).
const TOP9: u32 = 0xffff_c000;
const EXPONENT: u32 = 0x7f80_0000;

/// `|x|` cut to its top 9 mantissa bits, `m·q` (m of 10 bits, q the value
/// of its last bit), and `q/2^shift` (0 below the normal range).
fn top9(x: f32, shift: u32) -> (f32, f32) {
    let bits = x.to_bits() & 0x7fff_ffff;
    let low = f32::from_bits((bits & EXPONENT).saturating_sub((9 + shift) << 23));
    (f32::from_bits(bits & TOP9), low)
}

/// ρ of a 2D gradient `d` (texels) as the texture unit takes it: the
/// longer component cut to 9 mantissa bits `M·Q`, plus `(11·m + 4)/32·q`
/// for the shorter one's top 9 bits `m·q`. The f32 operations are exact
/// except where the shorter part lies below the longer one's kept bits,
/// where rounding cannot move the table's 8 bits (fitted to every word of
/// tex_grad_sweep, tex_grad_quad and tex_grad_pair's 2D pairs;
/// docs/TEXTURES.md, "Gradient sweeps"); backend/src/from_ir/image_grad.rs
/// emits the same operations.
fn rho2(d: [f32; 2]) -> f32 {
    let (a, b) = (d[0].abs(), d[1].abs());
    let (long, _) = top9(a.max(b), 0);
    let (short, eighth) = top9(a.min(b), 3);
    long + short.mul_add(11.0 / 32.0, eighth)
}

/// 11/16 of a component of a gradient's sum or difference as the unit
/// scales it: `(11·m + 4)/16·q` for its top 9 mantissa bits `m·q`.
fn diagonal(x: f32) -> f32 {
    let (t, quarter) = top9(x, 2);
    t.mul_add(11.0 / 16.0, quarter)
}

/// ρ of a 2D gradient pair (texels): the largest of `rho2` of each and,
/// for their sum and difference, each component scaled by `diagonal`
/// and ρ of that: the longer cut to 9 mantissa bits plus 11/32 of the
/// shorter (not cut). The sums are f32 additions, as the backend's.
fn pair_rho2(dx: [f32; 2], dy: [f32; 2]) -> f32 {
    let diag = |v: [f32; 2]| {
        let (a, b) = (diagonal(v[0]), diagonal(v[1]));
        let (long, _) = top9(a.max(b), 0);
        a.min(b).mul_add(11.0 / 32.0, long)
    };
    let sum = diag([dx[0] + dy[0], dx[1] + dy[1]]);
    let diff = diag([dx[0] - dy[0], dx[1] - dy[1]]);
    rho2(dx).max(rho2(dy)).max(sum).max(diff)
}

/// ρ of a pair of 3D derivatives (texels) by the earlier rule
/// (`gradient_lod`): each one's longest component cut to 9 mantissa bits
/// plus 11/32 of the middle one and 1/4 of the shortest, and the pair the
/// largest of the two and 11/16 of those of their sum and difference.
fn pair_rho(dx: [f32; 3], dy: [f32; 3]) -> f32 {
    let rho = |d: [f32; 3]| {
        let mut a = d.map(f32::abs);
        a.sort_by(|x, y| y.total_cmp(x));
        let longest = f32::from_bits(a[0].to_bits() & 0xffff_c000);
        a[2].mul_add(0.25, a[1].mul_add(11.0 / 32.0, longest))
    };
    let sum = rho([dx[0] + dy[0], dx[1] + dy[1], dx[2] + dy[2]]);
    let diff = rho([dx[0] - dy[0], dx[1] - dy[1], dx[2] - dy[2]]);
    rho(dx).max(rho(dy)).max(sum.max(diff) * (11.0 / 16.0))
}

/// λ of a cube lookup's ρ (`cube::gradient_lod`) as the texture unit
/// takes it: the exponent E of `rho` plus `T[k]/256` for its mantissa's top
/// 8 bits k, `T[k] = ⌊256·log2(1 + (k + ½)/256) + 0.47⌋` (`T[0] = 0`, at most
/// 255; fitted to the H200's tex_grad3d_rho), plus 17/16384 as
/// backend/src/from_ir/image_grad.rs adds it (docs/TEXTURES.md, "3D and
/// cube gradients").
pub fn table_lod(rho: f32) -> f32 {
    let bits = rho.to_bits();
    let exponent = ((bits >> 23) & 0xff) as i32 - 127;
    let k = (bits >> 15) & 0xff;
    let entry = if k == 0 {
        0.0
    } else {
        (256.0 * (1.0 + (f64::from(k) + 0.5) / 256.0).log2() + 0.47)
            .floor()
            .min(255.0)
    };
    (f64::from(exponent) + entry / 256.0) as f32 + LOD_OFFSET as f32
}

#[cfg(test)]
mod tests {
    use super::super::format::Format;
    use super::super::header::Dim;
    use super::*;

    #[test]
    fn footprints_use_1_256_steps() {
        // u = 1.25 texels: lower texel 0, weight of texel 1 is 0.75.
        assert_eq!(linear_axis(1.25, 0, None), (0, 192));
        assert_eq!(linear_axis(0.25, 0, None), (-1, 192));
        // 1/1000 of a texel is below the weights' precision; halves of a
        // step round up.
        assert_eq!(linear_axis(0.501, 0, None), (0, 0));
        assert_eq!(linear_axis(0.503, 0, None), (0, 1));
        assert_eq!(linear_axis(0.5 + 1.0 / 512.0, 0, None), (0, 1));
        // Offsets move whole texels; clamp-to-edge clamps after them.
        assert_eq!(linear_axis(1.25, 2, None), (2, 192));
        assert_eq!(linear_axis(0.25, 0, Some(4)), (0, 0));
        assert_eq!(linear_axis(3.75, 0, Some(4)), (3, 0));
        assert_eq!(linear_axis(1.25, -3, Some(4)), (0, 0));
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
        // Below one step, λ truncates to 0: magnification.
        assert_eq!(choose_levels(&h, &s, 0.003).filter, Filter::Nearest);
        assert_eq!(choose_levels(&h, &s, 9.0).levels[0].0, 3);
        s.mip = MipFilter::Linear;
        let c = choose_levels(&h, &s, 1.25);
        assert_eq!(c.count, 2);
        assert_eq!(c.levels, [(1, 192), (2, 64)]);
        // The H200 truncates: 0.05 gives level 1 12/256, not 13.
        assert_eq!(choose_levels(&h, &s, 0.05).levels, [(0, 244), (1, 12)]);
        s.lod_bias = 1.0;
        s.max_lod = 1.5;
        assert_eq!(choose_levels(&h, &s, 0.5).levels, [(1, 128), (2, 128)]);
        // The view's base level counts as level 0 of the lookup.
        h.view_levels = (2, 3);
        s.lod_bias = 0.0;
        s.mip = MipFilter::None;
        assert_eq!(choose_levels(&h, &s, 3.0).levels[0].0, 2);
    }

    #[test]
    fn gradient_lods_of_the_h200_capture() {
        // tex_sample's textureGrad: (dx, dy) in texels and the level
        // fraction (in 1/256) the H200 used.
        let steps = |dx: [f32; 3], dy: [f32; 3]| {
            (gradient_lod_2d([dx[0], dx[1]], [dy[0], dy[1]]) * 256.0).floor()
        };
        assert_eq!(steps([0.0, 0.2, 0.0], [0.0, 1.12, 0.0]), 42.0);
        assert_eq!(steps([0.8, 0.2, 0.0], [0.0, 1.12, 0.0]), 42.0);
        assert_eq!(steps([1.2, 0.2, 0.0], [0.0, 0.0, 0.0]), 88.0);
        assert_eq!(steps([1.6, 0.2, 0.0], [0.0, 1.12, 0.0]), 189.0);
        assert_eq!(steps([2.0, 0.2, 0.0], [0.0, 0.56, 0.0]), 268.0);
        assert_eq!(steps([2.4, 0.2, 0.0], [0.0, 0.84, 0.0]), 333.0);
        // Magnification: below 0.
        assert!(gradient_lod_2d([0.8, 0.2], [0.0, 0.84]) < 0.0);
    }

    /// `pair_rho2`'s f32 operations give the table the same exponent and
    /// top 8 mantissa bits as the rule computed exactly (f64, where every
    /// step is exact), over gradients of every size and angle.
    #[test]
    fn the_2d_rule_in_f32_reads_the_table_as_exactly() {
        let top9 = |x: f64| -> (f64, f64) {
            if x == 0.0 {
                return (0.0, 0.0);
            }
            let q = 2f64.powi(x.log2().floor() as i32 - 9);
            ((x / q).floor(), q)
        };
        let rho = |d: [f64; 2]| {
            let (a, b) = (d[0].abs().max(d[1].abs()), d[0].abs().min(d[1].abs()));
            let (m, q) = top9(a);
            let (n, r) = top9(b);
            m * q + (11.0 * n + 4.0) * r / 32.0
        };
        let diag = |d: [f64; 2]| {
            let s = d.map(|c| {
                let (m, q) = top9(c.abs());
                (11.0 * m + 4.0) * q / 16.0
            });
            let (a, b) = (s[0].max(s[1]), s[0].min(s[1]));
            let (m, q) = top9(a);
            m * q + 11.0 / 32.0 * b
        };
        let code = |r: f64| {
            let e = r.log2().floor();
            (e, ((r / 2f64.powf(e) - 1.0) * 256.0).floor())
        };
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // A float of 1..20 random bits at a random scale.
            let bits = (seed >> 40) as u32 & ((1 << (1 + (seed % 20))) - 1);
            let v = bits as f32 * 2f32.powi((seed >> 8) as i32 % 24 - 16);
            if seed & 1 == 0 { v } else { -v }
        };
        for _ in 0..200_000 {
            let (x, y) = ([next(), next()], [next(), next()]);
            let exact = {
                let (x, y) = (x.map(f64::from), y.map(f64::from));
                let s = [x[0] + y[0], x[1] + y[1]];
                let d = [x[0] - y[0], x[1] - y[1]];
                rho(x).max(rho(y)).max(diag(s)).max(diag(d))
            };
            if exact == 0.0 {
                continue;
            }
            // The sums are f32 additions in the rule: compare where they
            // are exact.
            if f64::from(x[0] + y[0]) != f64::from(x[0]) + f64::from(y[0])
                || f64::from(x[1] + y[1]) != f64::from(x[1]) + f64::from(y[1])
                || f64::from(x[0] - y[0]) != f64::from(x[0]) - f64::from(y[0])
                || f64::from(x[1] - y[1]) != f64::from(x[1]) - f64::from(y[1])
            {
                continue;
            }
            let got = f64::from(pair_rho2(x, y));
            assert_eq!(code(got), code(exact), "{x:?} {y:?}: {got} against {exact}");
        }
    }

    #[test]
    fn gradient_lods_of_the_h100_capture() {
        // tex_grad's R32F lookups (16×16 texels, level L holding
        // 64L..64L+63, so each result gives the fraction): the longest
        // gradient in texels and the 1/256 step the H100 used. log2 1.5
        // is 149.75 steps, yet the H100 takes 150 (the table: T[128] =
        // 150); the diagonal 1.06 · (1, 1), ρ = 1.0605 + 11/32 · 1.0605 =
        // 1.4251 (mantissa code 108), takes T[108] = 130.
        let steps = |d: [f32; 3]| (gradient_lod_2d([d[0], d[1]], [0.0; 2]) * 256.0).floor();
        assert_eq!(steps([1.5, 0.0, 0.0]), 150.0);
        // 1.060546875 = 1 + 31/512.
        let d = 1.0 + 31.0 / 512.0;
        assert_eq!(steps([d, d, 0.0]), 130.0);
        assert_eq!(steps([1.843_75, 0.765_625, 0.0]), 275.0);
        assert_eq!(steps([2.765_625, 1.148_437_5, 0.0]), 425.0);
        assert_eq!(steps([3.6875, 1.531_25, 0.0]), 531.0);
        assert_eq!(steps([5.531_25, 2.296_875, 0.0]), 681.0);
        assert_eq!(steps([7.375, 3.0625, 0.0]), 787.0);
        assert_eq!(steps([11.0625, 4.593_75, 0.0]), 937.0);
        // One texel per step: magnification (λ below one step).
        assert_eq!(steps([1.0, 0.0, 0.0]), 0.0);
    }
}
