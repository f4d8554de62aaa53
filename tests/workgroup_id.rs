//! gl_WorkGroupID of a mesh shader launched by a task shader: the index the
//! hardware gives (input ISBE word 0) split by the task's x/y/z counts
//! (0x8/0xC/0x10, docs/HARDWARE.md). The ISA has no integer division, so the
//! compiler emits a float estimate with corrections; these tests run that
//! code over indices up to the 2^22 limit.

use crate::common;

use spvsass::backend::abi;
use spvsass::backend::isbe_layout::task as task_attr;
use spvsass::backend::target::Arch;
use spvsass::sim::{
    Isbe, Launch, Program, Resources, SimOptions, read_mesh_outputs, run_workgroup,
};

/// Runs one workgroup of d_groupid.mesh with index `n` of a launch of
/// `counts` and returns its gl_WorkGroupID (as written to Position).
fn group_id(
    bin: &spvsass::backend::binary::Binary,
    program: &Program,
    n: u32,
    counts: [u32; 3],
) -> [u32; 3] {
    let mesh = bin.mesh.as_ref().expect("mesh state");
    let mut task_out = vec![0u8; task_attr::PAYLOAD as usize];
    for (at, v) in [
        (task_attr::GROUP_COUNT, counts.iter().product::<u32>()),
        (task_attr::GROUP_X, counts[0]),
        (task_attr::GROUP_Y, counts[1]),
        (task_attr::GROUP_Z, counts[2]),
    ] {
        task_out[at as usize..at as usize + 4].copy_from_slice(&v.to_le_bytes());
    }
    let mut isbe = Isbe::for_mesh_from_task(mesh, &task_out, n);
    let launch = Launch {
        workgroup_size: bin.workgroup_size,
        workgroup_id: [0; 3],
    };
    // The root table points at a query block the shader counts into.
    let mut resources = Resources::default();
    let query = resources.global.map(vec![0; abi::query::BYTES as usize]);
    let mut root = abi::RootTable::default();
    root.set_query_address(query);
    resources
        .constants
        .set(abi::ROOT_BANK, root.bytes().to_vec());
    run_workgroup(
        program,
        &launch,
        &mut isbe,
        &mut resources,
        &SimOptions::default(),
    )
    .expect("runs");
    let wg = read_mesh_outputs(mesh, &isbe, [0; 3]).expect("reads back");
    let [x, y, z, w] = wg.vertices[0].position.expect("position");
    assert_eq!(w, 1.0);
    [x as u32, y as u32, z as u32]
}

fn check(arch: Arch) {
    let c = common::compile("d_groupid.mesh", arch);
    let program = Program::decode(&c.binary.code, c.binary.arch).expect("decodes");
    let max = task_attr::MAX_MESH_GROUPS;
    let mut cases: Vec<(u32, [u32; 3])> = vec![
        (0, [1, 1, 1]),
        (max - 1, [max, 1, 1]),
        (max - 1, [1, max, 1]),
        (max - 1, [1, 1, max]),
        (max - 1, [3, 5, max / 15 + 1]),
        (max - 1, [max / 2, 2, 1]),
        (max - 1, [max - 1, 2, 1]),
        (max - 2, [max - 1, 1, 2]),
        (12345, [7, 11, 1000]),
        (2047 * 2048 - 1, [2047, 2048, 1]),
    ];
    // A deterministic spread of counts and indices below the limit.
    let mut seed = 0x2545_f491_u32;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed
    };
    for _ in 0..300 {
        let cx = next() % 4096 + 1;
        let cy = next() % (max / cx).min(1024) + 1;
        let cz = (max / (cx * cy)).max(1);
        let n = next() % (cx * cy * cz);
        cases.push((n, [cx, cy, cz]));
    }
    for (n, [cx, cy, cz]) in cases {
        let expected = [n % cx, n / cx % cy, n / (cx * cy)];
        assert_eq!(
            group_id(&c.binary, &program, n, [cx, cy, cz]),
            expected,
            "index {n} of {cx}x{cy}x{cz} on {arch}"
        );
    }
}

#[test]
fn split_is_exact_up_to_the_limit_sm86() {
    check(Arch::Sm86);
}

#[test]
fn split_is_exact_up_to_the_limit_sm75() {
    check(Arch::Sm75);
}

#[test]
fn a_task_draw_gives_each_mesh_workgroup_its_id() {
    let t = common::compile("d_groupid.task", Arch::Sm86);
    let m = common::compile("d_groupid.mesh", Arch::Sm86);
    let d = spvsass::Draw::new(Some(&t.binary), &m.binary, [2, 1, 1])
        .run()
        .map(|r| r.draw)
        .expect("draw runs");
    let mut expected = Vec::new();
    for g in 0..2u32 {
        let x = g + 2;
        for z in 0..3 {
            for y in 0..2 {
                for xi in 0..x {
                    expected.push((g, [xi, y, z]));
                }
            }
        }
    }
    let got: Vec<(u32, [u32; 3])> = d
        .workgroups
        .iter()
        .map(|w| {
            let [x, y, z, _] = w.vertices[0].position.expect("position");
            assert_eq!(
                w.id,
                [x as u32, y as u32, z as u32],
                "id reported by the draw"
            );
            (w.task_workgroup.expect("launched by a task"), w.id)
        })
        .collect();
    assert_eq!(got, expected);
}
