//! Draws with a task shader: each task workgroup runs, and what it emitted
//! (the counts and the payload in its output ATTR region, facts §3) becomes
//! the input ISBE of the mesh workgroups it launches. Outputs come back in
//! a fixed order: task workgroup by task workgroup, then mesh group index,
//! so a draw's result does not depend on how the host runs it.

use crate::SimOptions;
use crate::counters::{Counters, PipelineStatistics};
use crate::error::SimError;
use crate::isbe::{Isbe, IsbeRegion};
use crate::memory::Resources;
use crate::mesh::{MeshDraw, TaskWorkgroup, read_mesh_outputs, run_mesh};
use crate::program::Program;
use crate::warp::{Launch, lane_count, run_workgroup};
use spvsass_backend::binary::{Binary, MeshState, Stage};
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
    let state = methods::decode(words)?;
    let mesh_state = check_mesh(mesh, task.is_some())?;
    let threads = mesh.workgroup_size.iter().product();
    state.check(task, mesh_state, threads)?;
    let count = state.group_count.unwrap_or(0);
    if count == 0 {
        return Ok(MeshDraw {
            topology: mesh_state.topology.name(),
            tasks: Vec::new(),
            workgroups: Vec::new(),
            counters: Counters::default(),
            statistics: PipelineStatistics::default(),
        });
    }
    run_draw(task, mesh, [count, 1, 1], options)
}

/// Runs a mesh draw of `groups` workgroups: of the task shader when there
/// is one (each launching mesh workgroups), else of the mesh shader.
pub fn run_draw(
    task: Option<&Binary>,
    mesh: &Binary,
    groups: [u32; 3],
    options: &SimOptions,
) -> Result<MeshDraw, DrawError> {
    let Some(task) = task else {
        check_mesh(mesh, false)?;
        return Ok(run_mesh(mesh, groups, options)?);
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
    let task_lanes = lane_count(task.workgroup_size)?;
    let mesh_lanes = lane_count(mesh.workgroup_size)?;
    let total = groups.iter().map(|&g| u64::from(g)).product::<u64>();
    let total = u32::try_from(total).map_err(|_| DrawError::TooManyTaskGroups { groups })?;
    // Task and mesh shaders use no global memory or constant banks yet.
    let mut resources = Resources::default();
    let mut counters = Counters::default();
    let mut statistics = PipelineStatistics::default();
    let mut tasks = Vec::new();
    let mut workgroups = Vec::new();
    for index in 0..total {
        let id = [
            index % groups[0],
            index / groups[0] % groups[1],
            index / (groups[0] * groups[1]),
        ];
        let mut isbe = Isbe::for_task(task_state, index);
        let launch = Launch {
            workgroup_size: task.workgroup_size,
            workgroup_id: id,
        };
        let run = run_workgroup(&task_program, &launch, &mut isbe, &mut resources, options)
            .map_err(|e| SimError::InWorkgroup {
                workgroup: id,
                error: Box::new(e),
            })?;
        counters.add(&run);
        statistics.task_invocations += u64::from(task_lanes);
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
        tasks.push(TaskWorkgroup {
            id,
            mesh_groups: [x, y, z],
        });
        for m in 0..count {
            let mesh_id = [m % x, m / x % y, m / (x * y)];
            let mut misbe = Isbe::for_mesh_from_task(mesh_state, out, m);
            let launch = Launch {
                workgroup_size: mesh.workgroup_size,
                workgroup_id: mesh_id,
            };
            let run = run_workgroup(&mesh_program, &launch, &mut misbe, &mut resources, options)
                .map_err(|e| SimError::InWorkgroup {
                    workgroup: mesh_id,
                    error: Box::new(e),
                })?;
            counters.add(&run);
            statistics.mesh_invocations += u64::from(mesh_lanes);
            let mut wg = read_mesh_outputs(mesh_state, &misbe, mesh_id)?;
            statistics.mesh_primitives_generated += u64::from(wg.primitive_count);
            wg.task_workgroup = Some(index);
            workgroups.push(wg);
        }
    }
    Ok(MeshDraw {
        topology: mesh_state.topology.name(),
        tasks,
        workgroups,
        counters,
        statistics,
    })
}
