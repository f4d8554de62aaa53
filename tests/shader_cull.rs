//! In-shader primitive culling (`--shader-cull`, backend
//! `insert_cull.rs`): for each shader and each rasterizer state,
//! the image with the culling compiled in and switched on is the image
//! without it, pixel for pixel, while fewer primitives reach the
//! rasterizer; with the culling word 0 the draw's outputs are exactly
//! those of the shader compiled without culling.

use crate::common;

use spvsass::backend::abi::CullControl;
use spvsass::backend::binary::Binary;
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
    spvsass::Draw::new(task.as_ref(), binary, [groups, 1, 1])
        .options(options)
        .run()
        .map(|r| r.draw)
        .expect("simulates")
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

/// `name` compiled with spec constant 0 (its workgroup size) set to
/// `size`.
fn compile_sized(name: &str, size: u32, shader_cull: bool) -> spvsass::Compiled {
    let options = spvsass::Options {
        arch: Some(Arch::Sm86),
        shader_cull,
        spec_constants: vec![(0, spvsass::frontend::SpecValue::Int(size.into()))],
        ..Default::default()
    };
    spvsass::compile(&common::shader_words(name), &options)
        .unwrap_or_else(|e| panic!("{name} with {size} invocations: {e}"))
}

/// Each primitive of a draw as its vertices' positions (bit patterns), by
/// workgroup: what the compaction must keep whatever the renumbering.
fn triangles(d: &MeshDraw) -> Vec<Vec<[[u32; 4]; 3]>> {
    d.workgroups
        .iter()
        .map(|wg| {
            wg.indices
                .iter()
                .map(|t| {
                    let p = |k: usize| {
                        wg.vertices[t[k] as usize]
                            .position
                            .expect("a position")
                            .map(f32::to_bits)
                    };
                    [p(0), p(1), p(2)]
                })
                .collect()
        })
        .collect()
}

/// Whether primitive `p` of workgroup `w` alone covers a pixel centre.
fn visible(d: &MeshDraw, w: usize, p: usize, st: &RenderState) -> bool {
    let mut one = d.clone();
    let mut wg = d.workgroups[w].clone();
    wg.indices = vec![wg.indices[p].clone()];
    wg.primitive_count = 1;
    if !wg.primitives.is_empty() {
        wg.primitives = vec![wg.primitives[p].clone()];
    }
    one.workgroups = vec![wg];
    let fb = spvsass::render(&one, st).expect("renders");
    // The shader's colours have alpha 1; the cleared image is all zeros.
    (0..st.height).any(|y| (0..st.width).any(|x| fb.pixel(x, y, 0).is_some_and(|c| c[3] != 0.0)))
}

/// dense_grid_wide.mesh (16 workgroups of `size` invocations) with and
/// without culling under one rasterizer state: every primitive the culled
/// draw keeps is one of the unculled draw's (its vertices renumbered),
/// every unculled primitive that covers a pixel is kept, the images are
/// equal, and many primitives go (small and off-screen ones, and with
/// facing culling those facing away). With the culling word 0 the outputs are
/// those of the shader compiled without culling.
fn wide_culling(size: u32, cull_mode: CullMode, front_face: FrontFace) {
    let name = "dense_grid_wide.mesh";
    let st = state(cull_mode, front_face);
    let plain = compile_sized(name, size, false);
    let culled = compile_sized(name, size, true);
    let off = draw(name, &plain.binary, 16, st.shader_cull());
    let on = draw(name, &culled.binary, 16, st.shader_cull());
    let disabled = draw(name, &culled.binary, 16, CullControl::default());
    assert_eq!(off.workgroups, disabled.workgroups, "switched off");
    let cells = 15 * (size / 16 - 1);
    assert_eq!(primitives(&off), 16 * 2 * cells);
    let (all, kept) = (triangles(&off), triangles(&on));
    let mut visible_count = 0;
    for (w, (all, kept)) in all.iter().zip(&kept).enumerate() {
        for t in kept {
            assert!(
                all.contains(t),
                "workgroup {w}: kept {t:?} is not drawn unculled"
            );
        }
        for (p, t) in all.iter().enumerate() {
            if visible(&off, w, p, &st) {
                visible_count += 1;
                assert!(
                    kept.contains(t),
                    "workgroup {w}: visible primitive {p} culled"
                );
            }
        }
        // The compaction leaves the vertex indices dense.
        let mut used: Vec<u32> = on.workgroups[w].indices.iter().flatten().copied().collect();
        used.sort_unstable();
        used.dedup();
        assert_eq!(used, (0..used.len() as u32).collect::<Vec<_>>());
    }
    assert!(visible_count > 0, "something is visible");
    // Facing culling drops the half facing away too.
    let most = match cull_mode {
        CullMode::None => primitives(&off) * 4 / 5,
        _ => primitives(&off) / 2,
    };
    assert!(
        primitives(&on) < most,
        "{} of {} primitives kept",
        primitives(&on),
        primitives(&off)
    );
    let a = spvsass::render(&off, &st).expect("renders");
    let b = spvsass::render(&on, &st).expect("renders");
    for y in 0..st.height {
        for x in 0..st.width {
            assert_eq!(a.pixel(x, y, 0), b.pixel(x, y, 0), "pixel ({x}, {y})");
        }
    }
}

#[test]
fn wide_128_back_ccw() {
    wide_culling(128, CullMode::Back, FrontFace::CounterClockwise);
}

#[test]
fn wide_128_none() {
    wide_culling(128, CullMode::None, FrontFace::CounterClockwise);
}

#[test]
fn wide_64_front_cw() {
    wide_culling(64, CullMode::Front, FrontFace::Clockwise);
}

/// 80 invocations: the last logical subgroup has 16.
#[test]
fn wide_80_back_cw() {
    wide_culling(80, CullMode::Back, FrontFace::Clockwise);
}
