//! Primitive assembly: a mesh draw's outputs turned into primitives in
//! clip space with their colour, layer and shading, in draw order
//! (workgroup order, then primitive index). Culled primitives are
//! dropped here: by the shader's cull flag, and by cull distances.

use super::clip::{ClipVertex, MAX_CLIP_DISTANCES, UserPlanes};
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
    /// The clip distances its vertices have, to clip it by.
    pub user_planes: UserPlanes,
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
/// primitive (docs/HARDWARE.md, "ISBE"); the draw reads it back as `cull`.
fn culled(primitive: Option<&Attributes>) -> bool {
    primitive.and_then(|p| p.cull) == Some(true)
}

/// A vertex converted for rasterization.
#[derive(Clone, Copy)]
struct Converted {
    vertex: ClipVertex,
    point_size: f32,
    /// Bit k: the vertex has `gl_ClipDistance[k]`.
    clip_planes: u8,
    /// Bit k: `gl_CullDistance[k]` is negative or NaN (outside, as NaN clip
    /// distances are).
    cull_outside: u8,
}

/// The mask with bit k set for each index k (those past
/// `MAX_CLIP_DISTANCES` cannot come from the read-back and are ignored).
fn mask<'a>(indices: impl Iterator<Item = &'a u32>) -> u8 {
    indices
        .filter(|&&k| (k as usize) < MAX_CLIP_DISTANCES)
        .fold(0, |m, &k| m | 1 << k)
}

/// The vertices of one workgroup in clip space, each converted and
/// checked when a primitive first uses it (vertices are shared; one no
/// primitive uses may hold anything).
pub struct VertexCache<'a> {
    wg: &'a MeshWorkgroup,
    topology: Topology,
    converted: Vec<Option<Converted>>,
}

impl<'a> VertexCache<'a> {
    pub fn new(wg: &'a MeshWorkgroup, topology: Topology) -> VertexCache<'a> {
        VertexCache {
            wg,
            topology,
            converted: vec![None; wg.vertices.len()],
        }
    }

    /// Vertex `v` (used by `primitive`), converted.
    fn get(&mut self, primitive: u32, v: u32) -> Result<Converted, RasterError> {
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
        // Distances may be NaN or infinite: clipping and culling treat NaN
        // as outside, and infinities are ordinary far-away values.
        let mut clip = [0.0; MAX_CLIP_DISTANCES];
        for (&k, &d) in &attrs.clip_distance {
            if let Some(slot) = clip.get_mut(k as usize) {
                *slot = f64::from(d);
            }
        }
        let outside = attrs
            .cull_distance
            .iter()
            .filter(|&(_, &d)| d.is_nan() || d < 0.0);
        let converted = Converted {
            vertex: ClipVertex {
                pos,
                colour: colour(attrs).unwrap_or(DEFAULT_COLOUR),
                clip,
            },
            point_size: size,
            clip_planes: mask(attrs.clip_distance.keys()),
            cull_outside: mask(outside.map(|(k, _)| k)),
        };
        *slot = Some(converted);
        Ok(converted)
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
    let mut user_planes = 0;
    // Vulkan discards a primitive when, for some cull distance, every
    // vertex is outside it.
    let mut cull_outside = u8::MAX;
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
        let converted = cache.get(index, v)?;
        *slot = converted.vertex;
        point_size = converted.point_size;
        user_planes |= converted.clip_planes;
        cull_outside &= converted.cull_outside;
    }
    if cull_outside != 0 {
        return Ok(None);
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
        user_planes: UserPlanes(user_planes),
    }))
}
