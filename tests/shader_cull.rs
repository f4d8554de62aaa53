//! In-shader primitive culling (`--shader-cull`, backend
//! `from_ir/mesh_cull.rs`): for each shader and each rasterizer state,
//! the image with the culling compiled in and switched on is the image
//! without it, pixel for pixel, while fewer primitives reach the
//! rasterizer; with the culling word 0 the draw's outputs are exactly
//! those of the shader compiled without culling.

mod common;

use spvsass::backend::abi::CullControl;
use spvsass::backend::binary::Binary;
use spvsass::backend::from_ir::mesh_cull::{CullPlan, plan};
use spvsass::backend::target::Arch;
use spvsass::sim::raster::{CullMode, FrontFace, RenderState};
use spvsass::sim::{MeshDraw, SimOptions};

fn compile(name: &str, shader_cull: bool) -> spvsass::Compiled {
    let options = spvsass::Options {
        arch: Some(Arch::Sm86),
        shader_cull,
        task_present: common::task_partner(name).is_some(),
        ..Default::default()
    };
    spvsass::compile(&common::shader_words(name), &options)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Draws mesh shader `name` (behind its task shader, if it has one).
fn draw(name: &str, binary: &Binary, groups: u32, cull: CullControl) -> MeshDraw {
    let options = SimOptions {
        cull,
        ..SimOptions::default()
    };
    let task = common::task_partner(name).map(|t| compile(&t, false).binary);
    spvsass::simulate_draw(task.as_ref(), binary, [groups, 1, 1], &options).expect("simulates")
}

fn state(cull_mode: CullMode, front_face: FrontFace) -> RenderState {
    RenderState {
        width: 64,
        height: 64,
        layers: 4,
        cull_mode,
        front_face,
        ..RenderState::default()
    }
}

/// The primitives that reach the rasterizer.
fn primitives(d: &MeshDraw) -> u32 {
    d.workgroups.iter().map(|w| w.primitive_count).sum()
}

/// Renders `name` with and without culling under one rasterizer state;
/// the images must be equal. Returns the primitive counts (off, on) and
/// the pixels covered.
fn same_image(
    name: &str,
    groups: u32,
    cull_mode: CullMode,
    front_face: FrontFace,
) -> (u32, u32, usize) {
    let st = state(cull_mode, front_face);
    let plain = compile(name, false);
    let culled = compile(name, true);
    let off = draw(name, &plain.binary, groups, st.shader_cull());
    let on = draw(name, &culled.binary, groups, st.shader_cull());
    let a = spvsass::render(&off, &st).expect("renders");
    let b = spvsass::render(&on, &st).expect("renders");
    let mut covered = 0;
    for layer in 0..st.layers {
        for y in 0..st.height {
            for x in 0..st.width {
                let p = a.pixel(x, y, layer);
                assert_eq!(p, b.pixel(x, y, layer), "{name} pixel ({x}, {y}, {layer})");
                covered += usize::from(p.is_some_and(|p| p[3] != 0.0));
            }
        }
    }
    (primitives(&off), primitives(&on), covered)
}

macro_rules! same_images {
    ($($test:ident: $name:literal, $groups:expr, $mode:ident, $face:ident, $check:expr;)*) => {
        $(
            #[test]
            fn $test() {
                let (off, on, covered) =
                    same_image($name, $groups, CullMode::$mode, FrontFace::$face);
                let check: fn(u32, u32, usize) -> bool = $check;
                assert!(
                    check(off, on, covered),
                    "{}: {off} primitives without culling, {on} with, {covered} pixels",
                    $name
                );
            }
        )*
    };
}

// dense_grid: 64 patches of 42 triangles, a third partly off screen, half
// facing away, many covering no pixel centre. triangle: one triangle that
// covers pixels (kept unless its face is culled).
same_images! {
    dense_none_ccw: "dense_grid.mesh", 64, None, CounterClockwise, |off, on, px| px > 0 && off == 2688 && on < off;
    dense_back_ccw: "dense_grid.mesh", 64, Back, CounterClockwise, |off, on, px| px > 0 && on < off / 2;
    dense_front_ccw: "dense_grid.mesh", 64, Front, CounterClockwise, |off, on, px| px > 0 && on < off / 2;
    dense_back_cw: "dense_grid.mesh", 64, Back, Clockwise, |off, on, px| px > 0 && on < off / 2;
    dense_front_cw: "dense_grid.mesh", 64, Front, Clockwise, |off, on, px| px > 0 && on < off / 2;
    dense_both_ccw: "dense_grid.mesh", 64, FrontAndBack, CounterClockwise, |_, on, _| on < 100;
    triangle_none: "triangle.mesh", 1, None, CounterClockwise, |off, on, px| px > 0 && off == 1 && on == 1;
    triangle_back_ccw: "triangle.mesh", 1, Back, CounterClockwise, |off, on, px| px > 0 && off == 1 && on == 1;
    triangle_front_ccw: "triangle.mesh", 1, Front, CounterClockwise, |off, on, px| px == 0 && off == 1 && on == 0;
    triangle_back_cw: "triangle.mesh", 1, Back, Clockwise, |off, on, px| px == 0 && off == 1 && on == 0;
    triangle_front_cw: "triangle.mesh", 1, Front, Clockwise, |off, on, px| px > 0 && off == 1 && on == 1;
    // Epilogue plans: computed-offset writes behind a task shader (and
    // per-primitive layers; most primitives lie off screen), one
    // invocation, per-primitive outputs. A culled face draws nothing.
    prims_none: "d_prims.mesh", 1, None, CounterClockwise, |off, on, _| off == 160 && on == 2;
    prims_back: "d_prims.mesh", 1, Back, CounterClockwise, |off, on, _| on <= off;
    prims_front_cw: "d_prims.mesh", 1, Front, Clockwise, |off, on, _| on <= off;
    quads_back: "ref_quads.mesh", 2, Back, CounterClockwise, |off, on, px| px == 0 && off == 16 && on == 0;
    quads_front: "ref_quads.mesh", 2, Front, CounterClockwise, |off, on, px| px > 0 && on <= off;
    vec3_back: "ref_vec3_colour.mesh", 1, Back, Clockwise, |off, on, px| px == 0 && off == 1 && on == 0;
    vec3_front: "ref_vec3_colour.mesh", 1, Front, Clockwise, |off, on, px| px > 0 && on <= off;
    layered_back: "layered_viewports.mesh", 1, Back, CounterClockwise, |off, on, px| px > 0 && on <= off;
    layered_front: "layered_viewports.mesh", 1, Front, CounterClockwise, |off, on, px| px == 0 && off == 1 && on == 0;
}

fn plan_of(name: &str) -> CullPlan {
    let ir = spvsass::frontend::translate(&common::shader_words(name), &Default::default())
        .expect("translates");
    let attrs = [0x70, 0x74, 0x78, 0x7c];
    plan(&ir, &attrs).expect("cullable")
}

/// Own-vertex writes allow deferred attribute shading; a one-invocation
/// shader writing vertices at constant indices, or writes at computed
/// offsets, get the epilogue.
#[test]
fn plans() {
    assert_eq!(plan_of("dense_grid.mesh"), CullPlan::Deferred);
    assert_eq!(plan_of("triangle.mesh"), CullPlan::Deferred);
    assert_eq!(plan_of("ref_vec3_colour.mesh"), CullPlan::Epilogue);
    assert_eq!(plan_of("d_prims.mesh"), CullPlan::Epilogue);
}

/// With the culling word 0 the culling code is skipped: every output of
/// every workgroup is what the shader compiled without culling writes.
#[test]
fn disabled_path_is_no_culling() {
    let plain = compile("dense_grid.mesh", false);
    let culled = compile("dense_grid.mesh", true);
    let off = draw("dense_grid.mesh", &plain.binary, 64, CullControl::default());
    let disabled = draw(
        "dense_grid.mesh",
        &culled.binary,
        64,
        CullControl::default(),
    );
    assert_eq!(off.workgroups, disabled.workgroups);
    assert_eq!(off.statistics, disabled.statistics);
}

/// Vertices no surviving primitive references are dropped: the indices
/// are dense from 0, so the highest index + 1 is the referenced count.
#[test]
fn unreferenced_vertices_dropped() {
    let st = state(CullMode::Back, FrontFace::CounterClockwise);
    let culled = compile("dense_grid.mesh", true);
    let on = draw("dense_grid.mesh", &culled.binary, 64, st.shader_cull());
    for wg in &on.workgroups {
        let mut used: Vec<u32> = wg.indices.iter().flatten().copied().collect();
        used.sort_unstable();
        used.dedup();
        let dense: Vec<u32> = (0..used.len() as u32).collect();
        assert_eq!(used, dense, "workgroup {:?}", wg.id);
    }
}

/// Culling points or lines is refused, naming why.
#[test]
fn points_refused() {
    let options = spvsass::Options {
        arch: Some(Arch::Sm86),
        shader_cull: true,
        ..Default::default()
    };
    let err = spvsass::compile(&common::shader_words("point.mesh"), &options)
        .expect_err("points are not culled");
    assert!(err.to_string().contains("points or lines"), "{err}");
}
