//! Subgroup operations (backend/src/from_ir/subgroup_ops.rs,
//! subgroup_scan.rs) dispatched in the simulator, every result checked
//! against a CPU model of the subgroup: full warps (REDUX and the SHFL
//! ladders), divergent lanes and a partial last warp (the loop over the
//! executing lanes), on sm86 (with REDUX) and sm75 (without).

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::sim::ComputeInputs;
use std::collections::BTreeMap;

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn noise(n: usize, seed: u32) -> Vec<u32> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            x
        })
        .collect()
}

fn dispatch(
    name: &str,
    arch: Arch,
    groups: u32,
    buffers: &[(u32, Vec<u32>)],
) -> BTreeMap<u32, Vec<u32>> {
    let compiled = common::compile(name, arch);
    let inputs = ComputeInputs {
        buffers: buffers.iter().map(|(b, w)| (*b, bytes_of(w))).collect(),
        ..Default::default()
    };
    let run = spvsass::Dispatch::new(&compiled.binary, [groups, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{name} on {arch}: {e}"));
    run.buffers
        .iter()
        .map(|(b, bytes)| (*b, words_of(bytes)))
        .collect()
}

/// `f` folded over `xs` from `init`.
fn fold<T: Copy>(xs: &[T], init: T, f: impl Fn(T, T) -> T) -> T {
    xs.iter().fold(init, |a, &b| f(a, b))
}

/// subgroup_scans.comp on full warps (2 workgroups of 64).
fn scans(arch: Arch) {
    let n = 128;
    let ints: Vec<u32> = noise(n, 3);
    let uints: Vec<u32> = noise(n, 4).iter().map(|x| x | 1 << (x % 32)).collect();
    // Powers of two and small halves: every sum and product is exact,
    // whatever the order of combination.
    let floats: Vec<f32> = noise(n, 5)
        .iter()
        .map(|x| [0.5f32, -0.5, 1.0, -1.0, 2.0, -2.0][(x >> 8) as usize % 6])
        .collect();
    let out = dispatch(
        "subgroup_scans.comp",
        arch,
        2,
        &[
            (0, ints.clone()),
            (1, uints.clone()),
            (2, floats.iter().map(|f| f.to_bits()).collect()),
        ],
    );
    for w in 0..n / 32 {
        let lanes = w * 32..(w + 1) * 32;
        let a: Vec<i32> = ints[lanes.clone()].iter().map(|&x| x as i32).collect();
        let u = &uints[lanes.clone()];
        let f = &floats[lanes.clone()];
        let add = |a: i32, b: i32| a.wrapping_add(b);
        let mul = |a: i32, b: i32| a.wrapping_mul(b);
        for l in 0..32 {
            let i = w * 32 + l;
            let want_int = [
                fold(&a, 0, add),
                fold(&a[..=l], 0, add),
                fold(&a[..l], 0, add),
                fold(&a, 1, mul),
                fold(&a, i32::MAX, i32::min),
                fold(&a, i32::MIN, i32::max),
                fold(&a[..=l], i32::MAX, i32::min),
                fold(&a[..l], i32::MIN, i32::max),
            ]
            .into_iter()
            .fold(0i32, add);
            assert_eq!(out[&0][i] as i32, want_int, "ints[{i}] on {arch}");
            let mut want_uint = fold(u, u32::MAX, |a, b| a & b)
                ^ fold(u, 0, |a, b| a | b)
                ^ fold(u, 0, |a, b| a ^ b)
                ^ fold(u, u32::MAX, u32::min)
                ^ fold(u, 0, u32::max)
                ^ fold(&u[..=l], 0, |a, b| a | b)
                ^ fold(&u[..l], 0, |a, b| a ^ b)
                ^ fold(&u[..=l], 1, u32::wrapping_mul);
            let odd: Vec<bool> = u.iter().map(|x| x & 1 != 0).collect();
            let all = odd.iter().all(|&b| b);
            let any = odd.iter().any(|&b| b);
            let parity = odd.iter().filter(|&&b| b).count() % 2 == 1;
            if all || any != parity {
                want_uint = want_uint.wrapping_add(1);
            }
            assert_eq!(out[&1][i], want_uint, "uints[{i}] on {arch}");
            let want_float = fold(f, 0.0, |a, b| a + b)
                + fold(f, 1.0, |a, b| a * b)
                + fold(f, f32::INFINITY, f32::min)
                + fold(f, f32::NEG_INFINITY, f32::max)
                + fold(&f[..=l], 0.0, |a, b| a + b)
                + fold(&f[..l], 1.0, |a, b| a * b);
            assert_eq!(
                f32::from_bits(out[&2][i]),
                want_float,
                "floats[{i}] on {arch}"
            );
        }
    }
}

/// c_subgroup_divergent.comp: 2 workgroups of 48 (warps of 32 and 16
/// lanes), the lanes split by `v % 3 != 0`.
fn divergent(arch: Arch) {
    let n = 96;
    let vals: Vec<u32> = noise(n, 9).iter().map(|x| x >> 22).collect();
    let out = dispatch(
        "c_subgroup_divergent.comp",
        arch,
        2,
        &[(0, vals.clone()), (1, vec![0xdead_beef; n * 16])],
    );
    let out = &out[&1];
    // Warps: per workgroup, invocations 0..32 and 32..48.
    let warps: Vec<(usize, usize)> = (0..2)
        .flat_map(|g| [(g * 48, 32), (g * 48 + 32, 16)])
        .collect();
    for (start, len) in warps {
        for taken in [true, false] {
            let active: Vec<usize> = (0..len)
                .filter(|&l| vals[start + l].is_multiple_of(3) != taken)
                .collect();
            let v = |l: usize| vals[start + l];
            let vs: Vec<u32> = active.iter().map(|&l| v(l)).collect();
            let ballot = |p: &dyn Fn(u32) -> bool| {
                active
                    .iter()
                    .filter(|&&l| p(v(l)))
                    .fold(0u32, |m, &l| m | 1 << l)
            };
            for &l in &active {
                let below: Vec<u32> = active.iter().filter(|&&j| j < l).map(|&j| v(j)).collect();
                let upto: Vec<u32> = active.iter().filter(|&&j| j <= l).map(|&j| v(j)).collect();
                let cluster = |c: usize| -> Vec<u32> {
                    active
                        .iter()
                        .filter(|&&j| j / c == l / c)
                        .map(|&j| v(j))
                        .collect()
                };
                let got = &out[(start + l) * 16..(start + l + 1) * 16];
                let what = format!("invocation {} on {arch}", start + l);
                if !taken {
                    assert_eq!(got[0], fold(&vs, 0, |a, b| a | b), "or, {what}");
                    assert_eq!(got[1], fold(&upto, 0, |a, b| a ^ b), "xor scan, {what}");
                    assert_eq!(got[2..], [0xdead_beef; 14], "{what}");
                    continue;
                }
                let odd = ballot(&|x| x & 1 == 1);
                let want = [
                    fold(&vs, 0, u32::wrapping_add),
                    fold(&upto, 0, u32::wrapping_add),
                    fold(&below, 0, u32::wrapping_add),
                    fold(&vs, 0, u32::max),
                    fold(&upto, 1, u32::wrapping_mul),
                    fold(&cluster(4), 0, u32::wrapping_add),
                    fold(&cluster(8), u32::MAX, u32::min),
                    vs[0],
                    ballot(&|_| true),
                    u32::from(l == active[0]),
                    u32::from(vs.iter().all(|&x| x > 5)),
                    u32::from(vs.contains(&7)),
                    below.iter().fold(0.0f32, |a, &x| a + x as f32).to_bits(),
                    u32::from(vs.iter().all(|&x| x & 1 == vs[0] & 1)),
                    fold(&below, 0, u32::max),
                    (odd & ((1u32 << l) - 1)).count_ones(),
                ];
                assert_eq!(got, want, "{what}");
            }
        }
    }
}

/// subgroup_vote_shuffle.comp: 2 workgroups of 32, the first with every
/// value 7 (votes true), the second with varied values.
#[test]
fn votes_broadcasts_shuffles_and_ballots_on_a_full_warp() {
    let mut data = vec![7u32; 32];
    data.extend(noise(32, 11).iter().map(|x| (x >> 24) % 9));
    let out = dispatch(
        "subgroup_vote_shuffle.comp",
        Arch::Sm86,
        2,
        &[(0, data.clone()), (1, vec![0; 64 * 4])],
    );
    for w in 0..2 {
        let v = &data[w * 32..(w + 1) * 32];
        let ballot = v
            .iter()
            .enumerate()
            .filter(|(_, x)| *x & 1 == 1)
            .fold(0u32, |m, (l, _)| m | 1 << l);
        for i in 0..32usize {
            let mut r = 0u32;
            if v.iter().all(|&x| x > 0) {
                r |= 1;
            }
            if v.contains(&7) {
                r |= 2;
            }
            if v.iter().all(|&x| x == v[0]) {
                r |= 4;
            }
            // Out-of-range shuffles up/down read the lane's own value
            // (SHFL's rule; undefined in SPIR-V).
            let up = if i >= 1 { v[i - 1] } else { v[i] };
            let down = if i + 2 < 32 { v[i + 2] } else { v[i] };
            r = r
                .wrapping_add(v[3] + v[0])
                .wrapping_add(v[(i + 1) % 32] + v[i ^ 1])
                .wrapping_add(up + down);
            let lsb = if ballot == 0 {
                u32::MAX
            } else {
                ballot.trailing_zeros()
            };
            let msb = if ballot == 0 {
                u32::MAX
            } else {
                31 - ballot.leading_zeros()
            };
            let le = if i == 31 {
                u32::MAX
            } else {
                (1u32 << (i + 1)) - 1
            };
            r = r
                .wrapping_add(lsb)
                .wrapping_add(msb)
                .wrapping_add((ballot & le).count_ones());
            if ballot & 1 != 0 && ballot >> i & 1 != 0 {
                r += 8;
            }
            if i == 0 {
                r += 100;
            }
            let g = w * 32 + i;
            assert_eq!(out[&0][g], r, "data[{g}]");
            let eq = 1u32 << i;
            let ge = u32::MAX << i;
            let gt = if i == 31 { 0 } else { u32::MAX << (i + 1) };
            let lt = eq - 1;
            assert_eq!(
                out[&1][g * 4..g * 4 + 4],
                [eq ^ ge ^ gt ^ le ^ lt, 0, 0, 0],
                "masks[{g}]"
            );
        }
    }
}

macro_rules! per_arch {
    ($($name:ident: $f:ident on $arch:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            $f(Arch::$arch);
        }
    )*};
}

per_arch!(
    reductions_and_scans_on_full_warps_sm86: scans on Sm86,
    reductions_and_scans_on_full_warps_sm75_without_redux: scans on Sm75,
    divergent_lanes_and_a_partial_warp_sm86: divergent on Sm86,
    divergent_lanes_and_a_partial_warp_sm75_without_redux: divergent on Sm75,
);

/// c_subgroup_quads.comp: quad swaps and broadcasts of a vec2, 2
/// workgroups of 64.
#[test]
fn quad_swaps_and_broadcasts() {
    let n = 128;
    let texels: Vec<f32> = noise(2 * n, 13)
        .iter()
        .map(|x| (x >> 20) as f32 / 8.0)
        .collect();
    let out = dispatch(
        "c_subgroup_quads.comp",
        Arch::Sm86,
        2,
        &[
            (0, texels.iter().map(|f| f.to_bits()).collect()),
            (1, vec![0; n * 4]),
        ],
    );
    let t = |i: usize| (texels[2 * i], texels[2 * i + 1]);
    for i in 0..n {
        let quad = i & !3;
        let (h, v, d, b) = (t(i ^ 1), t(i ^ 2), t(i ^ 3), t(quad + 2));
        let got: Vec<f32> = out[&1][i * 4..i * 4 + 4]
            .iter()
            .map(|&w| f32::from_bits(w))
            .collect();
        assert_eq!(
            got,
            [h.0 + 10.0 * v.1, d.0 - b.1, t(quad).0, h.1 - d.1],
            "invocation {i}"
        );
    }
}

/// A mesh workgroup of `n` invocations runs as logical subgroups of 32
/// on one warp, each a subgroup of its own; with 48 the second has 16
/// invocations, and the warp's other 16 lanes take no part. The shader
/// writes (subgroupAdd, subgroupExclusiveAdd, subgroupBroadcastFirst of
/// the invocation index i, gl_SubgroupID + 10 if subgroupAll(i < 48) +
/// 100 if subgroupAny(i >= 48)) for the 48 vertices its 16 triangles use.
fn logical_subgroups(n: usize) {
    let m = common::compile(&format!("w_subgroup_add{n}.mesh"), Arch::Sm86);
    let d = spvsass::Draw::new(None, &m.binary, [1, 1, 1])
        .run()
        .map(|r| r.draw)
        .expect("draw runs");
    let wg = &d.workgroups[0];
    assert_eq!(wg.vertices.len(), 48);
    for (i, v) in wg.vertices.iter().enumerate() {
        let (sub, lane) = (i / 32, i % 32);
        let first = (sub * 32) as u32;
        let last = (first + 32).min(n as u32);
        let sum: u32 = (first..last).sum();
        let below: u32 = (first..first + lane as u32).sum();
        let all = (first..last).all(|j| j < 48);
        let any = (first..last).any(|j| j >= 48);
        let w = sub as u32 + 10 * u32::from(all) + 100 * u32::from(any);
        assert_eq!(
            v.position,
            Some([sum as f32, below as f32, first as f32, w as f32]),
            "vertex {i} of {n}"
        );
    }
}

#[test]
fn logical_subgroups_of_a_64_invocation_mesh_workgroup() {
    logical_subgroups(64);
}

#[test]
fn logical_subgroups_of_a_48_invocation_mesh_workgroup_leave_the_extra_lanes_out() {
    logical_subgroups(48);
}
