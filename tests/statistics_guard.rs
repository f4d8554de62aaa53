//! The in-shader pipeline-statistics counting behind its guard
//! (docs/ABI.md, "Pipeline statistics"): drawn with no query active (the
//! root table's query address 0), a task or mesh workgroup issues at most
//! two instructions more than the same shader compiled with
//! `--statistics off`, counts nothing and draws the same outputs; drawn
//! under a query it counts its invocations and primitives.

use crate::common;

use spvsass::backend::binary::Binary;
use spvsass::backend::target::Arch;
use spvsass::sim::{MeshDraw, SimOptions};

/// The instructions the guard may cost a workgroup: the test of the
/// query address and the branch over the counting.
const GUARD: u64 = 2;

fn compile(name: &str, arch: Arch, statistics: bool, shader_cull: bool) -> Binary {
    let options = spvsass::Options {
        arch: Some(arch),
        shader_cull,
        task_present: common::task_partner(name).is_some(),
        no_statistics: !statistics,
        ..Default::default()
    };
    spvsass::compile(&common::shader_words(name), &options)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .binary
}

fn draw(task: Option<&Binary>, mesh: &Binary, groups: [u32; 3], query: bool) -> MeshDraw {
    let options = SimOptions {
        statistics_query: query,
        ..Default::default()
    };
    spvsass::Draw::new(task, mesh, groups)
        .options(options)
        .run()
        .unwrap_or_else(|e| panic!("{e}"))
        .draw
}

/// Draws `mesh` (behind `task`) three ways on `arch`: counting compiled
/// in with and without a query, and compiled out.
fn check(task: Option<&str>, mesh: &str, groups: [u32; 3], shader_cull: bool, arch: Arch) {
    let build = |statistics| {
        (
            task.map(|t| compile(t, arch, statistics, shader_cull)),
            compile(mesh, arch, statistics, shader_cull),
        )
    };
    let (on_task, on_mesh) = build(true);
    let (off_task, off_mesh) = build(false);
    let counted = draw(on_task.as_ref(), &on_mesh, groups, true);
    let unguarded = draw(on_task.as_ref(), &on_mesh, groups, false);
    let compiled_out = draw(off_task.as_ref(), &off_mesh, groups, true);

    let workgroups = (counted.tasks.len() + counted.workgroups.len()) as u64;
    let (inactive, out) = (
        unguarded.counters.warp_instructions,
        compiled_out.counters.warp_instructions,
    );
    assert!(
        inactive <= out + GUARD * workgroups,
        "{mesh} on {arch}: {inactive} warp-instructions without a query, \
         {out} compiled out, {workgroups} workgroups"
    );
    assert_eq!(unguarded.workgroups, compiled_out.workgroups, "{mesh}");
    assert_eq!(unguarded.statistics, Default::default(), "{mesh}");

    let mesh_invocations: u64 = counted.workgroups.len() as u64 * u64::from(invocations(&on_mesh));
    assert_eq!(counted.statistics.mesh_invocations, mesh_invocations);
    let primitives: u64 = counted
        .workgroups
        .iter()
        .map(|w| u64::from(w.primitive_count))
        .sum();
    if !shader_cull {
        assert_eq!(counted.statistics.mesh_primitives_generated, primitives);
    }
    assert!(counted.statistics.mesh_primitives_generated >= primitives);
    if let Some(t) = &on_task {
        assert_eq!(
            counted.statistics.task_invocations,
            counted.tasks.len() as u64 * u64::from(invocations(t))
        );
    }
}

fn invocations(b: &Binary) -> u32 {
    b.workgroup_size.iter().product()
}

macro_rules! guard_tests {
    ($($name:ident: $task:expr, $mesh:expr, $groups:expr, $cull:expr;)*) => {$(
        #[test]
        fn $name() {
            for arch in [Arch::Sm75, Arch::Sm86, Arch::Sm90] {
                check($task, $mesh, $groups, $cull, arch);
            }
        }
    )*};
}

guard_tests! {
    point_one_invocation: None, "point.mesh", [1, 1, 1], false;
    triangle: None, "triangle.mesh", [1, 1, 1], false;
    grid_of_mesh_workgroups: None, "d_grid3d.mesh", [2, 2, 2], false;
    task_and_mesh: Some("d_payload.task"), "d_payload.mesh", [2, 1, 1], false;
    wide_task_and_mesh: Some("w_exchange.task"), "w_exchange.mesh", [2, 1, 1], false;
    wide_mesh: None, "w_vertices128.mesh", [2, 1, 1], false;
    culling_compiled_in: None, "dense_grid.mesh", [1, 1, 1], true;
}
