//! Task and lone mesh shaders drawn over a 3-D grid: the hardware gives a
//! workgroup only its linear index, and the shader splits it by the grid
//! the driver wrote into the root table (x fastest, then y, then z; see
//! `from_ir/draw_ids.rs`). gl_GlobalInvocationID, gl_LocalInvocationID of
//! a 3-D workgroup and gl_DrawID (0 for a direct draw) come with it.

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::sim::SimOptions;

fn ids(groups: [u32; 3]) -> Vec<[u32; 3]> {
    let mut v = Vec::new();
    for z in 0..groups[2] {
        for y in 0..groups[1] {
            for x in 0..groups[0] {
                v.push([x, y, z]);
            }
        }
    }
    v
}

fn f(v: [u32; 3], w: f32) -> [Option<f32>; 4] {
    [
        Some(v[0] as f32),
        Some(v[1] as f32),
        Some(v[2] as f32),
        Some(w),
    ]
}

/// d_grid3d.mesh, 2x2x2 invocations, over `groups`: every invocation's point
/// carries its global id, group id, draw index, the counts and its local id.
fn check_mesh(groups: [u32; 3], arch: Arch) {
    let m = common::compile("d_grid3d.mesh", arch);
    let d = spvsass::Draw::new(None, &m.binary, groups)
        .run()
        .map(|r| r.draw)
        .expect("draw runs");
    let expected = ids(groups);
    assert_eq!(d.workgroups.len(), expected.len());
    for (wg, id) in d.workgroups.iter().zip(&expected) {
        assert_eq!(wg.id, *id);
        assert_eq!(wg.primitive_count, 8);
        for i in 0..8u32 {
            let local = [i % 2, i / 2 % 2, i / 4];
            let global = [0, 1, 2].map(|a| id[a] * 2 + local[a]);
            let v = &wg.vertices[i as usize];
            assert_eq!(
                v.position,
                Some(global.map(|c| c as f32)).map(|[x, y, z]| [x, y, z, 1.0]),
                "gl_GlobalInvocationID of invocation {i} of group {id:?}"
            );
            assert_eq!(v.generic[&0], f(*id, 0.0), "gl_WorkGroupID, gl_DrawID");
            assert_eq!(v.generic[&1], f(groups, 0.0), "gl_NumWorkGroups");
            assert_eq!(v.generic[&2], f(local, 0.0), "gl_LocalInvocationID");
        }
    }
    let n = expected.len() as u64;
    assert_eq!(d.statistics.mesh_invocations, 8 * n);
    assert_eq!(d.statistics.mesh_primitives_generated, 8 * n);
}

#[test]
fn lone_mesh_grid_3x2x2_sm86() {
    check_mesh([3, 2, 2], Arch::Sm86);
}

#[test]
fn lone_mesh_grid_1x5x3_sm75() {
    check_mesh([1, 5, 3], Arch::Sm75);
}

#[test]
fn lone_mesh_grid_7x1x1_sm86() {
    check_mesh([7, 1, 1], Arch::Sm86);
}

/// d_grid.task (4x2 invocations) over `groups`, each launching one
/// d_grid.mesh workgroup that shows the task's ids.
fn check_task(groups: [u32; 3], arch: Arch) {
    let t = common::compile("d_grid.task", arch);
    let m = common::compile("d_grid.mesh", arch);
    let d = spvsass::Draw::new(Some(&t.binary), &m.binary, groups)
        .run()
        .map(|r| r.draw)
        .expect("draw runs");
    let expected = ids(groups);
    assert_eq!(d.tasks.len(), expected.len());
    assert_eq!(d.workgroups.len(), expected.len());
    for ((task, wg), id) in d.tasks.iter().zip(&d.workgroups).zip(&expected) {
        assert_eq!(task.id, *id);
        for i in 0..8u32 {
            let local = [i % 4, i / 4, 0];
            let global = [id[0] * 4 + local[0], id[1] * 2 + local[1], id[2]];
            let v = &wg.vertices[i as usize];
            let [x, y, z] = global.map(|c| c as f32);
            assert_eq!(
                v.position,
                Some([x, y, z, i as f32]),
                "gl_GlobalInvocationID of task invocation {i} of group {id:?}"
            );
            assert_eq!(v.generic[&0], f(*id, 0.0), "gl_WorkGroupID of {id:?}");
            assert_eq!(v.generic[&1], f(groups, 0.0), "gl_NumWorkGroups");
        }
    }
    let n = expected.len() as u64;
    assert_eq!(d.statistics.task_invocations, 8 * n);
    assert_eq!(d.statistics.mesh_invocations, 8 * n);
}

#[test]
fn task_grid_2x3x2_sm86() {
    check_task([2, 3, 2], Arch::Sm86);
}

#[test]
fn task_grid_5x1x2_sm75() {
    check_task([5, 1, 2], Arch::Sm75);
}

/// The statistics come from the program: one workgroup run on its own adds
/// its invocations and primitives to the query block the root table names,
/// and nothing else does.
#[test]
fn a_workgroup_counts_its_own_statistics() {
    use spvsass::backend::abi;
    use spvsass::sim::{Isbe, Launch, Program, Resources, run_workgroup};
    let m = common::compile("d_grid3d.mesh", Arch::Sm86);
    let mesh = m.binary.mesh.as_ref().expect("mesh state");
    let program = Program::decode(&m.binary.code, m.binary.arch).expect("decodes");
    let mut resources = Resources::default();
    let query = resources.global.map(vec![0; abi::query::BYTES as usize]);
    let mut root = abi::RootTable::default();
    root.set_num_workgroups([1, 1, 1]);
    root.set_query_address(query);
    resources
        .constants
        .set(abi::ROOT_BANK, root.bytes().to_vec());
    let launch = Launch {
        workgroup_size: m.binary.workgroup_size,
        workgroup_id: [0; 3],
    };
    for run in 1..=2u64 {
        let mut isbe = Isbe::for_mesh(mesh, 0);
        run_workgroup(
            &program,
            &launch,
            &mut isbe,
            &mut resources,
            &SimOptions::default(),
        )
        .expect("runs");
        let block = resources.global.buffer(query).expect("mapped");
        // 64-bit counters.
        let word = |at: u32| {
            let at = at as usize;
            u64::from_le_bytes(block[at..at + 8].try_into().unwrap())
        };
        assert_eq!(word(abi::query::TASK_INVOCATIONS), 0);
        assert_eq!(word(abi::query::MESH_INVOCATIONS), 8 * run);
        assert_eq!(word(abi::query::MESH_PRIMITIVES), 8 * run);
    }
}
