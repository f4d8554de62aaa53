//! Mesh outputs placed by Location and Component (output blocks, matrices,
//! arrays, Component decorations) and the clip and cull distances
//! (from_ir/output_slots.rs), read back value by value from the simulated
//! output ISBE.

use crate::common;

use spvsass::backend::target::Arch;

fn check(arch: Arch) {
    let m = common::compile("d_outputs.mesh", arch);
    let d = spvsass::Draw::new(None, &m.binary, [1, 1, 1])
        .run()
        .map(|r| r.draw)
        .expect("draw runs");
    let wg = &d.workgroups[0];
    assert_eq!(wg.primitive_count, 2);
    for i in 0..2u32 {
        let f = i as f32;
        let v = &wg.vertices[i as usize];
        let g = |loc: u32| v.generic[&loc];
        assert_eq!(v.position, Some([f, 0.0, 0.0, 1.0]));
        assert_eq!(g(0), [Some(1.0), Some(2.0), Some(3.0), Some(f)], "blk.a");
        // blk.b is a uint: its bits read as a float.
        assert_eq!(g(1)[0].map(f32::to_bits), Some(i + 7), "blk.b");
        assert_eq!(g(2), [Some(10.0), Some(11.0), None, None], "blk.c[0]");
        assert_eq!(g(3), [Some(12.0), Some(f), None, None], "blk.c[1]");
        assert_eq!(g(4), [Some(20.0), Some(21.0), Some(22.0), None], "m[0]");
        assert_eq!(g(5), [Some(23.0), Some(24.0), Some(25.0), None], "m[1]");
        assert_eq!(g(6), [Some(26.0), Some(27.0), Some(f), None], "m[2]");
        assert_eq!(g(7), [Some(30.0), None, None, None], "arr[0]");
        assert_eq!(g(8), [Some(31.0 + f), None, None, None], "arr[1]");
        assert_eq!(g(9), [None, None, Some(40.0 + f), None], "z at component 2");
        // Clip 0, clip 1, then cull 0 in the clip/cull words 0x2c0..0x2cc.
        assert_eq!(
            v.clip_distance.get(&0),
            Some(&(f + 0.5)),
            "gl_ClipDistance[0]"
        );
        assert_eq!(v.clip_distance.get(&1), Some(&-f), "gl_ClipDistance[1]");
        assert_eq!(
            v.cull_distance.get(&0),
            Some(&(f - 2.0)),
            "gl_CullDistance[0]"
        );
        assert!(!v.other.keys().any(|a| (0x2c0..0x2e0).contains(a)));
    }
}

#[test]
fn outputs_by_location_and_component_sm86() {
    check(Arch::Sm86);
}

#[test]
fn outputs_by_location_and_component_sm75() {
    check(Arch::Sm75);
}

/// The clip distances are written in a loop (a dynamic index): one ISBE
/// store per element, each under its own predicate.
#[test]
fn a_dynamic_clip_distance_index_stores_under_predicates() {
    let m = common::compile("d_outputs.mesh", Arch::Sm86);
    let listing = spvsass::listing(&m.binary, false).expect("listing");
    let guarded = listing
        .lines()
        .filter(|l| l.contains("@P") && l.contains("ISBEWR.O.ATTR"))
        .count();
    assert!(guarded >= 2, "{listing}");
}

/// Each invocation writes its vertex and primitive and an element of the
/// next vertex, then after a barrier reads invocation j = (7i + 3) mod n's
/// Position, PointSize and user outputs (a dynamic index, ISBERD.O) and
/// its own vertex's element written by invocation i - 1, and vertex j's
/// matrix column, Component-placed vector and clip distance [i & 1], and
/// stores values derived from them.
fn check_readback(name: &str, n: u32, arch: Arch) {
    let m = common::compile(name, arch);
    let d = spvsass::Draw::new(None, &m.binary, [1, 1, 1])
        .run()
        .map(|r| r.draw)
        .expect("draw runs");
    let wg = &d.workgroups[0];
    assert_eq!(wg.primitive_count, n);
    assert_eq!(wg.vertices.len(), n as usize);
    for i in 0..n {
        let j = (i * 7 + 3) % n;
        let (fi, fj) = (i as f32, j as f32);
        let v = &wg.vertices[i as usize];
        assert_eq!(v.position, Some([fi, 2.0 * fi, 0.0, 1.0]), "vertex {i}");
        assert_eq!(v.point_size, Some(1.0 + fi), "vertex {i}");
        assert_eq!(
            v.generic[&0],
            [Some(fi + 0.5), Some(0.0), Some(0.0), Some(100.0 + fi)],
            "colour[{i}]"
        );
        assert_eq!(
            v.generic[&1],
            [
                Some(2.0 * fj + 100.0 + fj),
                Some(1.0 + fj + fj + 0.5),
                None,
                None
            ],
            "derived[{i}] from vertex {j}"
        );
        let before = ((i + n - 1) % n) as f32;
        assert_eq!(v.generic[&5][0], Some(before), "next[{i}][1] (location 5)");
        assert_eq!(v.generic[&6][0], Some(2.0 * before), "prev[{i}]");
        assert_eq!(
            v.generic[&9],
            [None, None, Some(3.0 * fi), Some(3.0 * fi + 1.0)],
            "zw[{i}] at component 2"
        );
        let clip = if i % 2 == 0 { fj } else { -fj };
        assert_eq!(
            v.generic[&10],
            [Some(fj + 2.0), Some(3.0 * fj + 1.0), Some(clip), None],
            "mixed[{i}]: m[{j}][1].x, zw[{j}].y, clip distance {} of vertex {j}",
            i % 2
        );
        let p = &wg.primitives[i as usize];
        assert_eq!(
            p.generic[&2][0].map(f32::to_bits),
            Some(1000 + i),
            "tag[{i}]"
        );
        assert_eq!(
            p.generic[&3][0].map(f32::to_bits),
            Some(2000 + i + j),
            "seen[{i}] from primitive {j}"
        );
    }
}

#[test]
fn outputs_read_back_by_another_invocation_sm86() {
    check_readback("output_readback.mesh", 32, Arch::Sm86);
}

#[test]
fn outputs_read_back_by_another_invocation_sm75() {
    check_readback("output_readback.mesh", 32, Arch::Sm75);
}

/// Three logical subgroups: SKEW blocks 0..2, computed offsets of other
/// subgroups' vertices, and glslang's local variable `p` (local memory),
/// which each logical subgroup needs its own copy of.
#[test]
fn outputs_read_back_across_96_invocations() {
    check_readback("output_readback_wide.mesh", 96, Arch::Sm86);
}

/// Attributes are read from the output ATTR region (32-bit words),
/// primitive indices from the MAP region (bytes: no suffix).
#[test]
fn output_reads_use_isberd_of_the_output_isbe() {
    let m = common::compile("output_readback.mesh", Arch::Sm86);
    let listing = spvsass::listing(&m.binary, false).expect("listing");
    assert!(listing.contains("ISBERD.O.ATTR.32 "), "{listing}");
    let m = common::compile("output_readback_prims.mesh", Arch::Sm86);
    let listing = spvsass::listing(&m.binary, false).expect("listing");
    assert!(listing.contains("ISBERD.O R"), "{listing}");
}

/// Triangle i's indices are (i, i + 1, i + 7) mod 32, culled when 3 | i;
/// after a barrier invocation i reads triangle j = (5i + 1) mod 32's
/// indices (whole and one component) and cull flag, and its own third
/// index, into triangle i's `seen`.
fn check_index_readback(arch: Arch) {
    let m = common::compile("output_readback_prims.mesh", arch);
    let d = spvsass::Draw::new(None, &m.binary, [1, 1, 1])
        .run()
        .map(|r| r.draw)
        .expect("draw runs");
    let wg = &d.workgroups[0];
    assert_eq!(wg.primitive_count, 32);
    let tri = |p: u32| [p, (p + 1) % 32, (p + 7) % 32];
    for i in 0..32u32 {
        let j = (5 * i + 1) % 32;
        assert_eq!(wg.indices[i as usize], tri(i), "triangle {i}");
        let p = &wg.primitives[i as usize];
        assert_eq!(p.cull, Some(i % 3 == 0), "cull flag of triangle {i}");
        let [x, y, z] = tri(j);
        let seen: Vec<Option<u32>> = p.generic[&0].iter().map(|c| c.map(f32::to_bits)).collect();
        assert_eq!(
            seen,
            [
                Some(x * 10000 + y * 100 + z),
                Some(y),
                Some(u32::from(j % 3 == 0)),
                Some(tri(i)[2])
            ],
            "seen[{i}] from triangle {j}"
        );
    }
}

#[test]
fn primitive_indices_and_cull_flags_read_back_sm86() {
    check_index_readback(Arch::Sm86);
}

#[test]
fn primitive_indices_and_cull_flags_read_back_sm75() {
    check_index_readback(Arch::Sm75);
}

/// output_dynamic_index.mesh: stores and loads of user outputs under a
/// dynamic array, column or component index (k = i % 3), per vertex and
/// per primitive, read back from vertex and primitive j = (i + 5) % 32.
fn check_dynamic_index(arch: Arch) {
    let m = common::compile("output_dynamic_index.mesh", arch);
    let d = spvsass::Draw::new(None, &m.binary, [1, 1, 1])
        .run()
        .map(|r| r.draw)
        .expect("draw runs");
    let wg = &d.workgroups[0];
    assert_eq!(wg.primitive_count, 32);
    for i in 0..32u32 {
        let (k, fi) = (i % 3, i as f32);
        let v = &wg.vertices[i as usize];
        for a in 0..3 {
            let arr = if a == k { 10.0 + fi } else { 0.0 };
            assert_eq!(v.generic[&a][0], Some(arr), "arr[{i}][{a}]");
            let col = if a == k {
                [fi, k as f32, 1.0]
            } else {
                [0.0; 3]
            };
            assert_eq!(
                v.generic[&(3 + a)],
                [Some(col[0]), Some(col[1]), Some(col[2]), None],
                "m[{i}][{a}]"
            );
        }
        let mut vec = [Some(1.0), Some(2.0), Some(3.0), Some(4.0)];
        vec[k as usize] = Some(100.0 + fi);
        assert_eq!(v.generic[&6], vec, "v[{i}]");
        let p = &wg.primitives[i as usize];
        let bits = |loc: u32| p.generic[&loc][0].map(f32::to_bits);
        let (mine, other) = if i % 2 == 0 { (7, 8) } else { (8, 7) };
        assert_eq!(
            (bits(mine), bits(other)),
            (Some(7 + i), Some(0)),
            "parr[{i}]"
        );
        let j = (i + 5) % 32;
        let (kj, fj) = (j % 3, j as f32);
        assert_eq!(
            v.generic[&9],
            [Some(10.0 + fj), Some(fj), Some(kj as f32), Some(100.0 + fj)],
            "got[{i}] from vertex {j}, element {kj}"
        );
        assert_eq!(bits(10), Some(7 + j), "pgot[{i}] from primitive {j}");
    }
}

#[test]
fn dynamic_indices_into_user_outputs_sm86() {
    check_dynamic_index(Arch::Sm86);
}

#[test]
fn dynamic_indices_into_user_outputs_sm75() {
    check_dynamic_index(Arch::Sm75);
}

/// Two dynamic indices into one user output are refused, naming the store.
#[test]
fn two_dynamic_indices_into_a_user_output_are_refused() {
    use spvsass::backend::error::BackendError;
    let words = common::shader_words("d_output_two_dynamic.mesh");
    match spvsass::compile(&words, &spvsass::Options::default()) {
        Err(spvsass::Error::Backend(BackendError::Unsupported {
            what,
            opcode,
            spirv_id,
        })) => {
            assert_eq!(
                what,
                "more than one dynamic array, column or component index into a user output"
            );
            assert_eq!((opcode.as_str(), spirv_id), ("OpStore", Some(49)));
        }
        other => panic!("expected an unsupported-store error, got {other:?}"),
    }
}
