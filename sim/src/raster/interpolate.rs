//! Attribute interpolation across a primitive.
//!
//! Perspective-correct (Vulkan's default, `smooth`): with screen-space
//! weights λᵢ and clip w of each vertex, a = Σ λᵢ aᵢ / wᵢ ÷ Σ λᵢ / wᵢ.
//! Flat: one value for the whole primitive, from the provoking vertex
//! (the first) or from the per-primitive output.

use super::viewport::Snapped;

/// How the colour of a primitive is found at a sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shading {
    /// The same colour everywhere.
    Flat([f32; 4]),
    /// Perspective-correct interpolation of the vertices' colours.
    Smooth,
}

/// A vertex on screen with its colour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScreenVertex {
    pub at: Snapped,
    pub colour: [f64; 4],
}

/// Perspective-correct interpolation with unnormalized screen-space
/// weights (any common scale cancels out).
pub fn perspective<const N: usize>(vertices: [&ScreenVertex; N], weights: [f64; N]) -> [f32; 4] {
    let q: [f64; N] = std::array::from_fn(|i| weights[i] * vertices[i].at.inv_w);
    let total: f64 = q.iter().sum();
    std::array::from_fn(|c| {
        let sum: f64 = (0..N).map(|i| q[i] * vertices[i].colour[c]).sum();
        (sum / total) as f32
    })
}
