//! Task → mesh draws in the simulator: the payload and the group counts a
//! task workgroup emits reach the mesh workgroups it launches, in a fixed
//! order, and the pipeline statistics count invocations (docs/HARDWARE.md,
//! "ISBE" and "Workgroups").

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::sim::{DrawError, MeshDraw, SimOptions};

fn draw(task: &str, mesh: &str, groups: [u32; 3], arch: Arch) -> MeshDraw {
    let t = common::compile(task, arch);
    let m = common::compile(mesh, arch);
    spvsass::Draw::new(Some(&t.binary), &m.binary, groups)
        .run()
        .map(|r| r.draw)
        .expect("draw runs")
}

/// d_payload.task: group g stores ids[i] = 100g + i, group = g and
/// scale = ids[5] * 0.5 (read back from its own payload), then launches
/// (g + 1) x 2 x 1 mesh workgroups. d_payload.mesh emits one point with
/// position (group, scale, ids[id.x + 3], id.x), location 0 =
/// (gl_NumWorkGroups, 1) and location 1 = (gl_WorkGroupID, 0).
fn check_payload(arch: Arch) {
    let d = draw("d_payload.task", "d_payload.mesh", [2, 1, 1], arch);
    assert_eq!(d.tasks.len(), 2);
    assert_eq!(d.tasks[0].mesh_groups, [1, 2, 1]);
    assert_eq!(d.tasks[1].mesh_groups, [2, 2, 1]);
    assert_eq!(d.workgroups.len(), 2 + 4);
    let mut expected = Vec::new();
    for g in 0..2u32 {
        let x = g + 1;
        for index in 0..x * 2 {
            expected.push((g, [index % x, index / x, 0], index));
        }
    }
    for (wg, (g, id, index)) in d.workgroups.iter().zip(expected) {
        assert_eq!(wg.task_workgroup, Some(g));
        assert_eq!(wg.id, id);
        assert_eq!(wg.primitive_count, 1);
        let v = &wg.vertices[0];
        let scale = (100 * g + 5) as f32 * 0.5;
        let x = id[0];
        let id_word = (100 * g + x + 3) as f32;
        assert_eq!(
            v.position,
            Some([g as f32, scale, id_word, x as f32]),
            "task {g} mesh {index}"
        );
        assert_eq!(
            v.generic[&1],
            [Some(id[0] as f32), Some(id[1] as f32), Some(0.0), Some(0.0)],
            "gl_WorkGroupID of task {g} mesh {index}"
        );
        assert_eq!(
            v.generic[&0],
            [Some((g + 1) as f32), Some(2.0), Some(1.0), Some(1.0)],
            "group counts seen by task {g} mesh {index}"
        );
    }
    assert_eq!(d.statistics.task_invocations, 2 * 32);
    assert_eq!(d.statistics.mesh_invocations, 6 * 32);
    assert_eq!(d.statistics.mesh_primitives_generated, 6);
}

#[test]
fn payload_and_counts_reach_the_mesh_shader_sm86() {
    check_payload(Arch::Sm86);
}

#[test]
fn payload_and_counts_reach_the_mesh_shader_sm75() {
    check_payload(Arch::Sm75);
}

#[test]
fn draws_are_deterministic() {
    let a = draw("d_payload.task", "d_payload.mesh", [3, 1, 1], Arch::Sm86);
    let b = draw("d_payload.task", "d_payload.mesh", [3, 1, 1], Arch::Sm86);
    assert_eq!(a, b);
}

#[test]
fn mesh_only_draw_counts_mesh_invocations() {
    let m = common::compile("triangle.mesh", Arch::Sm86);
    let d = spvsass::Draw::new(None, &m.binary, [3, 1, 1])
        .run()
        .map(|r| r.draw)
        .expect("draw runs");
    assert_eq!(d.statistics.task_invocations, 0);
    assert_eq!(d.statistics.mesh_invocations, 3 * 32);
    assert_eq!(d.statistics.mesh_primitives_generated, 3);
}

#[test]
fn the_task_binary_states_its_payload_and_vertex_binding() {
    let t = common::compile("d_payload.task", Arch::Sm86);
    // uint group, float scale, uint ids[32].
    assert_eq!(
        t.binary.task.as_ref().map(|s| s.payload_bytes),
        Some(34 * 4)
    );
    let sph = spvsass::backend::sph::Sph(t.binary.sph.expect("task SPH"));
    assert_eq!(sph.get(spvsass::backend::sph::bits::SHADER_TYPE), 1);
    let m = common::compile("d_payload.mesh", Arch::Sm86);
    let sph = spvsass::backend::sph::Sph(m.binary.sph.expect("mesh SPH"));
    assert_eq!(sph.get(spvsass::backend::sph::bits::SHADER_TYPE), 3);
}

#[test]
fn a_mesh_shader_compiled_without_task_present_is_refused_behind_a_task() {
    let t = common::compile("d_payload.task", Arch::Sm86);
    let m = common::compile("point.mesh", Arch::Sm86);
    let err = spvsass::sim::run_draw(
        Some(&t.binary),
        &m.binary,
        [1, 1, 1],
        &SimOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        err,
        DrawError::TaskPresentMismatch {
            found: "VERTEX",
            task: true
        }
    );
    assert!(err.to_string().contains("--task-present"), "{err}");
}

#[test]
fn a_mesh_shader_in_the_task_slot_is_refused() {
    let m = common::compile("d_payload.mesh", Arch::Sm86);
    let err = spvsass::sim::run_draw(
        Some(&m.binary),
        &m.binary,
        [1, 1, 1],
        &SimOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        err,
        DrawError::WrongStage {
            role: "task",
            stage: "mesh"
        }
    );
}

#[test]
fn run_with_task_prints_statistics() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_spvsass"))
        .args([
            "run",
            common::shader_path("d_payload.mesh").to_str().unwrap(),
            "--task",
            common::shader_path("d_payload.task").to_str().unwrap(),
            "--groups",
            "1",
        ])
        .output()
        .expect("spvsass runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.contains("task workgroup 0 (0, 0, 0): launches 1x2x1 mesh workgroups"),
        "{out}"
    );
    assert!(
        out.contains("task 0 workgroup (0, 1, 0): 1 points"),
        "{out}"
    );
    assert!(
        out.contains(
            "statistics: 32 task invocations, 64 mesh invocations, 2 mesh primitives generated"
        ),
        "{out}"
    );
}

/// Without a task shader, gl_NumWorkGroups is the draw's grid in the root
/// table (draw_grid.rs runs it).
#[test]
fn num_workgroups_of_a_lone_mesh_shader_is_in_the_root_table() {
    let words = common::shader_words("d_payload.mesh");
    let c = spvsass::compile(&words, &spvsass::Options::default()).expect("compiles");
    let listing = spvsass::listing(&c.binary, false).expect("listing");
    // Read by LDC, or folded into the instructions that use it.
    for word in ["c[0x0][0x0]", "c[0x0][0x4]", "c[0x0][0x8]"] {
        assert!(listing.contains(word), "{word}\n{listing}");
    }
}

/// The workgroup index is read from the input ISBE at offset 0 before any
/// output write: with SKEW in task shaders and lone mesh shaders, without
/// it behind a task shader (docs/HARDWARE.md, "ISBE").
fn check_index_read_first(name: &str, expected: &str) {
    let c = common::compile(name, Arch::Sm86);
    let listing = spvsass::listing(&c.binary, false).expect("listing");
    let read = listing
        .find(expected)
        .unwrap_or_else(|| panic!("{name}: {listing}"));
    let first_write = listing.find("ISBEWR").expect("writes");
    assert!(read < first_write, "{name}: {listing}");
}

#[test]
fn task_shader_reads_vertex_id_with_skew_first() {
    check_index_read_first("d_payload.task", "ISBERD.ATTR.SKEW.32 R");
}

#[test]
fn mesh_shader_behind_a_task_reads_its_index_without_skew_first() {
    check_index_read_first("d_payload.mesh", "ISBERD.ATTR.32 R");
    check_index_read_first("d_prims.mesh", "ISBERD.ATTR.32 R");
}

#[test]
fn lone_mesh_shader_reads_vertex_id_with_skew_first() {
    check_index_read_first("d_viewport.mesh", "ISBERD.ATTR.SKEW.32 R");
}

#[test]
fn run_json_has_tasks_and_statistics() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_spvsass"))
        .args([
            "run",
            common::shader_path("d_prims.mesh").to_str().unwrap(),
            "--task",
            common::shader_path("d_prims.task").to_str().unwrap(),
            "--json",
        ])
        .output()
        .expect("spvsass runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["statistics"]["task_invocations"], 32);
    assert_eq!(v["statistics"]["mesh_invocations"], 128);
    assert_eq!(v["statistics"]["mesh_primitives_generated"], 160);
    assert_eq!(v["tasks"][0]["mesh_groups"], serde_json::json!([4, 1, 1]));
    assert_eq!(v["workgroups"][1]["task_workgroup"], 0);
    assert_eq!(v["workgroups"][1]["primitives"][4]["cull"], true);
    assert_eq!(v["workgroups"][1]["primitives"][5]["primitive_id"], 105);
}

#[test]
fn emit_methods_needs_the_mesh_shader() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_spvsass"))
        .args([
            "compile",
            common::shader_path("d_prims.task").to_str().unwrap(),
            "--emit",
            "methods",
        ])
        .output()
        .expect("spvsass runs");
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--emit methods takes the mesh shader"),
        "{err}"
    );
}

#[test]
fn a_returning_task_workgroup_launches_nothing() {
    let d = draw("d_return.task", "d_return.mesh", [3, 1, 1], Arch::Sm86);
    let launched: Vec<[u32; 3]> = d.tasks.iter().map(|t| t.mesh_groups).collect();
    assert_eq!(launched, vec![[2, 1, 1], [0, 0, 0], [2, 1, 1]]);
    let points: Vec<(Option<u32>, Option<[f32; 4]>)> = d
        .workgroups
        .iter()
        .map(|w| (w.task_workgroup, w.vertices[0].position))
        .collect();
    assert_eq!(
        points,
        vec![
            (Some(0), Some([0.0, 0.0, 0.0, 1.0])),
            (Some(0), Some([0.0, 1.0, 0.0, 1.0])),
            (Some(2), Some([2.0, 0.0, 0.0, 1.0])),
            (Some(2), Some([2.0, 1.0, 0.0, 1.0])),
        ]
    );
    assert_eq!(d.statistics.task_invocations, 96);
    assert_eq!(d.statistics.mesh_invocations, 4);
}

/// The task output is not cleared (as on the hardware): a task shader
/// that never writes its counts is caught, not read as "launch nothing".
#[test]
fn unwritten_task_counts_are_an_error() {
    use spvsass::backend::isa::{Instr, Op};
    let mut task = common::compile("d_return.task", Arch::Sm86).binary;
    task.code =
        spvsass::backend::program::encode(&[Instr::new(Op::Exit)], task.arch).expect("encodes");
    let mesh = common::compile("d_return.mesh", Arch::Sm86).binary;
    let err =
        spvsass::sim::run_draw(Some(&task), &mesh, [1, 1, 1], &SimOptions::default()).unwrap_err();
    assert_eq!(
        err,
        DrawError::TaskCountMismatch {
            workgroup: 0,
            count: 0xcdcd_cdcd,
            x: 0xcdcd_cdcd,
            y: 0xcdcd_cdcd,
            z: 0xcdcd_cdcd
        }
    );
}
