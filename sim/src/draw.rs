//! Draws with a task shader: each task workgroup runs, and what it emitted
//! (the counts and the payload in its output ATTR region, facts §3) becomes
//! the input ISBE of the mesh workgroups it launches. Outputs come back in
//! a fixed order: task workgroup by task workgroup, then mesh group index,
//! so a draw's result does not depend on how the host runs it.

use crate::SimOptions;
use crate::counters::{Counters, PipelineStatistics};
use crate::error::SimError;
use crate::isbe::{Isbe, IsbeRegion};
use crate::mesh::{
    Attributes, MeshDraw, MeshWorkgroup, TaskWorkgroup, read_mesh_outputs, run_mesh_view,
    view_resources,
};
use crate::program::Program;
use crate::warp::{Launch, lane_count, run_workgroup};
use rayon::prelude::*;
use spvsass_backend::binary::{Binary, MeshState, Stage, TaskState};
use spvsass_backend::isbe_layout::task as task_attr;
use spvsass_backend::methods::{self, MethodError};
use spvsass_backend::sph::{ShaderType, Sph, bits};

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
        "a draw of {}x{}x{} task workgroups: the count does not fit in 32 bits",
        groups[0], groups[1], groups[2]
    )]
    TooManyTaskGroups { groups: [u32; 3] },
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
/// TESSELLATION behind a task shader, as VERTEX alone (facts §2).
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

/// Runs the draw a method stream describes (facts §5) with the bound
/// shaders: the group count and the stage state come from the decoded
/// stream, which must agree with the binaries. The hardware only sees a
/// count, so workgroups get ids (index, 0, 0).
pub fn run_methods(
    words: &[u32],
    task: Option<&Binary>,
    mesh: &Binary,
    options: &SimOptions,
) -> Result<MeshDraw, DrawError> {
    run_methods_multiview(words, task, mesh, 0, options)
}

/// [`run_methods`] under a multiview render pass: `view_mask` 0 is a plain
/// draw; otherwise the draw runs once per set bit, as
/// [`run_draw_multiview`] describes.
pub fn run_methods_multiview(
    words: &[u32],
    task: Option<&Binary>,
    mesh: &Binary,
    view_mask: u32,
    options: &SimOptions,
) -> Result<MeshDraw, DrawError> {
    let state = methods::decode(words)?;
    let mesh_state = check_mesh(mesh, task.is_some())?;
    // The hardware threads: one warp, whatever the API workgroup size.
    let threads = lane_count(mesh.workgroup_size)?;
    state.check(task, mesh_state, threads)?;
    let count = state.group_count.unwrap_or(0);
    if count == 0 {
        return Ok(MeshDraw {
            topology: mesh_state.topology.name(),
            tasks: Vec::new(),
            workgroups: Vec::new(),
            counters: Counters::default(),
            statistics: PipelineStatistics::default(),
            queries: Vec::new(),
        });
    }
    run_draw_multiview(task, mesh, [count, 1, 1], view_mask, options)
}

/// A draw under a multiview render pass. `view_mask` 0 is a plain draw
/// (view index 0, primitives keep their own gl_Layer). Otherwise the draw
/// runs once per set bit of the mask, in ascending view order, as NVK's
/// per-view draw loop does (seed 002): each view's workgroups see their
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
    if view_mask == 0 {
        return run_draw_view(task, mesh, groups, 0, options).map(|d| with_queries(d, 1));
    }
    let max = spvsass_backend::limits::MAX_MESH_MULTIVIEW_VIEWS;
    if view_mask >> max != 0 {
        return Err(DrawError::TooManyViews { view_mask, max });
    }
    let first = view_mask.trailing_zeros();
    let mut all = run_draw_view(task, mesh, groups, first, options)?;
    to_layer(&mut all, first);
    for view in (first + 1..32).filter(|v| view_mask & (1 << v) != 0) {
        let mut draw = run_draw_view(task, mesh, groups, view, options)?;
        to_layer(&mut draw, view);
        all.tasks.extend(draw.tasks);
        all.workgroups.extend(draw.workgroups);
        all.counters.add(&draw.counters);
        all.statistics.task_invocations += draw.statistics.task_invocations;
        all.statistics.mesh_invocations += draw.statistics.mesh_invocations;
        all.statistics.mesh_primitives_generated += draw.statistics.mesh_primitives_generated;
    }
    Ok(with_queries(all, view_mask.count_ones()))
}

/// The draw's pipeline-statistics query results under a render pass of
/// `views` views: a query there takes that many consecutive slots; as on
/// NVK (seed 002) the first holds the whole draw's counts and the others
/// are written as zeros.
fn with_queries(mut draw: MeshDraw, views: u32) -> MeshDraw {
    draw.queries = std::iter::once(draw.statistics)
        .chain((1..views).map(|_| PipelineStatistics::default()))
        .collect();
    draw
}

/// Sends every primitive of one view's draw to the image layer `view`.
fn to_layer(draw: &mut MeshDraw, view: u32) {
    for wg in &mut draw.workgroups {
        wg.primitives
            .resize(wg.primitive_count as usize, Attributes::default());
        for p in &mut wg.primitives {
            // A view is below 32, so the cast is exact.
            p.layer = Some(view as i32);
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
    run_draw_view(task, mesh, groups, 0, options)
}

/// [`run_draw`] for one view: `view` is in the root table of every task
/// and mesh workgroup.
fn run_draw_view(
    task: Option<&Binary>,
    mesh: &Binary,
    groups: [u32; 3],
    view: u32,
    options: &SimOptions,
) -> Result<MeshDraw, DrawError> {
    let Some(task) = task else {
        check_mesh(mesh, false)?;
        return Ok(run_mesh_view(mesh, groups, view, options)?);
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
    let task_program = Program::decode(&task.code)?;
    let mesh_program = Program::decode(&mesh.code)?;
    // Checks the sizes; statistics count the API's invocations (facts §4),
    // not the lanes a wide workgroup's logical subgroups share.
    lane_count(task.workgroup_size)?;
    lane_count(mesh.workgroup_size)?;
    let task_invocations = invocations(task.workgroup_size);
    let mesh_invocations = invocations(mesh.workgroup_size);
    let total = groups.iter().map(|&g| u64::from(g)).product::<u64>();
    let total = u32::try_from(total).map_err(|_| DrawError::TooManyTaskGroups { groups })?;
    // Task workgroups run in parallel (and the mesh workgroups of each);
    // results are gathered in launch order and the first error in that
    // order wins, so the draw is the same whatever the thread count.
    let runs: Vec<Result<TaskRun, DrawError>> = (0..total)
        .into_par_iter()
        .map(|index| {
            let id = [
                index % groups[0],
                index / groups[0] % groups[1],
                index / (groups[0] * groups[1]),
            ];
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
                    view,
                },
                options,
            )
        })
        .collect();
    let mut counters = Counters::default();
    let mut statistics = PipelineStatistics::default();
    let mut tasks = Vec::new();
    let mut workgroups = Vec::new();
    for run in runs {
        let run = run?;
        counters.add(&run.counters);
        statistics.task_invocations += task_invocations;
        tasks.push(run.task);
        for wg in run.workgroups {
            counters.add(&wg.1);
            statistics.mesh_invocations += mesh_invocations;
            statistics.mesh_primitives_generated += u64::from(wg.0.primitive_count);
            workgroups.push(wg.0);
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

/// The invocations of one workgroup as the API counts them.
pub(crate) fn invocations(size: [u32; 3]) -> u64 {
    size.iter().map(|&n| u64::from(n)).product()
}

/// What one task workgroup and the mesh workgroups it launched produced.
struct TaskRun {
    task: TaskWorkgroup,
    counters: Counters,
    /// Each mesh workgroup's outputs and counts, in mesh group order.
    workgroups: Vec<(MeshWorkgroup, Counters)>,
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
    /// The view the draw renders (0 without multiview).
    view: u32,
}

/// Runs one task workgroup, then the mesh workgroups it launches (in
/// parallel), each with its own ISBE and memories: task and mesh shaders
/// use no global memory yet and their root table holds only the view, so
/// nothing is shared.
fn run_task(
    task_program: &Program,
    mesh_program: &Program,
    t: TaskLaunch<'_>,
    options: &SimOptions,
) -> Result<TaskRun, DrawError> {
    let TaskLaunch {
        task,
        task_state,
        mesh,
        mesh_state,
        index,
        id,
        view,
    } = t;
    let mut isbe = Isbe::for_task(task_state, index);
    let launch = Launch {
        workgroup_size: task.workgroup_size,
        workgroup_id: id,
    };
    let counters = run_workgroup(
        task_program,
        &launch,
        &mut isbe,
        &mut view_resources(view, &options.cull),
        options,
    )
    .map_err(|e| SimError::InWorkgroup {
        workgroup: id,
        error: Box::new(e),
    })?;
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
    let workgroups = (0..count)
        .into_par_iter()
        .map(|m| {
            let mesh_id = [m % x, m / x % y, m / (x * y)];
            let mut misbe = Isbe::for_mesh_from_task(mesh_state, out, m);
            let launch = Launch {
                workgroup_size: mesh.workgroup_size,
                workgroup_id: mesh_id,
            };
            let run = run_workgroup(
                mesh_program,
                &launch,
                &mut misbe,
                &mut view_resources(view, &options.cull),
                options,
            )
            .map_err(|e| SimError::InWorkgroup {
                workgroup: mesh_id,
                error: Box::new(e),
            })?;
            let mut wg = read_mesh_outputs(mesh_state, &misbe, mesh_id)?;
            wg.task_workgroup = Some(index);
            Ok((wg, run))
        })
        .collect::<Vec<Result<_, SimError>>>()
        // In order, so the first failing mesh workgroup is the one reported.
        .into_iter()
        .collect::<Result<Vec<_>, SimError>>()?;
    Ok(TaskRun {
        task: TaskWorkgroup {
            id,
            mesh_groups: [x, y, z],
        },
        counters,
        workgroups,
    })
}
