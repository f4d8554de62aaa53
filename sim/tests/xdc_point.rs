//! The point mesh shader of the XDC 2024 slides, written by hand: one point
//! at (0, 0, 0, 1) of size 200.

use crate::common;

use common::*;
use spvsass_isa::binary::MeshTopology;
use spvsass_isa::isa::{Instr, IntCmp, IsbeAccess, IsbeSize, SpecialReg};
use spvsass_sim::{Attributes, SimOptions, run_mesh};
use std::collections::BTreeMap;

/// PointSize and Position xyzw: one 128-byte line each (SKEW layout).
const VERTEX_ATTRS: [u16; 5] = [0x6c, 0x70, 0x74, 0x78, 0x7c];

fn point_mesh() -> spvsass_isa::binary::MeshState {
    mesh_state(MeshTopology::Points, 1, 1, &VERTEX_ATTRS)
}

/// The slides' listing with SM86 immediate offsets.
fn xdc_program() -> Vec<Instr> {
    vec![
        s2r(0, SpecialReg::LaneId),
        isetp(0, IntCmp::Ne, reg(0), RZ),
        guarded(not_p(0), mov(5, imm(1))),
        guarded(
            not_p(0),
            isbewr(IsbeAccess::Map, IsbeSize::B32, false, RZ, 0x3, reg(5)),
        ),
        mov(7, imm(0x4348_0000)),
        attr_out(0x0, reg(7)),
        attr_out(0x80, RZ),
        attr_out(0x100, RZ),
        attr_out(0x180, RZ),
        mov(9, imm(0x3f80_0000)),
        attr_out(0x200, reg(9)),
        isbewr(IsbeAccess::Map, IsbeSize::U8, false, RZ, 0x4, RZ),
        exit(),
    ]
}

fn the_point() -> Attributes {
    Attributes {
        position: Some([0.0, 0.0, 0.0, 1.0]),
        point_size: Some(200.0),
        ..Attributes::default()
    }
}

#[test]
fn xdc_point_outputs() {
    let binary = mesh_binary(&xdc_program(), [1, 1, 1], point_mesh());
    let draw = run_mesh(&binary, [1, 1, 1], &SimOptions::default()).unwrap();
    assert_eq!(draw.topology, "points");
    assert_eq!(draw.workgroups.len(), 1);
    let wg = &draw.workgroups[0];
    assert_eq!(wg.id, [0, 0, 0]);
    assert_eq!(wg.primitive_count, 1);
    assert_eq!(wg.indices, vec![vec![0]]);
    assert_eq!(wg.vertices, vec![the_point()]);
    assert!(wg.primitives.is_empty());
}

#[test]
fn xdc_point_counters() {
    let binary = mesh_binary(&xdc_program(), [1, 1, 1], point_mesh());
    let draw = run_mesh(&binary, [1, 1, 1], &SimOptions::default()).unwrap();
    assert_eq!(draw.counters.warp_instructions, 13);
    assert_eq!(draw.counters.thread_instructions, 13);
    let expected: BTreeMap<&str, u64> = [
        ("S2R", 1),
        ("ISETP", 1),
        ("MOV", 3),
        ("ISBEWR", 7),
        ("EXIT", 1),
    ]
    .into_iter()
    .collect();
    assert_eq!(draw.counters.per_op, expected);
}

/// The slides' original SM75 form: every offset in a register.
#[test]
fn xdc_point_register_offsets() {
    let program = vec![
        s2r(0, SpecialReg::LaneId),
        isetp(0, IntCmp::Ne, reg(0), RZ),
        guarded(not_p(0), mov(5, imm(1))),
        guarded(
            not_p(0),
            isbewr(IsbeAccess::Map, IsbeSize::B32, false, RZ, 0x3, reg(5)),
        ),
        mov(0, imm(0)),
        mov(7, imm(0x4348_0000)),
        isbewr(IsbeAccess::Attr, IsbeSize::B32, true, reg(0), 0, reg(7)),
        mov(1, imm(0x80)),
        isbewr(IsbeAccess::Attr, IsbeSize::B32, true, reg(1), 0, RZ),
        mov(2, imm(0x100)),
        isbewr(IsbeAccess::Attr, IsbeSize::B32, true, reg(2), 0, RZ),
        mov(3, imm(0x180)),
        isbewr(IsbeAccess::Attr, IsbeSize::B32, true, reg(3), 0, RZ),
        mov(4, imm(0x200)),
        mov(9, imm(0x3f80_0000)),
        isbewr(IsbeAccess::Attr, IsbeSize::B32, true, reg(4), 0, reg(9)),
        isbewr(IsbeAccess::Map, IsbeSize::U8, false, RZ, 0x4, RZ),
        exit(),
    ];
    let binary = mesh_binary(&program, [1, 1, 1], point_mesh());
    let draw = run_mesh(&binary, [1, 1, 1], &SimOptions::default()).unwrap();
    let wg = &draw.workgroups[0];
    assert_eq!(wg.primitive_count, 1);
    assert_eq!(wg.indices, vec![vec![0]]);
    assert_eq!(wg.vertices, vec![the_point()]);
}

/// Every workgroup of a grid runs the program and emits its own point.
#[test]
fn xdc_point_grid() {
    let binary = mesh_binary(&xdc_program(), [1, 1, 1], point_mesh());
    let draw = run_mesh(&binary, [3, 2, 1], &SimOptions::default()).unwrap();
    let ids: Vec<[u32; 3]> = draw.workgroups.iter().map(|w| w.id).collect();
    assert_eq!(
        ids,
        vec![
            [0, 0, 0],
            [1, 0, 0],
            [2, 0, 0],
            [0, 1, 0],
            [1, 1, 0],
            [2, 1, 0]
        ]
    );
    assert!(
        draw.workgroups
            .iter()
            .all(|w| w.vertices == vec![the_point()])
    );
    assert_eq!(draw.counters.warp_instructions, 6 * 13);
}
