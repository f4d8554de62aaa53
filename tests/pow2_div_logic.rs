//! Unsigned division and remainder by powers of two (a shift and a mask)
//! and && / || on booleans, checked lane by lane in the simulator against
//! the GLSL of tests/data/pow2_div_logic.mesh.glsl, on both targets.

use spvsass::backend::target::Arch;

fn check(arch: Arch) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/pow2_div_logic.mesh.spv"
    );
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let words = spvsass::frontend::words_from_bytes(&bytes).unwrap_or_else(|e| panic!("{e}"));
    let options = spvsass::Options {
        arch: Some(arch),
        ..Default::default()
    };
    let compiled = spvsass::compile(&words, &options).unwrap_or_else(|e| panic!("{e}"));
    let draw = spvsass::Draw::new(None, &compiled.binary, [1, 1, 1])
        .run()
        .map(|r| r.draw)
        .unwrap_or_else(|e| panic!("{e}"));
    let wg = &draw.workgroups[0];
    assert_eq!(wg.vertices.len(), 32);
    for (i, v) in wg.vertices.iter().enumerate() {
        let i = i as u32;
        let flag = |b: bool| Some(if b { 1.0 } else { 0.0 });
        let expect = [
            Some((i / 4) as f32),
            Some((i % 8) as f32),
            flag(!(3..=28).contains(&i)),
            flag(i % 2 == 1 && i <= 28),
        ];
        assert_eq!(v.generic.get(&0), Some(&expect), "invocation {i}");
    }
}

#[test]
fn sm75() {
    check(Arch::Sm75);
}

#[test]
fn sm86() {
    check(Arch::Sm86);
}
