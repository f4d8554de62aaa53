//! Draws with a task shader: each task workgroup runs, and what it emitted
//! (the counts and the payload in its output ATTR region, docs/HARDWARE.md)
//! becomes
//! the input ISBE of the mesh workgroups it launches. Outputs come back in
//! a fixed order: task workgroup by task workgroup, then mesh group index,
//! so a draw's result does not depend on how the host runs it.

use crate::SimOptions;
use crate::counters::{Counters, PipelineStatistics};
use crate::descriptors::{Slot, bind, read_back};
use crate::dispatch::ComputeInputs;
use crate::error::SimError;
use crate::isbe::{Isbe, IsbeRegion};
use crate::launch_order::in_launch_order;
use crate::memory::Resources;
use crate::mesh::{
    Attributes, DrawBudget, MeshDraw, MeshWorkgroup, QueryBlock, TaskWorkgroup, check_draw_groups,
    draw_root, grid_id, local_bytes, read_mesh_outputs, run_mesh_view,
};
use crate::program::Program;
use crate::warp::{Launch, lane_count, run_workgroup};
use spvsass_isa::abi::{self, RootTable};
use spvsass_isa::binary::{Binary, MeshState, Stage, TaskState};
use spvsass_isa::isbe_layout::task as task_attr;
use spvsass_isa::methods::{self, MethodError};
use spvsass_isa::sph::{ShaderType, Sph, bits};
use std::collections::BTreeMap;

/// The most mesh workgroups one task workgroup may launch.
pub const MAX_MESH_GROUPS_PER_TASK: u32 = task_attr::MAX_MESH_GROUPS;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    #[error(transparent)]
    Sim(#[from] SimError),
    #[error(transparent)]
    Methods(#[from] MethodError),
    #[error("the {role} shader of the draw is a {stage} shader")]
    WrongStage {
        role: &'static str,
        stage: &'static str,
    },
    #[error(
        "the mesh shader's SPH type is {found} but the draw {} a task shader: \
         compile it {} --task-present",
        if *.task { "has" } else { "has no" },
        if *.task { "with" } else { "without" }
    )]
    TaskPresentMismatch { found: &'static str, task: bool },
    #[error(
        "the root table's grid {}x{}x{} does not multiply to the method stream's \
         count {count}",
        groups[0], groups[1], groups[2]
    )]
    GridMismatch { groups: [u32; 3], count: u32 },
    #[error(
        "task workgroup {workgroup}: it emitted {count} mesh workgroups at 0x4 but \
         x*y*z = {x}*{y}*{z} at 0x8..0x10"
    )]
    TaskCountMismatch {
        workgroup: u32,
        count: u32,
        x: u32,
        y: u32,
        z: u32,
    },
    #[error(
        "task workgroup {workgroup}: it launches {count} mesh workgroups, over the limit \
         of {MAX_MESH_GROUPS_PER_TASK}"
    )]
    TooManyMeshGroups { workgroup: u32, count: u32 },
    #[error(
        "view mask {view_mask:#b}: view {} is past the {max} views a mesh pipeline may \
         render (maxMeshMultiviewViewCount)",
        31 - view_mask.leading_zeros()
    )]
    TooManyViews { view_mask: u32, max: u32 },
}

fn shader_type_name(sph: Option<&[u32; 32]>) -> (&'static str, Option<u32>) {
    let t = sph.map(|s| Sph(*s).get(bits::SHADER_TYPE));
    let name = match t {
        Some(1) => "VERTEX",
        Some(3) => "TESSELLATION",
        Some(_) => "other",
        None => "none",
    };
    (name, t)
}

/// Checks the mesh binary was compiled for the draw it is in: bound as
/// TESSELLATION behind a task shader, as VERTEX alone (docs/HARDWARE.md).
fn check_mesh(mesh: &Binary, task: bool) -> Result<&MeshState, DrawError> {
    let state = mesh.mesh.as_ref().ok_or(DrawError::WrongStage {
        role: "mesh",
        stage: mesh.stage.name(),
    })?;
    let want = if task {
        ShaderType::Tessellation
    } else {
        ShaderType::Vertex
    };
    let (found, t) = shader_type_name(mesh.sph.as_ref());
    if t != Some(want as u32) {
        return Err(DrawError::TaskPresentMismatch { found, task });
    }
    Ok(state)
}

/// Runs the draw a method stream describes (docs/HARDWARE.md, "Methods")
/// with the bound
/// shaders: the group count and the stage state come from the decoded
/// stream, which must agree with the binaries. The hardware only sees a
/// count, so the draw is one-dimensional: (count, 1, 1) in the root table.
pub fn run_methods(
    words: &[u32],
    task: Option<&Binary>,
    mesh: &Binary,
    options: &SimOptions,
) -> Result<MeshDraw, DrawError> {
    run_methods_multiview(words, task, mesh, None, options)
}

/// [`run_methods`] with the grid the driver wrote into the root table
/// (`None`: one-dimensional), whose product must be the stream's count.
/// A multiview stream (one draw per view, each after its view index and
/// SET_RT_LAYER) runs each draw with its view index in the root table and
/// its primitives into its layer, as [`run_draw_multiview`] describes.
pub fn run_methods_multiview(
    words: &[u32],
    task: Option<&Binary>,
    mesh: &Binary,
    grid: Option<[u32; 3]>,
    options: &SimOptions,
) -> Result<MeshDraw, DrawError> {
    let bound = run_methods_bound(words, task, mesh, grid, ComputeInputs::default(), options)?;
    Ok(bound.draw)
}

/// [`run_methods_multiview`] with `inputs` bound, as [`run_draw_bound`]
/// binds them.
pub fn run_methods_bound(
    words: &[u32],
    task: Option<&Binary>,
    mesh: &Binary,
    grid: Option<[u32; 3]>,
    inputs: ComputeInputs,
    options: &SimOptions,
) -> Result<BoundDraw, DrawError> {
    let state = methods::decode(words)?;
    let mesh_state = check_mesh(mesh, task.is_some())?;
    // The hardware threads: one warp, whatever the API workgroup size.
    let threads = lane_count(mesh.workgroup_size)?;
    state.check(task, mesh_state, threads)?;
    let count = state.group_count.unwrap_or(0);
    // An empty draw runs no workgroup, whatever grid the root table holds.
    let groups = match grid {
        Some(groups) if count != 0 => groups,
        _ => [count, 1, 1],
    };
    let product = groups
        .iter()
        .fold(1u64, |a, &g| a.saturating_mul(u64::from(g)));
    if product != u64::from(count) {
        return Err(DrawError::GridMismatch { groups, count });
    }
    let view_mask = state.view_mask();
    check_views(view_mask)?;
    // Decoding guarantees every draw of a multiview stream has both.
    let views: Vec<(u32, u32)> = state
        .draws
        .iter()
        .filter_map(|d| Some((d.view_index?, d.layer?)))
        .collect();
    run_views(task, mesh, groups, &views, inputs, options)
}

/// Refuses a view mask past the views a mesh pipeline may have.
fn check_views(view_mask: u32) -> Result<(), DrawError> {
    let max = spvsass_isa::limits::MAX_MESH_MULTIVIEW_VIEWS;
    if view_mask >> max != 0 {
        return Err(DrawError::TooManyViews { view_mask, max });
    }
    Ok(())
}

/// A draw under a multiview render pass. `view_mask` 0 is a plain draw
/// (view index 0, primitives keep their own gl_Layer). Otherwise the draw
/// runs once per set bit of the mask, in ascending view order, as NVK's
/// per-view draw loop does (docs/HARDWARE.md, "Multiview"): each view's workgroups see their
/// view index in the root table, and each view's primitives go to the
/// image layer of that view, whatever gl_Layer they wrote (Vulkan renders
/// view i into layer i). Outputs, counters and statistics are those of the
/// views one after the other, so every mesh invocation is counted once
/// per view.
pub fn run_draw_multiview(
    task: Option<&Binary>,
    mesh: &Binary,
    groups: [u32; 3],
    view_mask: u32,
    options: &SimOptions,
) -> Result<MeshDraw, DrawError> {
    let bound = run_draw_bound(
        task,
        mesh,
        groups,
        view_mask,
        ComputeInputs::default(),
        options,
    )?;
    Ok(bound.draw)
}

/// A draw with bound buffers, and what it left in its storage buffers.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundDraw {
    pub draw: MeshDraw,
    /// Every storage buffer's final contents: those of
    /// `ComputeInputs::buffers` by binding, those of `bound` by slot.
    pub buffers: BTreeMap<u32, Vec<u8>>,
    pub bound: BTreeMap<Slot, Vec<u8>>,
    /// Storage images and storage texel buffers by slot.
    pub images: BTreeMap<Slot, Vec<u8>>,
}

/// [`run_draw_multiview`] with `inputs` bound to both stages as a compute
/// dispatch binds them (`spvsass_isa::abi`): storage buffers of set 0
/// in global memory, uniform buffers as constant banks, push constants in
/// the root table. The views of a multiview draw run one after another on
/// the same buffers; when a workgroup writes them, the workgroups run
/// again one at a time in launch order (`launch_order`). The statistics
/// query block follows the buffers in global memory (`draw_root`).
pub fn run_draw_bound(
    task: Option<&Binary>,
    mesh: &Binary,
    groups: [u32; 3],
    view_mask: u32,
    inputs: ComputeInputs,
    options: &SimOptions,
) -> Result<BoundDraw, DrawError> {
    check_views(view_mask)?;
    let views: Vec<(u32, u32)> = (0..32)
        .filter(|v| view_mask & (1 << v) != 0)
        .map(|v| (v, v))
        .collect();
    run_views(task, mesh, groups, &views, inputs, options)
}

/// Runs one draw per `(view index, layer)` of `views` in order (none: a
/// plain draw with view index 0), as [`run_draw_bound`] describes.
fn run_views(
    task: Option<&Binary>,
    mesh: &Binary,
    groups: [u32; 3],
    views: &[(u32, u32)],
    inputs: ComputeInputs,
    options: &SimOptions,
) -> Result<BoundDraw, DrawError> {
    let mut root = RootTable::default();
    let mut resources = Resources::default();
    let used: Vec<_> = task
        .into_iter()
        .chain([mesh])
        .flat_map(|b| b.resources.iter().copied())
        .collect();
    let bases = bind(inputs, &used, &mut root, &mut resources)?;
    let query = draw_root(&mut root, &mut resources, groups, options);
    let mut run_view = |view| {
        root.set_view_index(view);
        resources
            .constants
            .set(abi::ROOT_BANK, root.bytes().to_vec());
        run_draw_view(task, mesh, groups, &mut resources, query, options)
    };
    let draw = match views.split_first() {
        None => with_queries(run_view(0)?, 1),
        Some((&(first, first_layer), rest)) => {
            let mut all = run_view(first)?;
            to_layer(&mut all, first_layer);
            for &(view, layer) in rest {
                let mut draw = run_view(view)?;
                to_layer(&mut draw, layer);
                all.tasks.extend(draw.tasks);
                all.workgroups.extend(draw.workgroups);
                all.counters.add(&draw.counters);
                all.statistics.add(&draw.statistics);
            }
            // At most 32 views, so the cast is exact.
            with_queries(all, views.len() as u32)
        }
    };
    let (buffers, bound, images) = read_back(&bases, &mut resources);
    Ok(BoundDraw {
        draw,
        buffers,
        bound,
        images,
    })
}

/// The draw's pipeline-statistics query results under a render pass of
/// `views` views: a query there takes that many consecutive slots; as on
/// NVK (docs/HARDWARE.md, "Multiview") the first holds the whole draw's counts and the others
/// are written as zeros.
fn with_queries(mut draw: MeshDraw, views: u32) -> MeshDraw {
    draw.queries = std::iter::once(draw.statistics)
        .chain((1..views).map(|_| PipelineStatistics::default()))
        .collect();
    draw
}

/// Sends every primitive of one view's draw to the image layer `layer`
/// (SET_RT_LAYER.V).
fn to_layer(draw: &mut MeshDraw, layer: u32) {
    for wg in &mut draw.workgroups {
        wg.primitives
            .resize(wg.primitive_count as usize, Attributes::default());
        for p in &mut wg.primitives {
            // SET_RT_LAYER.V has 16 bits, so the cast is exact.
            p.layer = Some(layer as i32);
        }
    }
}

/// Runs a mesh draw of `groups` workgroups: of the task shader when there
/// is one (each launching mesh workgroups), else of the mesh shader.
pub fn run_draw(
    task: Option<&Binary>,
    mesh: &Binary,
    groups: [u32; 3],
    options: &SimOptions,
) -> Result<MeshDraw, DrawError> {
    run_draw_multiview(task, mesh, groups, 0, options)
}

/// [`run_draw`] for one view, with the draw's `resources` (the root table
/// holds the view index).
fn run_draw_view(
    task: Option<&Binary>,
    mesh: &Binary,
    groups: [u32; 3],
    resources: &mut Resources,
    query: QueryBlock,
    options: &SimOptions,
) -> Result<MeshDraw, DrawError> {
    let Some(task) = task else {
        check_mesh(mesh, false)?;
        return Ok(run_mesh_view(mesh, groups, resources, query, options)?);
    };
    let mesh_state = check_mesh(mesh, true)?;
    let task_state = match (&task.task, task.stage) {
        (Some(t), Stage::Task) => t,
        _ => {
            return Err(DrawError::WrongStage {
                role: "task",
                stage: task.stage.name(),
            });
        }
    };
    let task_program = Program::decode(&task.code, task.arch)?;
    let mesh_program = Program::decode(&mesh.code, mesh.arch)?;
    lane_count(task.workgroup_size)?;
    lane_count(mesh.workgroup_size)?;
    let total = check_draw_groups(groups)?;
    // Task workgroups run in parallel (and the mesh workgroups of each)
    // unless one writes a bound storage buffer (`launch_order`); results
    // are gathered in launch order and the first error in that order wins,
    // so the draw is the same whatever the thread count.
    // The step and output budgets end the whole draw at the task
    // workgroup that passes them (each task's own mesh workgroups are
    // held to them as well, in `run_task`).
    let writes = task_program.writes_global() || mesh_program.writes_global();
    let mut budget = DrawBudget::new(options);
    let runs = in_launch_order(
        total,
        resources,
        query,
        writes,
        |index, resources| {
            let id = grid_id(index, groups);
            run_task(
                &task_program,
                &mesh_program,
                TaskLaunch {
                    task,
                    task_state,
                    mesh,
                    mesh_state,
                    index,
                    id,
                    query,
                },
                resources,
                options,
            )
        },
        |run| {
            let mut counters = run.counters.clone();
            let mut bytes = 0;
            for (wg, c, _) in &run.workgroups {
                counters.add(c);
                bytes += wg.retained_bytes();
            }
            budget
                .add(&counters, bytes, run.task.id)
                .map_err(DrawError::from)
        },
    )?;
    let mut counters = Counters::default();
    let mut statistics = PipelineStatistics::default();
    let mut tasks = Vec::new();
    let mut workgroups = Vec::new();
    for run in runs {
        counters.add(&run.counters);
        statistics.add(&run.statistics);
        tasks.push(run.task);
        for (wg, run, counted) in run.workgroups {
            counters.add(&run);
            statistics.add(&counted);
            workgroups.push(wg);
        }
    }
    Ok(MeshDraw {
        topology: mesh_state.topology.name(),
        tasks,
        workgroups,
        counters,
        statistics,
        queries: vec![statistics],
    })
}

/// What one task workgroup and the mesh workgroups it launched produced.
struct TaskRun {
    task: TaskWorkgroup,
    counters: Counters,
    /// What the task workgroup counted into its query block.
    statistics: PipelineStatistics,
    /// Each mesh workgroup's outputs, counts and statistics, in mesh group
    /// order.
    workgroups: Vec<(MeshWorkgroup, Counters, PipelineStatistics)>,
}

/// The task workgroup `index` of a draw and the binaries it runs with.
#[derive(Clone, Copy)]
struct TaskLaunch<'a> {
    task: &'a Binary,
    task_state: &'a TaskState,
    mesh: &'a Binary,
    mesh_state: &'a MeshState,
    index: u32,
    id: [u32; 3],
    /// The draw's statistics query block.
    query: QueryBlock,
}

/// Runs one task workgroup, then the mesh workgroups it launches, each
/// with its own ISBE; they share the draw's `resources` (`launch_order`).
fn run_task(
    task_program: &Program,
    mesh_program: &Program,
    t: TaskLaunch<'_>,
    resources: &mut Resources,
    options: &SimOptions,
) -> Result<TaskRun, DrawError> {
    let TaskLaunch {
        task,
        task_state,
        mesh,
        mesh_state,
        index,
        id,
        query,
    } = t;
    let mut isbe = Isbe::for_task(task_state, index);
    let launch = Launch {
        workgroup_size: task.workgroup_size,
        workgroup_id: id,
    };
    resources.local_bytes = local_bytes(task);
    query.reset(resources);
    let counters =
        run_workgroup(task_program, &launch, &mut isbe, resources, options).map_err(|e| {
            SimError::InWorkgroup {
                workgroup: id,
                error: Box::new(e),
            }
        })?;
    let statistics = query.statistics(resources);
    let out = isbe.bytes(IsbeRegion::OutputAttr);
    let word = |a: u32| {
        let a = a as usize;
        u32::from_le_bytes([out[a], out[a + 1], out[a + 2], out[a + 3]])
    };
    let [count, x, y, z] = [
        task_attr::GROUP_COUNT,
        task_attr::GROUP_X,
        task_attr::GROUP_Y,
        task_attr::GROUP_Z,
    ]
    .map(word);
    let product = u128::from(x) * u128::from(y) * u128::from(z);
    if u128::from(count) != product {
        return Err(DrawError::TaskCountMismatch {
            workgroup: index,
            count,
            x,
            y,
            z,
        });
    }
    if count > MAX_MESH_GROUPS_PER_TASK {
        return Err(DrawError::TooManyMeshGroups {
            workgroup: index,
            count,
        });
    }
    let writes = mesh_program.writes_global();
    let mesh_local = local_bytes(mesh);
    let mut budget = DrawBudget::new(options);
    budget.add(&counters, 0, id)?;
    let workgroups = in_launch_order(
        count,
        resources,
        query,
        writes,
        |m, resources| {
            let mesh_id = [m % x, m / x % y, m / (x * y)];
            let mut misbe = Isbe::for_mesh_from_task(mesh_state, out, m);
            let launch = Launch {
                workgroup_size: mesh.workgroup_size,
                workgroup_id: mesh_id,
            };
            resources.local_bytes = mesh_local;
            query.reset(resources);
            let run = run_workgroup(mesh_program, &launch, &mut misbe, resources, options)
                .map_err(|e| SimError::InWorkgroup {
                    workgroup: mesh_id,
                    error: Box::new(e),
                })?;
            let counted = query.statistics(resources);
            let mut wg = read_mesh_outputs(mesh_state, &misbe, mesh_id)?;
            wg.task_workgroup = Some(index);
            Ok::<_, SimError>((wg, run, counted))
        },
        |(wg, run, _)| budget.add(run, wg.retained_bytes(), wg.id),
    )?;
    Ok(TaskRun {
        task: TaskWorkgroup {
            id,
            mesh_groups: [x, y, z],
        },
        counters,
        statistics,
        workgroups,
    })
}
