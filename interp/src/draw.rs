//! Task and mesh draws: task workgroups with their payload and
//! EmitMeshTasksEXT, mesh workgroups with SetMeshOutputsEXT and their
//! outputs, read back by meaning (positions, generic attributes by
//! location and component, primitive indices) for comparison with the
//! simulator's `MeshDraw`.
//!
//! Order: a draw of N workgroups runs them as workgroups (i, 0, 0), as the
//! simulator's one-dimensional draws do; behind a task shader, each task
//! workgroup runs and then, x fastest, the mesh workgroups it emitted,
//! each seeing the task's payload, its id within the launch and the
//! launch's counts as gl_NumWorkGroups; one that returns without
//! EmitMeshTasksEXT launches none. Buffers are shared by every
//! workgroup in that order.

use crate::error::{At, InterpError};
use crate::exec::{self, World};
use crate::value::Val;
use crate::{Inputs, Options};
use cranelift_entity::EntityRef;
use spvsass_frontend::ir::{BuiltIn, Inst, Shader, Stage, StorageClass, Type, TypeId};
use std::collections::BTreeMap;

/// The most invocations of a task or mesh workgroup (the backend's limit).
pub const MAX_MESH_INVOCATIONS: u64 = 128;

/// The most mesh workgroups one task workgroup may launch (Vulkan's
/// maxMeshWorkGroupTotalCount on NVIDIA, 2^22).
pub const MAX_LAUNCH: u64 = 1 << 22;

/// What a task or mesh workgroup declared while it ran.
#[derive(Clone, Debug, Default)]
pub(crate) struct StageIo {
    /// SetMeshOutputsEXT's (vertices, primitives).
    pub mesh_counts: Option<(u64, u64)>,
    /// EmitMeshTasksEXT's counts.
    pub emitted: Option<[u64; 3]>,
    /// The payload a mesh workgroup behind a task shader reads.
    pub payload_in: Option<Val>,
}

impl StageIo {
    pub fn reset(&mut self) {
        self.mesh_counts = None;
        self.emitted = None;
    }
}

/// The components of one vertex or primitive, by meaning, as raw bits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Attributes {
    /// gl_Position.
    pub position: Option<[u32; 4]>,
    /// Generic outputs by location, one entry per component.
    pub generic: BTreeMap<u32, [Option<u32>; 4]>,
}

/// What one mesh workgroup emitted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MeshGroup {
    /// Its gl_WorkGroupID.
    pub id: [u32; 3],
    /// The task workgroup that launched it (its index in launch order).
    pub task_workgroup: Option<u32>,
    pub vertex_count: u32,
    pub primitive_count: u32,
    /// The vertex indices of each primitive (1, 2 or 3 by topology).
    pub indices: Vec<Vec<u32>>,
    /// Vertices 0..vertex_count.
    pub vertices: Vec<Attributes>,
    /// Primitives 0..primitive_count.
    pub primitives: Vec<Attributes>,
}

/// What one task workgroup launched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskGroup {
    pub id: [u32; 3],
    pub mesh_groups: [u32; 3],
}

/// The result of a draw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MeshRun {
    pub tasks: Vec<TaskGroup>,
    /// In launch order.
    pub workgroups: Vec<MeshGroup>,
    /// The storage buffers' final contents.
    pub buffers: BTreeMap<u32, Vec<u8>>,
}

pub(crate) fn set_mesh_outputs(
    world: &mut World<'_>,
    inst: Inst,
    inv: u32,
    (vertices, primitives): (u64, u64),
) -> Result<(), InterpError> {
    let at = world.at(inst, inv);
    let Some(info) = &world.shader.mesh else {
        return Err(InterpError::Malformed {
            at,
            what: "SetMeshOutputsEXT outside a mesh shader".into(),
        });
    };
    if vertices > u64::from(info.max_vertices) || primitives > u64::from(info.max_primitives) {
        return Err(InterpError::MeshCounts {
            at,
            vertices,
            primitives,
            max_vertices: info.max_vertices,
            max_primitives: info.max_primitives,
        });
    }
    match world.io.mesh_counts {
        Some(first) if first != (vertices, primitives) => Err(InterpError::NotUniform {
            at,
            first: vec![first.0, first.1],
        }),
        _ => {
            world.io.mesh_counts = Some((vertices, primitives));
            Ok(())
        }
    }
}

pub(crate) fn emit_mesh_tasks(
    world: &mut World<'_>,
    inst: Inst,
    inv: u32,
    counts: [u64; 3],
) -> Result<(), InterpError> {
    let at = world.at(inst, inv);
    let total = counts.iter().fold(1u64, |a, &c| a.saturating_mul(c));
    if total > MAX_LAUNCH || counts.iter().any(|&c| c > 65535) {
        return Err(InterpError::TaskCounts {
            at,
            counts,
            limit: MAX_LAUNCH,
        });
    }
    match world.io.emitted {
        Some(first) if first != counts => Err(InterpError::NotUniform {
            at,
            first: first.to_vec(),
        }),
        _ => {
            world.io.emitted = Some(counts);
            Ok(())
        }
    }
}

fn check_shader(shader: &Shader, stage: Stage, options: &Options) -> Result<(), InterpError> {
    if shader.stage != stage {
        return Err(InterpError::WrongStage {
            stage: shader.stage.name(),
            wanted: stage.name(),
        });
    }
    let sg = options.subgroup_size;
    if !sg.is_power_of_two() || !(4..=128).contains(&sg) {
        return Err(InterpError::SubgroupSize(sg));
    }
    let invocations: u64 = shader
        .workgroup_size
        .iter()
        .map(|&n| u64::from(n))
        .product();
    if invocations == 0 || invocations > MAX_MESH_INVOCATIONS {
        return Err(InterpError::WorkgroupSize {
            size: shader.workgroup_size,
            invocations,
            max: MAX_MESH_INVOCATIONS,
        });
    }
    let values = shader.values.len() as u64;
    if invocations.saturating_mul(values) > options.max_values {
        return Err(InterpError::MemoryBound {
            invocations,
            values,
            limit: options.max_values,
        });
    }
    Ok(())
}

/// Runs a draw of `groups` workgroups (task workgroups when `task` is
/// given, else mesh workgroups), `groups[0] * groups[1] * groups[2]` of
/// them as workgroups (i, 0, 0), with `inputs` bound to both shaders.
pub fn run_draw(
    task: Option<&Shader>,
    mesh: &Shader,
    groups: [u32; 3],
    inputs: &Inputs,
    options: &Options,
) -> Result<MeshRun, InterpError> {
    check_shader(mesh, Stage::Mesh, options)?;
    if let Some(t) = task {
        check_shader(t, Stage::Task, options).map_err(|e| match e {
            InterpError::WrongStage { .. } => InterpError::DrawStages {
                stage: mesh.stage.name(),
                task: t.stage.name(),
            },
            other => other,
        })?;
    }
    let count = groups
        .iter()
        .fold(1u64, |a, &g| a.saturating_mul(u64::from(g)));
    if count > MAX_LAUNCH {
        return Err(InterpError::TaskCounts {
            at: At {
                opcode: "draw",
                spirv_id: None,
                invocation: 0,
                workgroup: [0; 3],
            },
            counts: groups.map(u64::from),
            limit: MAX_LAUNCH,
        });
    }
    let mut state = inputs.clone();
    let mut run = MeshRun::default();
    let mesh_ranks = crate::order::block_ranks(mesh);
    match task {
        None => {
            for i in 0..count as u32 {
                let g = run_mesh_group(
                    mesh,
                    &mesh_ranks,
                    options,
                    &mut state,
                    [count as u32, 1, 1],
                    [i, 0, 0],
                    None,
                )?;
                run.workgroups.push(g);
            }
        }
        Some(task) => {
            let task_ranks = crate::order::block_ranks(task);
            for i in 0..count as u32 {
                let mut world = World {
                    shader: task,
                    options,
                    buffers: &mut state,
                    ranks: &task_ranks,
                    groups: [count as u32, 1, 1],
                    workgroup: [i, 0, 0],
                    shared: Vec::new(),
                    io: StageIo::default(),
                };
                exec::run_workgroup(&mut world)?;
                // A task workgroup that returns without EmitMeshTasksEXT
                // launches nothing (as the project's draws define it).
                let emitted = world.io.emitted.unwrap_or([0; 3]);
                let payload = task
                    .globals
                    .iter()
                    .find(|(_, g)| g.class == StorageClass::TaskPayload)
                    .map(|(gv, g)| {
                        world.shared[gv.index()]
                            .clone()
                            .unwrap_or_else(|| crate::layout::zero(task, g.ty))
                    });
                // Checked against MAX_LAUNCH by emit_mesh_tasks.
                let launch = emitted.map(|c| c as u32);
                run.tasks.push(TaskGroup {
                    id: [i, 0, 0],
                    mesh_groups: launch,
                });
                for z in 0..launch[2] {
                    for y in 0..launch[1] {
                        for x in 0..launch[0] {
                            let mut g = run_mesh_group(
                                mesh,
                                &mesh_ranks,
                                options,
                                &mut state,
                                launch,
                                [x, y, z],
                                payload.clone(),
                            )?;
                            g.task_workgroup = Some(i);
                            run.workgroups.push(g);
                        }
                    }
                }
            }
        }
    }
    run.buffers = state.buffers;
    Ok(run)
}

fn run_mesh_group(
    mesh: &Shader,
    ranks: &cranelift_entity::SecondaryMap<spvsass_frontend::ir::Block, u32>,
    options: &Options,
    state: &mut Inputs,
    groups: [u32; 3],
    id: [u32; 3],
    payload: Option<Val>,
) -> Result<MeshGroup, InterpError> {
    let mut world = World {
        shader: mesh,
        options,
        buffers: state,
        ranks,
        groups,
        workgroup: id,
        shared: Vec::new(),
        io: StageIo {
            payload_in: payload,
            ..StageIo::default()
        },
    };
    exec::run_workgroup(&mut world)?;
    let (vc, pc) = world.io.mesh_counts.unwrap_or((0, 0));
    // Bounded by max_vertices / max_primitives (set_mesh_outputs).
    let (vc, pc) = (vc as u32, pc as u32);
    let mut out = MeshGroup {
        id,
        task_workgroup: None,
        vertex_count: vc,
        primitive_count: pc,
        indices: Vec::new(),
        vertices: vec![Attributes::default(); vc as usize],
        primitives: vec![Attributes::default(); pc as usize],
    };
    for (gv, g) in mesh.globals.iter() {
        if g.class != StorageClass::Output {
            continue;
        }
        let value = world.shared[gv.index()]
            .clone()
            .unwrap_or_else(|| crate::layout::zero(mesh, g.ty));
        read_output(mesh, g, &value, &mut out)?;
    }
    for (p, prim) in out.indices.iter().enumerate() {
        if let Some(&v) = prim.iter().find(|&&v| v >= vc) {
            return Err(InterpError::IndexPastVertices {
                at: At {
                    opcode: "OpStore",
                    spirv_id: None,
                    invocation: 0,
                    workgroup: id,
                },
                primitive: p as u32,
                vertex: v,
                count: vc,
            });
        }
    }
    Ok(out)
}

/// The 32-bit components of a scalar or vector value of type `ty`.
fn words(mesh: &Shader, ty: TypeId, v: &Val) -> Option<Vec<u32>> {
    match &mesh.types[ty] {
        Type::Scalar(s) if s.size() == 4 => Some(vec![v.bits() as u32]),
        Type::Vector { scalar, .. } if scalar.size() == 4 => {
            Some(v.parts().iter().map(|c| c.bits() as u32).collect())
        }
        _ => None,
    }
}

fn read_output(
    mesh: &Shader,
    g: &spvsass_frontend::ir::GlobalVarData,
    value: &Val,
    out: &mut MeshGroup,
) -> Result<(), InterpError> {
    let shape = |what: &str| InterpError::OutputShape {
        spirv_id: g.spirv_id,
        what: what.into(),
    };
    let Type::Array { elem, .. } = &mesh.types[g.ty] else {
        return Err(shape("an output that is not an array"));
    };
    let elems = value.parts();
    match g.builtin {
        Some(
            BuiltIn::PrimitivePointIndices
            | BuiltIn::PrimitiveLineIndices
            | BuiltIn::PrimitiveTriangleIndices,
        ) => {
            for p in 0..out.primitive_count as usize {
                let e = elems.get(p).ok_or_else(|| shape("too few primitives"))?;
                let w = words(mesh, *elem, e).ok_or_else(|| shape("indices"))?;
                out.indices.push(w);
            }
            return Ok(());
        }
        Some(_) => return Ok(()),
        None => {}
    }
    // gl_MeshPrimitivesEXT carries the flag on its members.
    let member_per_primitive = match &mesh.types[*elem] {
        Type::Struct { members, .. } => members.iter().any(|m| {
            m.per_primitive
                || matches!(
                    m.builtin,
                    Some(
                        BuiltIn::PrimitiveId
                            | BuiltIn::Layer
                            | BuiltIn::ViewportIndex
                            | BuiltIn::CullPrimitive
                            | BuiltIn::PrimitiveShadingRate
                    )
                )
        }),
        _ => false,
    };
    let (n, per_primitive) = if g.per_primitive || member_per_primitive {
        (out.primitive_count as usize, true)
    } else {
        (out.vertex_count as usize, false)
    };
    for i in 0..n {
        let e = elems.get(i).ok_or_else(|| shape("too few elements"))?;
        let slot = if per_primitive {
            &mut out.primitives[i]
        } else {
            &mut out.vertices[i]
        };
        match &mesh.types[*elem] {
            Type::Struct { members, .. } => {
                // Members without a location follow the previous one
                // (the block's location first).
                let mut next = g.location.unwrap_or(0);
                for (m, mv) in members.iter().zip(e.parts()) {
                    let location = m.location.or((m.builtin.is_none()).then_some(next));
                    if let Some(l) = location {
                        next = l + 1;
                    }
                    match (m.builtin, location) {
                        (Some(BuiltIn::Position), _) => {
                            let w = words(mesh, m.ty, mv).ok_or_else(|| shape("gl_Position"))?;
                            slot.position = w.try_into().ok();
                        }
                        (Some(_), _) => {}
                        (None, Some(loc)) => {
                            let w = words(mesh, m.ty, mv).ok_or_else(|| shape("a member"))?;
                            put(slot, loc, 0, &w);
                        }
                        (None, None) => return Err(shape("a member without a location")),
                    }
                }
            }
            _ => {
                let loc = g.location.ok_or_else(|| shape("no location"))?;
                let w = words(mesh, *elem, e)
                    .ok_or_else(|| shape("an element that is not a 32-bit scalar or vector"))?;
                put(slot, loc, g.component.unwrap_or(0), &w);
            }
        }
    }
    Ok(())
}

fn put(slot: &mut Attributes, loc: u32, component: u32, w: &[u32]) {
    let entry = slot.generic.entry(loc).or_insert([None; 4]);
    for (k, &x) in w.iter().enumerate() {
        if let Some(c) = entry.get_mut(component as usize + k) {
            *c = Some(x);
        }
    }
}
