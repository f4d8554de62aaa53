//! Per-primitive outputs (PrimitiveId, Layer, ViewportIndex,
//! CullPrimitiveEXT through VIEWPORT_MASK, PrimitiveShadingRate, user
//! perprimitiveEXT outputs) placed after the per-vertex blocks, read back
//! by meaning; the passthrough GEOMETRY header after the code.

use crate::common;

use spvsass::backend::isbe_layout::addr;
use spvsass::backend::sph::{Sph, bits};
use spvsass::backend::target::Arch;

/// d_prims.task launches 4 mesh workgroups of d_prims.mesh with cull_mask
/// 3; mesh workgroup g emits 40 triangles (p, p+1, p+2) over 42 vertices.
#[test]
fn per_primitive_values_and_culling_through_a_task_draw_sm86() {
    check_prims(Arch::Sm86);
}

#[test]
fn per_primitive_values_and_culling_through_a_task_draw_sm75() {
    check_prims(Arch::Sm75);
}

fn check_prims(arch: Arch) {
    let t = common::compile("d_prims.task", arch);
    let m = common::compile("d_prims.mesh", arch);
    let d = spvsass::Draw::new(Some(&t.binary), &m.binary, [1, 1, 1])
        .run()
        .map(|r| r.draw)
        .expect("draw runs");
    assert_eq!(d.workgroups.len(), 4);
    for (g, wg) in d.workgroups.iter().enumerate() {
        let g = g as u32;
        assert_eq!(wg.primitive_count, 40);
        assert_eq!(wg.primitives.len(), 40);
        for (p, prim) in wg.primitives.iter().enumerate() {
            let p = p as u32;
            assert_eq!(wg.indices[p as usize], vec![p, p + 1, p + 2]);
            assert_eq!(
                prim.primitive_id,
                Some((100 * g + p) as i32),
                "wg {g} prim {p}"
            );
            assert_eq!(prim.layer, Some(g as i32));
            assert_eq!(prim.shading_rate, Some((p & 15) as i32));
            assert_eq!(prim.cull, Some(p & 3 == 0), "wg {g} prim {p}");
            assert_eq!(prim.viewport_index, None);
            assert_eq!(
                prim.generic[&1],
                [Some(p as f32), Some(g as f32), Some(0.5), Some(1.0)]
            );
            assert!(prim.position.is_none() && !prim.generic.contains_key(&0));
        }
        // Vertices 0..41 (the second block of 32 included) are intact.
        assert_eq!(wg.vertices.len(), 42);
        for (v, vert) in wg.vertices.iter().enumerate() {
            assert_eq!(vert.position, Some([v as f32, g as f32, 0.0, 1.0]));
            assert_eq!(vert.generic[&0][0], Some(v as f32));
            assert_eq!(vert.cull, None);
        }
    }
    // Statistics as the H100 reports them (docs/HARDWARE.md): invocations, and
    // generated primitives including the 10 culled ones per workgroup.
    assert_eq!(d.statistics.task_invocations, 32);
    assert_eq!(d.statistics.mesh_invocations, 128);
    assert_eq!(d.statistics.mesh_primitives_generated, 160);
}

#[test]
fn primitives_come_after_all_vertex_blocks() {
    let m = common::compile("d_prims.mesh", Arch::Sm86);
    let mesh = m.binary.mesh.as_ref().expect("mesh state");
    // Position xyzw + location 0 .x per vertex.
    assert_eq!(mesh.vertex_attrs.len(), 5);
    assert_eq!(
        mesh.primitive_attrs,
        vec![
            addr::PRIMITIVE_ID,
            addr::LAYER,
            addr::generic(1, 0),
            addr::generic(1, 1),
            addr::generic(1, 2),
            addr::generic(1, 3),
            addr::VIEWPORT_MASK,
            addr::SHADING_RATE,
        ]
    );
    // ceil(42 / 32) = 2 vertex blocks of 5 lines: primitives from 0x500.
    let listing = spvsass::listing(&m.binary, false).expect("listing");
    assert!(
        listing.contains("ISBEWR.O.ATTR.SKEW.32 [0x800], R"),
        "{listing}"
    );
    assert!(listing.contains("+0x500], R"), "{listing}");
}

#[test]
fn the_geometry_header_is_passthrough_with_the_primitive_outputs() {
    let m = common::compile("d_prims.mesh", Arch::Sm86);
    let gs = Sph(m.binary.gs_sph.expect("a GEOMETRY header"));
    assert_eq!(gs.get(bits::SPH_TYPE), 1);
    assert_eq!(gs.get(bits::VERSION), 4);
    assert_eq!(gs.get(bits::SHADER_TYPE), 4);
    assert!(gs.bit(bits::GS_PASSTHROUGH));
    assert_eq!(gs.get(bits::THREADS_PER_INPUT_PRIMITIVE), 1);
    assert_eq!(gs.get(bits::OUTPUT_TOPOLOGY), 1);
    assert_eq!(gs.get(bits::MAX_OUTPUT_VERTICES), 1);
    for a in [addr::PRIMITIVE_ID, addr::LAYER, addr::generic(1, 3)] {
        assert!(gs.bit(Sph::output_map_bit(a).unwrap()), "{a:#x} in the map");
    }
    // Per-vertex outputs are the mesh header's, not the geometry header's.
    assert!(!gs.bit(Sph::output_map_bit(addr::POSITION).unwrap()));
    let mesh_sph = Sph(m.binary.sph.unwrap());
    assert!(mesh_sph.bit(Sph::output_map_bit(addr::POSITION).unwrap()));
    assert!(!mesh_sph.bit(Sph::output_map_bit(addr::PRIMITIVE_ID).unwrap()));
    // Shaders without per-primitive outputs have none.
    assert!(
        common::compile("triangle.mesh", Arch::Sm86)
            .binary
            .gs_sph
            .is_none()
    );
}

#[test]
fn viewport_index_per_primitive() {
    for arch in [Arch::Sm75, Arch::Sm86] {
        let m = common::compile("d_viewport.mesh", arch);
        let d = spvsass::Draw::new(None, &m.binary, [2, 1, 1])
            .run()
            .map(|r| r.draw)
            .expect("runs");
        for (g, wg) in d.workgroups.iter().enumerate() {
            for (i, prim) in wg.primitives.iter().enumerate() {
                assert_eq!(prim.viewport_index, Some(i as i32));
                assert_eq!(prim.cull, None);
                assert_eq!(
                    wg.vertices[i].position,
                    Some([i as f32, g as f32, 0.0, 1.0])
                );
            }
        }
        assert_eq!(d.statistics.mesh_invocations, 8);
    }
}

#[test]
fn primitives_never_culled_stay_visible_in_a_narrow_workgroup() {
    let m = common::compile("d_cull_narrow.mesh", Arch::Sm86);
    let d = spvsass::Draw::new(None, &m.binary, [1, 1, 1])
        .run()
        .map(|r| r.draw)
        .expect("runs");
    let culled: Vec<Option<bool>> = d.workgroups[0].primitives.iter().map(|p| p.cull).collect();
    let mut expected = vec![Some(false); 8];
    expected[1] = Some(true);
    assert_eq!(culled, expected);
    assert_eq!(d.statistics.mesh_primitives_generated, 8);
}

/// CullPrimitiveEXT and ViewportIndex on the same primitives, stored in
/// either order (d_cull_viewport.mesh): each primitive keeps its cull flag
/// and its viewport.
#[test]
fn cull_and_viewport_index_together() {
    for arch in [Arch::Sm75, Arch::Sm86] {
        let m = common::compile("d_cull_viewport.mesh", arch);
        let d = spvsass::Draw::new(None, &m.binary, [1, 1, 1])
            .run()
            .map(|r| r.draw)
            .expect("runs");
        let prims = &d.workgroups[0].primitives;
        assert_eq!(prims.len(), 32);
        for (i, p) in prims.iter().enumerate() {
            assert_eq!(p.cull, Some(i % 3 == 1), "{arch}: primitive {i} culled");
            assert_eq!(
                p.viewport_index,
                Some((i % 4) as i32),
                "{arch}: primitive {i}"
            );
        }
    }
}
