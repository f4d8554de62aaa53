//! The rasterizer: draws a mesh draw's primitives into an RGBA32F image
//! by Vulkan's rules, as a pass-through fragment shader would colour them.
//!
//! The pipeline, one module per step: primitive assembly with the
//! shader's culling and cull distances (`assemble`), clipping in clip
//! space against the view volume and clip distances (`clip`), the
//! viewport transform and snapping to 1/256 pixel (`viewport`), coverage
//! by integer edge functions with the top-left rule (`edge`) for
//! triangles (`triangle`), lines (`line`) and points (`point`),
//! attribute interpolation (`interpolate`), and the image
//! (`framebuffer`).
//!
//! There is no depth test and no blending: fragments are written in
//! primitive order (workgroup order, then primitive index), so where
//! primitives overlap the last one wins. The result depends only on the
//! draw, never on threads or timing.

mod assemble;
mod clip;
mod edge;
mod error;
mod framebuffer;
mod interpolate;
mod line;
mod point;
mod triangle;
mod viewport;

pub use assemble::DEFAULT_COLOUR;
pub use error::RasterError;
pub use framebuffer::Framebuffer;
pub use point::POINT_SIZE_RANGE;
pub use viewport::SUBPIXEL_BITS;

use crate::mesh::MeshDraw;
use assemble::{Topology, VertexCache, primitive};
use std::str::FromStr;
use viewport::Viewport;

/// The largest image side (and layer count): keeps snapped coordinates
/// and edge functions far inside 64-bit integers (see `clip`).
pub const MAX_SIDE: u32 = 16384;
/// The largest image: 2^26 pixels, 1 GiB of RGBA32F.
pub const MAX_PIXELS: u64 = 1 << 26;

/// Which faces `cull_mode` removes (VkCullModeFlags).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CullMode {
    #[default]
    None,
    Front,
    Back,
    /// Every triangle (lines and points are never culled by facing).
    FrontAndBack,
}

/// Which winding is front-facing (VkFrontFace), as seen on the image
/// (y down).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FrontFace {
    #[default]
    CounterClockwise,
    Clockwise,
}

/// How per-vertex colours are interpolated: the fragment shader input's
/// decoration (none, or `Flat`). Per-primitive colours are always flat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Interpolation {
    #[default]
    Smooth,
    Flat,
}

impl FromStr for CullMode {
    type Err = String;
    fn from_str(s: &str) -> Result<CullMode, String> {
        match s {
            "none" => Ok(CullMode::None),
            "front" => Ok(CullMode::Front),
            "back" => Ok(CullMode::Back),
            "front_and_back" => Ok(CullMode::FrontAndBack),
            _ => Err(format!(
                "'{s}' is not a cull mode: none, front, back or front_and_back"
            )),
        }
    }
}

impl FromStr for FrontFace {
    type Err = String;
    fn from_str(s: &str) -> Result<FrontFace, String> {
        match s {
            "ccw" => Ok(FrontFace::CounterClockwise),
            "cw" => Ok(FrontFace::Clockwise),
            _ => Err(format!("'{s}' is not a front face: ccw or cw")),
        }
    }
}

/// The render target and the pipeline state the rasterizer reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderState {
    pub width: u32,
    pub height: u32,
    pub layers: u32,
    pub cull_mode: CullMode,
    pub front_face: FrontFace,
    pub interpolation: Interpolation,
}

impl Default for RenderState {
    /// 64×64, one layer, no culling, counter-clockwise front faces,
    /// perspective-correct colours.
    fn default() -> RenderState {
        RenderState {
            width: 64,
            height: 64,
            layers: 1,
            cull_mode: CullMode::None,
            front_face: FrontFace::CounterClockwise,
            interpolation: Interpolation::Smooth,
        }
    }
}

impl RenderState {
    /// The in-shader culling words of a draw with this state (docs/ABI.md):
    /// the windings `cull_mode` removes given `front_face`, frustum and
    /// small-primitive culling (triangles only), the viewport and the
    /// snapping precision.
    pub fn shader_cull(&self) -> spvsass_isa::abi::CullControl {
        use spvsass_isa::abi::cull;
        let ccw_front = self.front_face == FrontFace::CounterClockwise;
        let (front, back) = if ccw_front {
            (cull::CCW, cull::CW)
        } else {
            (cull::CW, cull::CCW)
        };
        let faces = match self.cull_mode {
            CullMode::None => 0,
            CullMode::Front => front,
            CullMode::Back => back,
            CullMode::FrontAndBack => front | back,
        };
        spvsass_isa::abi::CullControl {
            modes: faces | cull::FRUSTUM | cull::SMALL,
            viewport: [self.width, self.height],
            subpixel_bits: SUBPIXEL_BITS,
        }
    }

    fn check(&self) -> Result<Viewport, RasterError> {
        let sides = [self.width, self.height, self.layers];
        // Saturating: three sides near 2^32 overflow u64 before the check.
        let pixels = sides
            .iter()
            .fold(1u64, |p, &s| p.saturating_mul(u64::from(s)));
        if sides.iter().any(|&s| s == 0 || s > MAX_SIDE) || pixels > MAX_PIXELS {
            return Err(RasterError::Size {
                width: self.width,
                height: self.height,
                layers: self.layers,
                max_pixels: MAX_PIXELS,
            });
        }
        Ok(Viewport {
            width: self.width,
            height: self.height,
        })
    }
}

/// A pixel a primitive covers, and the colour it gets there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fragment {
    pub x: u32,
    pub y: u32,
    pub layer: u32,
    /// Index into the draw's workgroups.
    pub workgroup: usize,
    pub primitive: u32,
    pub colour: [f32; 4],
}

/// Visits every fragment of the draw in primitive order.
pub fn fragments(
    draw: &MeshDraw,
    state: &RenderState,
    mut visit: impl FnMut(Fragment),
) -> Result<(), RasterError> {
    let viewport = state.check()?;
    let topology = Topology::from_name(draw.topology)?;
    for (workgroup, wg) in draw.workgroups.iter().enumerate() {
        let mut cache = VertexCache::new(wg, topology);
        for index in 0..wg.primitive_count {
            let Some(p) = primitive(&mut cache, index, state)? else {
                continue;
            };
            let emit = |s: triangle::Sample| {
                visit(Fragment {
                    x: s.x,
                    y: s.y,
                    layer: p.layer,
                    workgroup,
                    primitive: index,
                    colour: s.colour,
                })
            };
            let v = |i: usize| p.vertices[i];
            match topology {
                Topology::Points => {
                    let colour = match p.shading {
                        interpolate::Shading::Flat(c) => c,
                        interpolate::Shading::Smooth => v(0).colour.map(|c| c as f32),
                    };
                    let size = p.point_size;
                    point::rasterize(v(0), size, colour, p.user_planes, &viewport, emit)
                }
                Topology::Lines => {
                    let segment = [v(0), v(1)];
                    line::rasterize(segment, p.shading, p.user_planes, &viewport, emit)
                }
                Topology::Triangles => triangle::rasterize(
                    [v(0), v(1), v(2)],
                    (p.shading, p.user_planes),
                    &viewport,
                    (state.cull_mode, state.front_face),
                    emit,
                ),
            }
        }
    }
    Ok(())
}

/// Renders the draw into a cleared image (0, 0, 0, 0).
pub fn render(draw: &MeshDraw, state: &RenderState) -> Result<Framebuffer, RasterError> {
    state.check()?;
    let mut image = Framebuffer::new(state.width, state.height, state.layers);
    fragments(draw, state, |f| image.set(f.x, f.y, f.layer, f.colour))?;
    Ok(image)
}
