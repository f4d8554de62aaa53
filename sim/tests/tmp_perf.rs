mod common;
use common::*;
use spvsass_sim::*;
#[test]
fn perf() {
    let program = vec![s2r(0, spvsass_backend::isa::SpecialReg::LaneId), iadd3(1, reg(1), reg(0), RZ), bra(0x10)];
    let t = std::time::Instant::now();
    let e = try_run_lanes(&program, [32,1,1], 1, &SimOptions::default()).unwrap_err();
    eprintln!("{e} in {:?}", t.elapsed());
}
