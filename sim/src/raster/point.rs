//! Points: a square of PointSize pixels centred on the vertex. Vulkan
//! leaves samples exactly on the square's border to the implementation;
//! this one takes the left and top borders and leaves the right and bottom
//! ones (the top-left rule), so a square of integer size n covers n × n
//! pixel centres wherever it lies.

use super::clip::{ClipVertex, UserPlanes, point_in_volume};
use super::triangle::Sample;
use super::viewport::{ONE, Viewport, ceil_div, centre};

/// Point sizes are clamped to [1, 2048] pixels, Vulkan's
/// `pointSizeRange` of this model (a project choice: Vulkan requires the
/// range to reach at least 64).
pub const POINT_SIZE_RANGE: (f64, f64) = (1.0, 2048.0);

/// Rasterizes one point given in clip space.
pub fn rasterize(
    vertex: ClipVertex,
    size: f32,
    colour: [f32; 4],
    user: UserPlanes,
    viewport: &Viewport,
    mut emit: impl FnMut(Sample),
) {
    if !point_in_volume(&vertex, user) {
        return;
    }
    let at = viewport.snap(vertex.pos);
    let size = f64::from(size).clamp(POINT_SIZE_RANGE.0, POINT_SIZE_RANGE.1);
    let half = (size * (ONE / 2) as f64).round() as i64;
    // Centres c with at - half <= c < at + half.
    let span = |lo: i64, hi: i64, size: u32| {
        let first = ceil_div(lo - centre(0), ONE).max(0);
        let last = (ceil_div(hi - centre(0), ONE) - 1).min(i64::from(size) - 1);
        first..=last
    };
    for y in span(at.y - half, at.y + half, viewport.height) {
        for x in span(at.x - half, at.x + half, viewport.width) {
            // Within the image: the spans are clamped to it.
            emit(Sample {
                x: x as u32,
                y: y as u32,
                colour,
            });
        }
    }
}
