//! The viewport transform (the whole image) and snapping to the
//! sub-pixel grid. Coverage is decided on snapped integer coordinates
//! only, so it is exact and the same on every machine.

/// Bits of sub-pixel precision: vertices snap to 1/256 pixel. Vulkan
/// requires at least 4 (`subPixelPrecisionBits`); Direct3D 11/12 require
/// exactly 8 (`D3D12_SUBPIXEL_FRACTIONAL_BIT_COUNT`), so desktop GPUs have 8.
pub const SUBPIXEL_BITS: u32 = 8;
/// One pixel in sub-pixel units.
pub const ONE: i64 = 1 << SUBPIXEL_BITS;
/// Half a pixel: pixel centres lie at `x * ONE + HALF`.
pub const HALF: i64 = ONE / 2;

/// The whole-image viewport of a W×H target, depth range 0..1.
#[derive(Clone, Copy, Debug)]
pub struct Viewport {
    pub width: u32,
    pub height: u32,
}

/// A vertex in framebuffer space, snapped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Snapped {
    /// Framebuffer x and y (y down) in 1/256 pixel.
    pub x: i64,
    pub y: i64,
    /// 1 / clip w, for perspective-correct interpolation.
    pub inv_w: f64,
}

impl Viewport {
    /// Vulkan's viewport transform of a clip-space position with w > 0:
    /// x_f = (x/w + 1) / 2 * W, y_f = (y/w + 1) / 2 * H (y down, since
    /// Vulkan's framebuffer origin is the top-left corner). Depth is not
    /// kept: there is no depth test.
    pub fn snap(&self, clip: [f64; 4]) -> Snapped {
        let inv_w = 1.0 / clip[3];
        let to_fixed =
            |ndc: f64, size: u32| ((ndc + 1.0) * 0.5 * f64::from(size) * ONE as f64).round() as i64;
        Snapped {
            x: to_fixed(clip[0] * inv_w, self.width),
            y: to_fixed(clip[1] * inv_w, self.height),
            inv_w,
        }
    }

    /// The pixels whose centres lie in `[lo, hi]` (sub-pixel units) along an
    /// axis of `size` pixels, clamped to the image; empty when `first > last`.
    pub fn centre_span(lo: i64, hi: i64, size: u32) -> (i64, i64) {
        let first = ceil_div(lo - HALF, ONE).max(0);
        let last = (hi - HALF).div_euclid(ONE).min(i64::from(size) - 1);
        (first, last)
    }
}

/// ⌈n / d⌉ for d > 0.
pub fn ceil_div(n: i64, d: i64) -> i64 {
    -(-n).div_euclid(d)
}

/// The sub-pixel coordinate of the centre of pixel `p`.
pub fn centre(p: i64) -> i64 {
    p * ONE + HALF
}
