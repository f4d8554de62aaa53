//! The compiled shaders run in the simulator and produce what their GLSL
//! says, on both targets.

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::sim::SimOptions;

fn run(name: &str, arch: Arch) -> spvsass::sim::MeshDraw {
    let compiled = common::compile(name, arch);
    spvsass::Draw::new(None, &compiled.binary, [1, 1, 1])
        .run()
        .map(|r| r.draw)
        .expect("simulates")
}

fn check_point(arch: Arch) {
    let draw = run("point.mesh", arch);
    assert_eq!(draw.topology, "points");
    let wg = &draw.workgroups[0];
    assert_eq!(wg.primitive_count, 1);
    assert_eq!(wg.indices, vec![vec![0]]);
    assert_eq!(wg.vertices.len(), 1);
    assert_eq!(wg.vertices[0].position, Some([0.0, 0.0, 0.0, 1.0]));
    assert_eq!(wg.vertices[0].point_size, Some(200.0));
    assert!(wg.vertices[0].generic.is_empty());
}

fn check_triangle(arch: Arch) {
    let draw = run("triangle.mesh", arch);
    assert_eq!(draw.topology, "triangles");
    let wg = &draw.workgroups[0];
    assert_eq!(wg.primitive_count, 1);
    assert_eq!(wg.indices, vec![vec![0, 1, 2]]);
    let expect = [
        ([-0.5, -0.5, 0.0, 1.0], [1.0, 0.0, 0.0, 1.0]),
        ([0.0, 0.5, 0.0, 1.0], [0.0, 1.0, 0.0, 1.0]),
        ([0.5, -0.5, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0]),
    ];
    assert_eq!(wg.vertices.len(), 3);
    for (i, (pos, colour)) in expect.iter().enumerate() {
        let v = &wg.vertices[i];
        assert_eq!(v.position, Some(*pos), "vertex {i} position");
        assert_eq!(v.generic[&0], colour.map(Some), "vertex {i} colour");
        assert_eq!(v.point_size, None);
    }
    // The primitive count is written by one lane only; every lane ran.
    assert!(draw.counters.thread_instructions > draw.counters.warp_instructions);
}

#[test]
fn point_sm75() {
    check_point(Arch::Sm75);
}

#[test]
fn point_sm86() {
    check_point(Arch::Sm86);
}

#[test]
fn triangle_sm75() {
    check_triangle(Arch::Sm75);
}

#[test]
fn triangle_sm86() {
    check_triangle(Arch::Sm86);
}

#[test]
fn every_workgroup_of_a_grid_emits_its_point() {
    let compiled = common::compile("point.mesh", Arch::Sm86);
    let draw = spvsass::Draw::new(None, &compiled.binary, [2, 3, 1])
        .run()
        .map(|r| r.draw)
        .expect("simulates");
    assert_eq!(draw.workgroups.len(), 6);
    let ids: Vec<[u32; 3]> = draw.workgroups.iter().map(|w| w.id).collect();
    assert_eq!(ids[..3], [[0, 0, 0], [1, 0, 0], [0, 1, 0]]);
    assert!(
        draw.workgroups
            .iter()
            .all(|w| w.primitive_count == 1 && w.vertices[0].point_size == Some(200.0))
    );
}

#[test]
fn step_limit_is_an_error_not_a_hang() {
    let compiled = common::compile("triangle.mesh", Arch::Sm86);
    let err = spvsass::Draw::new(None, &compiled.binary, [1, 1, 1])
        .options(SimOptions {
            max_steps: 5,
            ..SimOptions::default()
        })
        .run()
        .map(|r| r.draw)
        .unwrap_err();
    assert!(err.to_string().contains("/*00"), "{err}");
}
