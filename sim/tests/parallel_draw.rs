//! Workgroups run in parallel, and the draw must not depend on it: the
//! same multi-workgroup draw on 1 and on 4 threads gives the same JSON
//! bytes, and an error is the one of the first failing workgroup in
//! launch order.

use crate::common;

use common::*;
use spvsass_isa::binary::{Binary, MeshTopology};
use spvsass_isa::isa::{IsbeAccess, IsbeSize, SpecialReg};
use spvsass_sim::{SimError, SimOptions, run_mesh};

/// One point per workgroup (32 lanes) at (ctaid.x, ctaid.y, index,
/// ctaid.z): any mix-up of workgroups shows in the output.
fn points() -> Binary {
    let program = vec![
        mov(1, imm(1)),
        isbewr(IsbeAccess::Map, IsbeSize::B32, false, RZ, 0x3, reg(1)),
        isberd(2, false, IsbeAccess::Attr, IsbeSize::B32, true, RZ, 0),
        s2r(4, SpecialReg::CtaIdX),
        s2r(5, SpecialReg::CtaIdY),
        s2r(6, SpecialReg::CtaIdZ),
        i2f(7, reg(4)),
        i2f(8, reg(5)),
        i2f(2, reg(2)),
        i2f(6, reg(6)),
        attr_out(0x000, reg(7)),
        attr_out(0x080, reg(8)),
        attr_out(0x100, reg(2)),
        attr_out(0x180, reg(6)),
        exit(),
    ];
    let mesh = mesh_state(MeshTopology::Points, 1, 1, &[0x70, 0x74, 0x78, 0x7c]);
    mesh_binary(&program, [32, 1, 1], mesh)
}

fn on_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool")
        .install(f)
}

fn draw_json(threads: usize) -> String {
    let binary = points();
    let draw = on_threads(threads, || {
        run_mesh(&binary, [5, 4, 3], &SimOptions::default()).expect("runs")
    });
    assert_eq!(draw.workgroups.len(), 60);
    serde_json::to_string(&draw).expect("serialises")
}

#[test]
fn mesh_draw_same_bytes_on_1_and_4_threads() {
    let one = draw_json(1);
    assert!(one.contains("\"position\":[4.0,3.0,59.0,2.0]"), "{one}");
    assert_eq!(one, draw_json(4));
}

/// Every workgroup runs past a step limit of 3: the error names the first
/// workgroup, (0, 0, 0), whatever the thread count.
#[test]
fn first_error_in_launch_order_on_4_threads() {
    let binary = points();
    let options = SimOptions {
        max_steps: 3,
        ..SimOptions::default()
    };
    let err = on_threads(4, || run_mesh(&binary, [5, 4, 3], &options)).unwrap_err();
    let SimError::InWorkgroup { workgroup, .. } = err else {
        panic!("{err}");
    };
    assert_eq!(workgroup, [0, 0, 0]);
}
