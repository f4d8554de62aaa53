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
    /// The first 1, 2 or 3 by topology are the primitive's (no allocation
    /// per primitive).
    pub vertices: [ClipVertex; 3],
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

/// The vertices of one workgroup in clip space, each converted and
/// checked when a primitive first uses it (vertices are shared; one no
/// primitive uses may hold anything).
pub struct VertexCache<'a> {
    wg: &'a MeshWorkgroup,
    topology: Topology,
    converted: Vec<Option<(ClipVertex, f32)>>,
}

impl<'a> VertexCache<'a> {
    pub fn new(wg: &'a MeshWorkgroup, topology: Topology) -> VertexCache<'a> {
        VertexCache {
            wg,
            topology,
            converted: vec![None; wg.vertices.len()],
        }
    }

    /// Vertex `v` (used by `primitive`) and its point size.
    fn get(&mut self, primitive: u32, v: u32) -> Result<(ClipVertex, f32), RasterError> {
        let wg = self.wg;
        let slot = self
            .converted
            .get_mut(v as usize)
            .ok_or(RasterError::MissingVertex {
                workgroup: wg.id,
                primitive,
                index: v,
                count: wg.vertices.len(),
            })?;
        if let Some(done) = slot {
            return Ok(*done);
        }
        let attrs = &wg.vertices[v as usize];
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
        let size = match (attrs.point_size, self.topology) {
            (Some(size), Topology::Points) => finite("gl_PointSize", size)? as f32,
            _ => 1.0,
        };
        let vertex = ClipVertex {
            pos,
            colour: colour(attrs).unwrap_or(DEFAULT_COLOUR),
        };
        *slot = Some((vertex, size));
        Ok((vertex, size))
    }
}

/// The primitive `index` of the cache's workgroup, or `None` when it is
/// culled.
pub fn primitive(
    cache: &mut VertexCache,
    index: u32,
    state: &RenderState,
) -> Result<Option<Primitive>, RasterError> {
    let (wg, topology) = (cache.wg, cache.topology);
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
    let mut vertices = [ClipVertex::default(); 3];
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
    for (slot, &v) in vertices.iter_mut().zip(indices) {
        let (vertex, size) = cache.get(index, v)?;
        *slot = vertex;
        point_size = size;
    }
    let per_primitive_colour = per_primitive.and_then(colour);
    let shading = match (per_primitive_colour, state.interpolation) {
        (Some(c), _) => Shading::Flat(c.map(|c| c as f32)),
        // The provoking vertex is the first.
        (None, Interpolation::Flat) => Shading::Flat(vertices[0].colour.map(|c| c as f32)),
        (None, Interpolation::Smooth) => Shading::Smooth,
    };
    Ok(Some(Primitive {
        vertices,
        point_size,
        shading,
        layer,
    }))
}
