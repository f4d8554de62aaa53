//! The encoded program decodes back to exactly what the compiler emitted,
//! and the binary container survives writing and reading.

use crate::common;

use spvsass::backend::binary::Binary;
use spvsass::backend::program;
use spvsass::backend::target::Arch;

fn check(name: &str, arch: Arch) {
    let compiled = common::compile(name, arch);
    let decoded = program::decode(&compiled.binary.code, compiled.binary.arch).expect("decodes");
    assert_eq!(
        decoded, compiled.instrs,
        "decode(encode(x)) != x for {name} on {arch}"
    );
    assert_eq!(
        program::listing(&decoded, true),
        program::listing(&compiled.instrs, true)
    );
    let bytes = compiled.binary.to_bytes();
    let back = Binary::from_bytes(&bytes).expect("container reads back");
    assert_eq!(back, compiled.binary);
}

#[test]
fn point_sm75() {
    check("point.mesh", Arch::Sm75);
}

#[test]
fn point_sm86() {
    check("point.mesh", Arch::Sm86);
}

#[test]
fn triangle_sm75() {
    check("triangle.mesh", Arch::Sm75);
}

#[test]
fn triangle_sm86() {
    check("triangle.mesh", Arch::Sm86);
}

#[test]
fn truncated_or_corrupt_binaries_are_errors() {
    let bytes = common::compile("point.mesh", Arch::Sm86).binary.to_bytes();
    for cut in [0, 7, 12, bytes.len() / 2, bytes.len() - 1] {
        assert!(
            Binary::from_bytes(&bytes[..cut]).is_err(),
            "a binary cut at {cut} bytes was accepted"
        );
    }
    let mut extra = bytes.clone();
    extra.push(0);
    assert!(Binary::from_bytes(&extra).is_err());
    let mut bad_version = bytes.clone();
    bad_version[8] = 99;
    assert!(
        Binary::from_bytes(&bad_version)
            .unwrap_err()
            .to_string()
            .contains("version 99")
    );
}

#[test]
fn corrupt_code_is_a_decode_error_with_its_address() {
    let mut binary = common::compile("point.mesh", Arch::Sm86).binary;
    // Instruction 2 gets an opcode no op has.
    binary.code[8] = (binary.code[8] & !0xfff) | 0xfff;
    let err = spvsass::listing(&binary, false).unwrap_err().to_string();
    assert!(
        err.contains("0x0020") && err.contains("unknown opcode"),
        "{err}"
    );
}

/// The bar from the XDC slides: compiled without the statistics counting
/// (`--statistics off`), which NVK's listing did not have, the point
/// shader fits in the instruction counts of that listing (18 on sm75) and
/// of immediate ISBE offsets (12 on sm86), with the ISBE writes the
/// hardware expects.
#[test]
fn point_shader_meets_the_xdc_bar() {
    for (arch, limit) in [(Arch::Sm75, 18), (Arch::Sm86, 12)] {
        let options = spvsass::Options {
            arch: Some(arch),
            no_statistics: true,
            ..Default::default()
        };
        let compiled = spvsass::compile(&common::shader_words("point.mesh"), &options)
            .expect("point.mesh compiles");
        let text = program::listing(&compiled.instrs, false);
        assert!(
            compiled.instrs.len() <= limit,
            "{arch}: {} instructions\n{text}",
            compiled.instrs.len()
        );
        assert!(text.contains("ISBEWR.O.32 ["), "{text}");
        assert!(text.contains("ISBEWR.O.ATTR.SKEW.32"), "{text}");
        assert!(!text.contains("RED"), "{text}");
        assert!(
            text.contains("ISBEWR.O ["),
            "8-bit index write missing\n{text}"
        );
        assert!(text.trim_end().ends_with("EXIT ;"), "{text}");
    }
    // On sm86 the offsets are immediates: the count write goes to [0x3]
    // and the index to [0x4].
    let text = program::listing(&common::compile("point.mesh", Arch::Sm86).instrs, false);
    assert!(
        text.contains("ISBEWR.O.32 [0x3]") && text.contains("ISBEWR.O [0x4], RZ"),
        "{text}"
    );
}

/// By default the point shader counts its invocations and primitives: one
/// RED.E.ADD.64 each, at most 8 instructions in all (the test of the query
/// address and the branch over the counting, two MOVs of the query
/// address, two of the 64-bit constant 1 and the two REDs).
#[test]
fn point_shader_counts_statistics_by_default() {
    const STATISTICS: usize = 8;
    for (arch, limit) in [(Arch::Sm75, 18 + STATISTICS), (Arch::Sm86, 12 + STATISTICS)] {
        let compiled = common::compile("point.mesh", arch);
        let text = program::listing(&compiled.instrs, false);
        assert!(compiled.instrs.len() <= limit, "{arch}\n{text}");
        assert_eq!(text.matches("RED.E.ADD").count(), 2, "{text}");
    }
}

#[test]
fn d_payload_task_sm75() {
    check("d_payload.task", Arch::Sm75);
}

#[test]
fn d_payload_mesh_sm86() {
    check("d_payload.mesh", Arch::Sm86);
}

#[test]
fn d_prims_mesh_sm86() {
    check("d_prims.mesh", Arch::Sm86);
}
