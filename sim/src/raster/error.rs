//! What can stop a rasterization: a bad image size, or mesh outputs the
//! rasterizer cannot draw, named by workgroup and vertex or primitive.

use super::MAX_SIDE;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RasterError {
    #[error(
        "image size {width}x{height} with {layers} layers: width, height and layers must be \
         1 to {MAX_SIDE} and the image at most {max_pixels} pixels"
    )]
    Size {
        width: u32,
        height: u32,
        layers: u32,
        max_pixels: u64,
    },

    #[error("the draw's topology '{0}' is not points, lines or triangles")]
    Topology(String),

    #[error(
        "workgroup ({}, {}, {}) vertex {vertex}: the mesh outputs have no gl_Position to rasterize",
        workgroup[0], workgroup[1], workgroup[2]
    )]
    NoPosition { workgroup: [u32; 3], vertex: u32 },

    #[error(
        "workgroup ({}, {}, {}) vertex {vertex}: {what} is {value}, not a finite number",
        workgroup[0], workgroup[1], workgroup[2]
    )]
    NotFinite {
        workgroup: [u32; 3],
        vertex: u32,
        what: &'static str,
        value: f32,
    },

    #[error(
        "workgroup ({}, {}, {}) primitive {primitive}: {count} vertex indices where the \
         topology has {expected}",
        workgroup[0], workgroup[1], workgroup[2]
    )]
    IndexCount {
        workgroup: [u32; 3],
        primitive: u32,
        count: usize,
        expected: usize,
    },

    #[error(
        "workgroup ({}, {}, {}) primitive {primitive}: vertex index {index} has no vertex \
         ({count} read back)",
        workgroup[0], workgroup[1], workgroup[2]
    )]
    MissingVertex {
        workgroup: [u32; 3],
        primitive: u32,
        index: u32,
        count: usize,
    },

    #[error(
        "workgroup ({}, {}, {}) primitive {primitive}: gl_Layer {layer} is outside the image's \
         {layers} layers",
        workgroup[0], workgroup[1], workgroup[2]
    )]
    LayerOutOfRange {
        workgroup: [u32; 3],
        primitive: u32,
        layer: i32,
        layers: u32,
    },

    #[error(
        "workgroup ({}, {}, {}) primitive {primitive}: gl_ViewportIndex {viewport}, but the \
         rasterizer has one viewport (the whole image)",
        workgroup[0], workgroup[1], workgroup[2]
    )]
    ViewportOutOfRange {
        workgroup: [u32; 3],
        primitive: u32,
        viewport: i32,
    },
}
