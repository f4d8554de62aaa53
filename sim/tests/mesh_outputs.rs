//! Reading mesh outputs back: indices through the MAP region's reverse
//! writes, per-vertex and per-primitive attributes by meaning, the
//! workgroup index from the input ISBE, shared memory in the ATTR region.

use crate::common;

use common::*;
use spvsass_isa::binary::{MeshState, MeshTopology};
use spvsass_isa::isa::{FloatArith, IntCmp, IsbeAccess, IsbeSize, SpecialReg};
use spvsass_sim::{Attributes, SimOptions, run_mesh};
use std::collections::BTreeMap;

/// Two triangles from 4 lanes. Per vertex: position and generic 0 .xy
/// (ranks 0..5, lines 0x000..0x280, 0x300 bytes). Per primitive, after
/// them: PRIMITIVE_ID (0x300), generic 1 .x (0x380), VIEWPORT_MASK (0x400).
fn triangles() -> (Vec<spvsass_isa::isa::Instr>, MeshState) {
    let program = vec![
        s2r(0, SpecialReg::LaneId),
        isetp(0, IntCmp::Eq, reg(0), RZ),
        // Lane 0: count 2; indices (0, 1, 2) and (2, 1, 0). One 32-bit MAP
        // write ending at 0x7 fills bytes 0x4..=0x7, a 16-bit one ending
        // at 0x9 fills 0x8..=0x9.
        guarded(p(0), mov(1, imm(2))),
        guarded(
            p(0),
            isbewr(IsbeAccess::Map, IsbeSize::B32, false, RZ, 0x3, reg(1)),
        ),
        guarded(p(0), mov(1, imm(0x0202_0100))),
        guarded(
            p(0),
            isbewr(IsbeAccess::Map, IsbeSize::B32, false, RZ, 0x7, reg(1)),
        ),
        guarded(p(0), mov(1, imm(0x0001))),
        guarded(
            p(0),
            isbewr(IsbeAccess::Map, IsbeSize::U16, false, RZ, 0x9, reg(1)),
        ),
        // Vertex = lane: position (lane, 0.5, 0, 1), generic 0 = (lane + 10, lane * 0.5).
        i2f(2, reg(0)),
        attr_out(0x000, reg(2)),
        mov(3, imm(f(0.5))),
        attr_out(0x080, reg(3)),
        attr_out(0x100, RZ),
        mov(3, imm(f(1.0))),
        attr_out(0x180, reg(3)),
        farith(FloatArith::Add, 4, reg(2), imm(f(10.0))),
        attr_out(0x200, reg(4)),
        farith(FloatArith::Mul, 4, reg(2), imm(f(0.5))),
        attr_out(0x280, reg(4)),
        // Primitive = lane: id = lane, generic 1 .x = lane + 100, mask = lane 0 only.
        attr_out(0x300, reg(0)),
        farith(FloatArith::Add, 5, reg(2), imm(f(100.0))),
        attr_out(0x380, reg(5)),
        sel(6, RZ, imm(1), not_p(0)),
        attr_out(0x400, reg(6)),
        exit(),
    ];
    let mesh = MeshState {
        topology: MeshTopology::Triangles,
        max_vertices: 3,
        max_primitives: 2,
        shared_mem_lines: 0,
        vertex_attrs: vec![0x70, 0x74, 0x78, 0x7c, 0x80, 0x84],
        primitive_attrs: vec![0x60, 0x90, 0x3a0],
        clip_distances: 0,
    };
    (program, mesh)
}

#[test]
fn triangle_indices_through_reverse_map_writes() {
    let (program, mesh) = triangles();
    let draw = run_mesh(
        &mesh_binary(&program, [4, 1, 1], mesh),
        [1, 1, 1],
        &SimOptions::default(),
    )
    .unwrap();
    let wg = &draw.workgroups[0];
    assert_eq!(draw.topology, "triangles");
    assert_eq!(wg.primitive_count, 2);
    assert_eq!(wg.indices, vec![vec![0, 1, 2], vec![2, 1, 0]]);
}

#[test]
fn per_vertex_attributes() {
    let (program, mesh) = triangles();
    let draw = run_mesh(
        &mesh_binary(&program, [4, 1, 1], mesh),
        [1, 1, 1],
        &SimOptions::default(),
    )
    .unwrap();
    let vertices = &draw.workgroups[0].vertices;
    // Lane 3 wrote a fourth vertex, but no primitive uses it.
    assert_eq!(vertices.len(), 3);
    for (v, attrs) in vertices.iter().enumerate() {
        let x = v as f32;
        let expected = Attributes {
            position: Some([x, 0.5, 0.0, 1.0]),
            generic: [(0, [Some(x + 10.0), Some(x * 0.5), None, None])]
                .into_iter()
                .collect(),
            ..Attributes::default()
        };
        assert_eq!(*attrs, expected, "vertex {v}");
    }
}

#[test]
fn per_primitive_attributes() {
    let (program, mesh) = triangles();
    let draw = run_mesh(
        &mesh_binary(&program, [4, 1, 1], mesh),
        [1, 1, 1],
        &SimOptions::default(),
    )
    .unwrap();
    let primitives = &draw.workgroups[0].primitives;
    assert_eq!(primitives.len(), 2);
    for (prim, attrs) in primitives.iter().enumerate() {
        let p = prim as u32;
        let expected = Attributes {
            generic: [(1, [Some(p as f32 + 100.0), None, None, None])]
                .into_iter()
                .collect(),
            // PRIMITIVE_ID and VIEWPORT_MASK read by meaning: mask 0
            // (primitive 1) is a culled primitive.
            primitive_id: Some(p as i32),
            cull: Some(p != 0),
            ..Attributes::default()
        };
        assert_eq!(*attrs, expected, "primitive {prim}");
    }
}

/// A partial position is not presented as a position: its components are
/// kept raw.
#[test]
fn partial_position_stays_raw() {
    let program = vec![
        guarded(p(7), mov(1, imm(1))),
        isbewr(IsbeAccess::Map, IsbeSize::B32, false, RZ, 0x3, reg(1)),
        mov(2, imm(f(3.0))),
        attr_out(0x80, reg(2)),
        exit(),
    ];
    let mesh = mesh_state(MeshTopology::Points, 1, 1, &[0x6c, 0x70]);
    let draw = run_mesh(
        &mesh_binary(&program, [1, 1, 1], mesh),
        [1, 1, 1],
        &SimOptions::default(),
    )
    .unwrap();
    let expected = Attributes {
        point_size: Some(0.0),
        other: BTreeMap::from([(0x70, f(3.0))]),
        ..Attributes::default()
    };
    assert_eq!(draw.workgroups[0].vertices, vec![expected]);
}

/// Each workgroup reads its index (linear, x fastest) from the input ISBE
/// with SKEW and without, and its id from SR_CTAID; the point's position
/// shows them.
#[test]
fn workgroup_index_and_id() {
    let program = vec![
        mov(1, imm(1)),
        isbewr(IsbeAccess::Map, IsbeSize::B32, false, RZ, 0x3, reg(1)),
        isberd(2, false, IsbeAccess::Attr, IsbeSize::B32, true, RZ, 0),
        isberd(3, false, IsbeAccess::Attr, IsbeSize::B32, false, RZ, 0),
        s2r(4, SpecialReg::CtaIdX),
        s2r(5, SpecialReg::CtaIdY),
        i2f(4, reg(4)),
        i2f(5, reg(5)),
        i2f(2, reg(2)),
        i2f(3, reg(3)),
        attr_out(0x000, reg(4)),
        attr_out(0x080, reg(5)),
        attr_out(0x100, reg(2)),
        attr_out(0x180, reg(3)),
        exit(),
    ];
    let mesh = mesh_state(MeshTopology::Points, 1, 1, &[0x70, 0x74, 0x78, 0x7c]);
    let draw = run_mesh(
        &mesh_binary(&program, [1, 1, 1], mesh),
        [2, 3, 1],
        &SimOptions::default(),
    )
    .unwrap();
    assert_eq!(draw.workgroups.len(), 6);
    for (index, wg) in draw.workgroups.iter().enumerate() {
        let [x, y, _] = wg.id;
        assert_eq!(index as u32, x + 2 * y);
        let i = index as f32;
        assert_eq!(
            wg.vertices[0].position,
            Some([x as f32, y as f32, i, i]),
            "workgroup {:?}",
            wg.id
        );
    }
}

/// Shared memory sits after all attributes: lanes store to it with SKEW
/// and read a neighbour's slot back with ISBERD.O.
#[test]
fn shared_memory_round_trip() {
    // Position of 1 vertex: 4 lines (0x200 bytes); shared memory from 0x200.
    let program = vec![
        s2r(0, SpecialReg::LaneId),
        imad(1, reg(0), imm(3), RZ),
        attr_out(0x200, reg(1)),
        // Read slot (lane + 1) % 32 of the shared line.
        iadd3(2, reg(0), imm(1), RZ),
        lop3(
            2,
            reg(2),
            imm(31),
            RZ,
            spvsass_isa::isa::OpLop3::A & spvsass_isa::isa::OpLop3::B,
        ),
        imad(2, reg(2), imm(4), RZ),
        isberd(
            3,
            true,
            IsbeAccess::Attr,
            IsbeSize::B32,
            false,
            reg(2),
            0x200,
        ),
        // Lane 0 emits one point whose position.x is what it read.
        isetp(0, IntCmp::Eq, reg(0), RZ),
        guarded(p(0), mov(4, imm(1))),
        guarded(
            p(0),
            isbewr(IsbeAccess::Map, IsbeSize::B32, false, RZ, 0x3, reg(4)),
        ),
        i2f(3, reg(3)),
        attr_out(0x000, reg(3)),
        exit(),
    ];
    let mut mesh = mesh_state(MeshTopology::Points, 1, 1, &[0x70, 0x74, 0x78, 0x7c]);
    mesh.shared_mem_lines = 1;
    let draw = run_mesh(
        &mesh_binary(&program, [32, 1, 1], mesh),
        [1, 1, 1],
        &SimOptions::default(),
    )
    .unwrap();
    // Lane 0 read lane 1's value, 3.
    assert_eq!(
        draw.workgroups[0].vertices[0].position,
        Some([3.0, 0.0, 0.0, 0.0])
    );
}

/// A workgroup that sets no outputs draws nothing.
#[test]
fn no_primitives_no_vertices() {
    let mesh = mesh_state(MeshTopology::Lines, 4, 2, &[0x70, 0x74, 0x78, 0x7c]);
    let draw = run_mesh(
        &mesh_binary(&[exit()], [1, 1, 1], mesh),
        [1, 1, 1],
        &SimOptions::default(),
    )
    .unwrap();
    let wg = &draw.workgroups[0];
    assert_eq!(
        (wg.primitive_count, wg.indices.len(), wg.vertices.len()),
        (0, 0, 0)
    );
}
