//! Primitive assembly: a mesh draw's outputs turned into primitives in
//! clip space with their colour, layer and shading, in draw order
//! (workgroup order, then primitive index). Culled primitives are
//! dropped here.

use super::clip::ClipVertex;
use super::error::RasterError;
use super::interpolate::Shading;
use super::{Interpolation, RenderState};
use crate::mesh::{Attributes, MeshWorkgroup};

/// What a draw rasterizes as: its topology.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Topology {
    Points,
    Lines,
    Triangles,
}

impl Topology {
    pub fn vertices_per_primitive(self) -> usize {
        match self {
            Topology::Points => 1,
            Topology::Lines => 2,
            Topology::Triangles => 3,
        }
    }

    pub fn from_name(name: &str) -> Result<Topology, RasterError> {
        match name {
            "points" => Ok(Topology::Points),
            "lines" => Ok(Topology::Lines),
            "triangles" => Ok(Topology::Triangles),
            other => Err(RasterError::Topology(other.into())),
        }
    }
}

/// The colour where the shader writes none at Location 0: opaque white,
/// so coverage still shows.
pub const DEFAULT_COLOUR: [f64; 4] = [1.0, 1.0, 1.0, 1.0];

/// One primitive ready for clipping.
pub struct Primitive {
    /// 1, 2 or 3 vertices by topology.
    pub vertices: Vec<ClipVertex>,
    /// PointSize of the (only) vertex of a point, 1 when not written.
    pub point_size: f32,
    pub shading: Shading,
    pub layer: u32,
}

/// The colour output (Location 0) of a vertex or primitive. Components
/// the shader does not output read as 0, alpha as 1 (Vulkan's default
/// for missing vertex-input components, chosen here for the same case).
fn colour(attrs: &Attributes) -> Option<[f64; 4]> {
    attrs.generic.get(&0).map(|c| {
        let default = [0.0, 0.0, 0.0, 1.0];
        std::array::from_fn(|i| c[i].map_or(default[i], f64::from))
    })
}

/// Whether the shader culled the primitive (gl_CullPrimitiveEXT). The
/// hardware culls through the per-primitive VIEWPORT_MASK, 0 for a culled
/// primitive (nvidia-facts.md §3); the draw reads it back as `cull`.
fn culled(primitive: Option<&Attributes>) -> bool {
    primitive.and_then(|p| p.cull) == Some(true)
}

/// The primitive `index` of `wg`, or `None` when it is culled.
pub fn primitive(
    wg: &MeshWorkgroup,
    index: u32,
    topology: Topology,
    state: &RenderState,
) -> Result<Option<Primitive>, RasterError> {
    let per_primitive = wg.primitives.get(index as usize);
    if culled(per_primitive) {
        return Ok(None);
    }
    let layer = match per_primitive.and_then(|p| p.layer) {
        None => 0,
        Some(layer) => u32::try_from(layer)
            .ok()
            .filter(|&l| l < state.layers)
            .ok_or(RasterError::LayerOutOfRange {
                workgroup: wg.id,
                primitive: index,
                layer,
                layers: state.layers,
            })?,
    };
    if let Some(viewport) = per_primitive
        .and_then(|p| p.viewport_index)
        .filter(|&v| v != 0)
    {
        return Err(RasterError::ViewportOutOfRange {
            workgroup: wg.id,
            primitive: index,
            viewport,
        });
    }
    let mut vertices = Vec::with_capacity(3);
    let mut point_size = 1.0;
    let indices = wg
        .indices
        .get(index as usize)
        .map_or(&[][..], Vec::as_slice);
    if indices.len() != topology.vertices_per_primitive() {
        return Err(RasterError::IndexCount {
            workgroup: wg.id,
            primitive: index,
            count: indices.len(),
            expected: topology.vertices_per_primitive(),
        });
    }
    for &v in indices {
        let attrs = wg
            .vertices
            .get(v as usize)
            .ok_or(RasterError::MissingVertex {
                workgroup: wg.id,
                primitive: index,
                index: v,
                count: wg.vertices.len(),
            })?;
        let finite = |what, value: f32| {
            if value.is_finite() {
                Ok(f64::from(value))
            } else {
                Err(RasterError::NotFinite {
                    workgroup: wg.id,
                    vertex: v,
                    what,
                    value,
                })
            }
        };
        let position = attrs.position.ok_or(RasterError::NoPosition {
            workgroup: wg.id,
            vertex: v,
        })?;
        let pos = [
            finite("gl_Position.x", position[0])?,
            finite("gl_Position.y", position[1])?,
            finite("gl_Position.z", position[2])?,
            finite("gl_Position.w", position[3])?,
        ];
        // Only points read their size.
        if let (Some(size), Topology::Points) = (attrs.point_size, topology) {
            point_size = finite("gl_PointSize", size)? as f32;
        }
        vertices.push(ClipVertex {
            pos,
            colour: colour(attrs).unwrap_or(DEFAULT_COLOUR),
        });
    }
    let per_primitive_colour = per_primitive.and_then(colour);
    let shading = match (per_primitive_colour, state.interpolation) {
        (Some(c), _) => Shading::Flat(c.map(|c| c as f32)),
        // The provoking vertex is the first.
        (None, Interpolation::Flat) => Shading::Flat(
            vertices
                .first()
                .map_or(DEFAULT_COLOUR, |v| v.colour)
                .map(|c| c as f32),
        ),
        (None, Interpolation::Smooth) => Shading::Smooth,
    };
    Ok(Some(Primitive {
        vertices,
        point_size,
        shading,
        layer,
    }))
}
