//! Mesh draws: one warp per workgroup over the group grid, then each
//! workgroup's outputs read back from its output ISBE (through the layout
//! in `isbe_layout`, the one the compiler writes with) and presented by
//! meaning.

use crate::SimOptions;
use crate::counters::{Counters, PipelineStatistics};
use crate::error::SimError;
use crate::isbe::{Isbe, IsbeRegion, attr_layouts};
use crate::launch_order::in_launch_order;
use crate::memory::Resources;
use crate::program::Program;
use crate::warp::{Launch, lane_count, run_workgroup};
use serde::Serialize;
use spvsass_isa::abi::{self, RootTable};
use spvsass_isa::binary::{Binary, MeshState};
use spvsass_isa::isbe_layout::{AttrLayout, addr, map};
use spvsass_isa::sph::{Sph, bits};
use std::collections::BTreeMap;

/// The result of a mesh draw.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeshDraw {
    /// "points", "lines" or "triangles".
    pub topology: &'static str,
    /// The task workgroups of a draw with a task shader, in launch order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tasks: Vec<TaskWorkgroup>,
    /// In launch order: x fastest, then y, then z (with a task shader:
    /// task workgroup by task workgroup, then mesh group index).
    pub workgroups: Vec<MeshWorkgroup>,
    /// Summed over all workgroups.
    pub counters: Counters,
    pub statistics: PipelineStatistics,
    /// The slots a pipeline-statistics query of the draw fills: one, or
    /// one per view of a multiview draw (the first holds the counts, the
    /// others zeros, as NVK writes them; docs/HARDWARE.md, "Multiview").
    pub queries: Vec<PipelineStatistics>,
}

/// What one task workgroup launched.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TaskWorkgroup {
    pub id: [u32; 3],
    /// The x/y/z mesh workgroup counts it emitted.
    pub mesh_groups: [u32; 3],
}

/// What one workgroup emitted.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeshWorkgroup {
    /// Within the draw's grid, or within the launching task workgroup's.
    pub id: [u32; 3],
    /// The index of the task workgroup that launched it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task_workgroup: Option<u32>,
    pub primitive_count: u32,
    /// The vertex indices of each primitive (1, 2 or 3 by topology).
    pub indices: Vec<Vec<u32>>,
    /// Vertices 0 up to the largest index used: the hardware stores no
    /// vertex count, so vertices no primitive uses past that are not shown.
    pub vertices: Vec<Attributes>,
    /// The per-primitive attributes of each primitive; empty when the
    /// shader has none.
    pub primitives: Vec<Attributes>,
}

/// The attributes of one vertex or primitive, by meaning. A field is
/// present when the shader's layout has the component (written or not:
/// output memory starts zeroed).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Attributes {
    /// gl_Position, when all four components are in the layout.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<[f32; 4]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub point_size: Option<f32>,
    /// gl_PrimitiveID, gl_Layer, gl_ViewportIndex (per primitive).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub primitive_id: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layer: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub viewport_index: Option<i32>,
    /// gl_PrimitiveShadingRateEXT.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shading_rate: Option<i32>,
    /// Culled: the primitive's VIEWPORT_MASK is 0 (CullPrimitiveEXT).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cull: Option<bool>,
    /// gl_ClipDistance and gl_CullDistance by array index: the words of
    /// 0x2c0..0x2e0 the shader writes, the first `clip_distances` of the
    /// binary's mesh state clip, the ones after them cull.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub clip_distance: BTreeMap<u32, f32>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub cull_distance: BTreeMap<u32, f32>,
    /// Generic attributes by location, one entry per component.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub generic: BTreeMap<u32, [Option<f32>; 4]>,
    /// Every other component (and a partial position) as raw bits, by SPH
    /// address.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub other: BTreeMap<u16, u32>,
}

/// Runs a mesh shader over a `groups` grid of workgroups and reads back
/// what each emitted. The step budget applies to each workgroup, the
/// total step and output budgets to the whole draw.
pub fn run_mesh(
    binary: &Binary,
    groups: [u32; 3],
    options: &SimOptions,
) -> Result<MeshDraw, SimError> {
    let mut root = RootTable::default();
    let mut resources = Resources::default();
    let query = draw_root(&mut root, &mut resources, groups, options);
    resources
        .constants
        .set(abi::ROOT_BANK, root.bytes().to_vec());
    run_mesh_view(binary, groups, &mut resources, query, options)
}

/// [`run_mesh`] with the draw's `resources`: the root table (constant bank
/// 0, `draw_root`) of the view it renders, the bound buffers and the
/// statistics `query` block.
pub(crate) fn run_mesh_view(
    binary: &Binary,
    groups: [u32; 3],
    resources: &mut Resources,
    query: QueryBlock,
    options: &SimOptions,
) -> Result<MeshDraw, SimError> {
    let mesh = binary.mesh.as_ref().ok_or(SimError::NotMesh {
        stage: binary.stage.name(),
    })?;
    let program = Program::decode(&binary.code, binary.arch)?;
    let total = check_draw_groups(groups)?;
    lane_count(binary.workgroup_size)?;
    // Each workgroup runs into its own ISBE and counts into the query
    // block; results come in launch order and the first error in that
    // order wins, so the draw is the same whatever the thread count.
    // The step and output budgets end the whole draw at the workgroup
    // that passes them.
    let writes = program.writes_global();
    let local = local_bytes(binary);
    let mut budget = DrawBudget::new(options);
    let runs = in_launch_order(
        total,
        resources,
        query,
        writes,
        |index, resources| {
            let id = grid_id(index, groups);
            let launch = Launch {
                workgroup_size: binary.workgroup_size,
                workgroup_id: id,
            };
            let mut isbe = Isbe::for_mesh(mesh, index);
            resources.local_bytes = local;
            query.reset(resources);
            let run =
                run_workgroup(&program, &launch, &mut isbe, resources, options).map_err(|e| {
                    SimError::InWorkgroup {
                        workgroup: id,
                        error: Box::new(e),
                    }
                })?;
            let counted = query.statistics(resources);
            Ok::<_, SimError>((run, counted, read_mesh_outputs(mesh, &isbe, id)?))
        },
        |(run, _, wg)| budget.add(run, wg.retained_bytes(), wg.id),
    )?;
    let mut counters = Counters::default();
    let mut statistics = PipelineStatistics::default();
    let mut workgroups = Vec::with_capacity(runs.len());
    for (run, counted, wg) in runs {
        counters.add(&run);
        statistics.add(&counted);
        workgroups.push(wg);
    }
    Ok(MeshDraw {
        topology: mesh.topology.name(),
        tasks: Vec::new(),
        workgroups,
        counters,
        statistics,
        queries: vec![statistics],
    })
}

/// Checks a draw's grid against the hardware's limits (`limits`) and
/// returns its workgroup count.
pub(crate) fn check_draw_groups(groups: [u32; 3]) -> Result<u32, SimError> {
    use spvsass_isa::limits::{MAX_DRAW_GROUPS, MAX_DRAW_GROUPS_TOTAL};
    let total = groups
        .iter()
        .fold(1u64, |a, &g| a.saturating_mul(u64::from(g)));
    if groups.iter().zip(MAX_DRAW_GROUPS).any(|(&g, l)| g > l)
        || total > u64::from(MAX_DRAW_GROUPS_TOTAL)
    {
        return Err(SimError::TooManyGroups {
            groups,
            limit: MAX_DRAW_GROUPS,
            property: "maxMeshWorkGroupCount / maxTaskWorkGroupCount, at most 2^22 in all",
        });
    }
    // At most 2^22.
    Ok(total as u32)
}

/// The id of workgroup `index` of a grid, x fastest (the grid has at
/// most 2^22 workgroups, `check_draw_groups`, so nothing overflows).
pub(crate) fn grid_id(index: u32, groups: [u32; 3]) -> [u32; 3] {
    [
        index % groups[0],
        index / groups[0] % groups[1],
        index / (groups[0] * groups[1]),
    ]
}

/// A draw's running totals, added in launch order: warp-instructions and
/// the estimated bytes of the outputs it keeps, against
/// `SimOptions::max_total_steps` and `max_output_bytes`.
pub(crate) struct DrawBudget {
    steps: u64,
    bytes: u64,
    max_steps: u64,
    max_bytes: u64,
}

impl DrawBudget {
    pub fn new(options: &SimOptions) -> DrawBudget {
        DrawBudget {
            steps: 0,
            bytes: 0,
            max_steps: options.max_total_steps,
            max_bytes: options.max_output_bytes,
        }
    }

    /// Adds what `workgroup` ran and kept; an error once a budget is
    /// passed.
    pub fn add(
        &mut self,
        counters: &Counters,
        bytes: u64,
        workgroup: [u32; 3],
    ) -> Result<(), SimError> {
        self.steps = self.steps.saturating_add(counters.warp_instructions);
        self.bytes = self.bytes.saturating_add(bytes);
        if self.steps > self.max_steps {
            return Err(SimError::TotalStepLimit {
                workgroup,
                steps: self.steps,
                limit: self.max_steps,
            });
        }
        if self.bytes > self.max_bytes {
            return Err(SimError::OutputLimit {
                workgroup,
                bytes: self.bytes,
                limit: self.max_bytes,
            });
        }
        Ok(())
    }
}

impl MeshWorkgroup {
    /// An estimate of the bytes this result holds (its vectors and maps),
    /// for `SimOptions::max_output_bytes`.
    pub fn retained_bytes(&self) -> u64 {
        // A map entry with its share of a B-tree node, roughly.
        const ENTRY: usize = 48;
        let attributes = |a: &Attributes| {
            std::mem::size_of::<Attributes>()
                + ENTRY
                    * (a.clip_distance.len()
                        + a.cull_distance.len()
                        + a.generic.len()
                        + a.other.len())
        };
        let indices: usize = self
            .indices
            .iter()
            .map(|t| std::mem::size_of::<Vec<u32>>() + 4 * t.len())
            .sum();
        let attrs: usize = self
            .vertices
            .iter()
            .chain(&self.primitives)
            .map(attributes)
            .sum();
        (std::mem::size_of::<MeshWorkgroup>() + indices + attrs) as u64
    }
}

/// The root table of a draw of `groups` workgroups, with a zeroed
/// statistics query block mapped in `resources` (after any bound
/// buffers): the grid (which the shaders split their linear index by),
/// draw index 0, the block's address (0 where `options` has no query
/// active) and the culling words of `options` at their ABI slots. The caller binds buffers and push constants first, sets the
/// view index of each view and stores the table in constant bank 0.
pub(crate) fn draw_root(
    root: &mut RootTable,
    resources: &mut Resources,
    groups: [u32; 3],
    options: &SimOptions,
) -> QueryBlock {
    let query = QueryBlock {
        base: resources.global.map(vec![0; abi::query::BYTES as usize]),
    };
    root.set_num_workgroups(groups);
    root.set_draw_index(0);
    root.set_cull_control(&options.cull);
    root.set_query_address(if options.statistics_query {
        query.base
    } else {
        0
    });
    query
}

/// The local memory per invocation a task or mesh binary asks for: its
/// SPH's SHADER_LOCAL_MEMORY_LOW_SIZE (compute binaries carry their own).
pub(crate) fn local_bytes(binary: &Binary) -> u32 {
    binary.sph.map_or(0, |s| Sph(s).get(bits::LOCAL_MEMORY_LOW))
}

/// The statistics query block of a draw (`abi::query`), one buffer of its
/// global memory that every workgroup's shader counts into (RED.E.ADD).
/// Each workgroup starts from a zeroed block and the draw sums what each
/// counted, in launch order, so a workgroup's count does not depend on
/// which others shared its copy of the memory.
#[derive(Clone, Copy, Debug)]
pub(crate) struct QueryBlock {
    base: u64,
}

impl QueryBlock {
    /// Where the block is mapped.
    pub fn base(self) -> u64 {
        self.base
    }

    /// Zeroes the block before a workgroup runs.
    pub fn reset(self, resources: &mut Resources) {
        resources.global.zero(self.base);
    }

    /// What the workgroup's shader counted into the block.
    pub fn statistics(self, resources: &Resources) -> PipelineStatistics {
        let block = resources.global.buffer(self.base).unwrap_or_default();
        // 64-bit counters (abi::query), low word first.
        let word = |at: u32| u64::from(word(block, at)) | u64::from(word(block, at + 4)) << 32;
        PipelineStatistics {
            task_invocations: word(abi::query::TASK_INVOCATIONS),
            mesh_invocations: word(abi::query::MESH_INVOCATIONS),
            mesh_primitives_generated: word(abi::query::MESH_PRIMITIVES),
        }
    }
}

/// Reads one workgroup's outputs back from its ISBE; `workgroup` only
/// names it in errors and in the result.
pub fn read_mesh_outputs(
    mesh: &MeshState,
    isbe: &Isbe,
    workgroup: [u32; 3],
) -> Result<MeshWorkgroup, SimError> {
    let map_bytes = isbe.bytes(IsbeRegion::OutputMap);
    let attr_bytes = isbe.bytes(IsbeRegion::OutputAttr);
    let primitive_count = word(map_bytes, map::PRIMITIVE_COUNT);
    if primitive_count > mesh.max_primitives {
        return Err(SimError::TooManyPrimitives {
            workgroup,
            count: primitive_count,
            max: mesh.max_primitives,
        });
    }
    let vpp = mesh.topology.vertices_per_primitive();
    let mut indices = Vec::new();
    for primitive in 0..primitive_count {
        let tuple: Vec<u32> = (0..vpp)
            .map(|k| u32::from(map_bytes[map::index_offset(primitive, vpp, k) as usize]))
            .collect();
        if let Some(&index) = tuple.iter().find(|&&i| i >= mesh.max_vertices) {
            return Err(SimError::IndexOutOfRange {
                workgroup,
                primitive,
                index,
                max: mesh.max_vertices,
            });
        }
        indices.push(tuple);
    }
    let vertex_count = indices.iter().flatten().max().map_or(0, |&m| m + 1);
    let (vertex_layout, primitive_layout) = attr_layouts(mesh);
    let vertices = (0..vertex_count)
        .map(|v| attributes(&vertex_layout, attr_bytes, v, mesh.clip_distances))
        .collect();
    let primitives = if primitive_layout.components.is_empty() {
        Vec::new()
    } else {
        (0..primitive_count)
            .map(|p| attributes(&primitive_layout, attr_bytes, p, 0))
            .collect()
    };
    Ok(MeshWorkgroup {
        id: workgroup,
        task_workgroup: None,
        primitive_count,
        indices,
        vertices,
        primitives,
    })
}

/// The components of element `elem` of `layout`, sorted by meaning; the
/// first `clip_distances` distance words are clip distances.
fn attributes(
    layout: &AttrLayout,
    attr_bytes: &[u8],
    elem: u32,
    clip_distances: u32,
) -> Attributes {
    let mut attrs = Attributes::default();
    let mut position = [None; 4];
    let components = layout
        .components
        .iter()
        .filter_map(|&a| Some((a, word(attr_bytes, layout.offset(elem, a)?))));
    for (a, bits) in components {
        match a {
            addr::POINT_SIZE => attrs.point_size = Some(f32::from_bits(bits)),
            addr::PRIMITIVE_ID => attrs.primitive_id = Some(bits as i32),
            addr::LAYER => attrs.layer = Some(bits as i32),
            addr::VIEWPORT_INDEX => attrs.viewport_index = Some(bits as i32),
            addr::SHADING_RATE => attrs.shading_rate = Some(bits as i32),
            addr::VIEWPORT_MASK => attrs.cull = Some(bits == 0),
            addr::POSITION..addr::GENERIC => {
                position[usize::from(a - addr::POSITION) / 4] = Some(bits)
            }
            addr::CLIP_DISTANCE..CLIP_CULL_END => {
                let k = u32::from(a - addr::CLIP_DISTANCE) / 4;
                let value = f32::from_bits(bits);
                match k.checked_sub(clip_distances) {
                    None => attrs.clip_distance.insert(k, value),
                    Some(cull) => attrs.cull_distance.insert(cull, value),
                };
            }
            addr::GENERIC..addr::GENERIC_END => {
                let rel = u32::from(a - addr::GENERIC);
                attrs.generic.entry(rel / 16).or_insert([None; 4])[(rel % 16 / 4) as usize] =
                    Some(f32::from_bits(bits));
            }
            _ => {
                attrs.other.insert(a, bits);
            }
        }
    }
    if let [Some(x), Some(y), Some(z), Some(w)] = position {
        attrs.position = Some([x, y, z, w].map(f32::from_bits));
    } else {
        let present = position
            .iter()
            .enumerate()
            .filter_map(|(c, bits)| Some((addr::POSITION + 4 * c as u16, (*bits)?)));
        attrs.other.extend(present);
    }
    attrs
}

/// The end of the clip/cull distance words (8 of them from 0x2c0).
const CLIP_CULL_END: u16 = addr::CLIP_DISTANCE + 4 * 8;

/// The little-endian word at `offset`; read-back offsets come from the
/// layouts the regions were sized with, so they are in bounds.
fn word(bytes: &[u8], offset: u32) -> u32 {
    let o = offset as usize;
    u32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]])
}
