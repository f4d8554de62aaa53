//! Compute shaders end to end: tests/shaders/c_*.comp.glsl compiled,
//! dispatched in the simulator with buffers bound per docs/ABI.md, and
//! every output value checked against the same computation on the CPU.

use crate::common;

use spvsass::backend::error::BackendError;
use spvsass::backend::target::Arch;
use spvsass::sim::{ComputeInputs, ComputeRun, MemFault, SimError, Space};
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

fn floats_of(bytes: &[u8]) -> Vec<f32> {
    words_of(bytes).into_iter().map(f32::from_bits).collect()
}

fn buffers(list: &[(u32, Vec<u8>)]) -> BTreeMap<u32, Vec<u8>> {
    list.iter().cloned().collect()
}

fn dispatch(name: &str, groups: [u32; 3], inputs: ComputeInputs) -> Result<ComputeRun, String> {
    let compiled = common::compile(name, Arch::Sm86);
    spvsass::Dispatch::new(&compiled.binary, groups)
        .inputs(inputs)
        .run()
        .map_err(|e| e.to_string())
}

/// Pseudo-random words (a fixed LCG, so runs are reproducible).
fn noise(n: usize, seed: u32) -> Vec<u32> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            x
        })
        .collect()
}

/// Compiles `name` for sm86 and expects the backend's "unsupported" error
/// at `opcode` (with its result id), its text containing `what_part`.
fn assert_unsupported(name: &str, opcode_expected: &str, what_part: &str) {
    let options = spvsass::Options {
        arch: Some(Arch::Sm86),
        ..Default::default()
    };
    let err = spvsass::compile(&common::shader_words(name), &options)
        .expect_err("the backend refuses it");
    let spvsass::Error::Backend(BackendError::Unsupported {
        what,
        opcode,
        spirv_id,
    }) = &err
    else {
        panic!("{err}")
    };
    assert_eq!(opcode, opcode_expected, "{err}");
    assert!(spirv_id.is_some(), "{err}");
    assert!(what.contains(what_part), "{err}");
}

const SENTINEL: u32 = 0xdead_beef;

fn add_push_inputs(n: u32, k: u32, c_words: usize) -> (Vec<u32>, Vec<u32>, ComputeInputs) {
    let a = noise(n as usize, 1);
    let b = noise(n as usize, 2);
    let inputs = ComputeInputs {
        buffers: buffers(&[
            (0, bytes_of(&a)),
            (1, bytes_of(&b)),
            (2, bytes_of(&vec![SENTINEL; c_words])),
        ]),
        push_constants: bytes_of(&[n, k]),
        ..Default::default()
    };
    (a, b, inputs)
}

#[test]
fn buffer_add_with_push_constants() {
    // 4 workgroups of 64: 256 invocations, the last 56 beyond n do nothing.
    let (n, k) = (200u32, 7u32);
    let (a, b, inputs) = add_push_inputs(n, k, 256);
    let run = dispatch("c_add_push.comp", [4, 1, 1], inputs).unwrap();
    assert_eq!((run.workgroups, run.warps), (4, 2));
    let c = words_of(&run.buffers[&2]);
    for i in 0..256 {
        let expected = if i < n as usize {
            a[i].wrapping_add(b[i].wrapping_mul(k))
        } else {
            SENTINEL
        };
        assert_eq!(c[i], expected, "c[{i}]");
    }
    // Inputs are unchanged.
    assert_eq!(words_of(&run.buffers[&0]), a);
}

#[test]
fn out_of_bounds_store_names_pc_lane_and_address() {
    // c holds 100 words but n is 200: invocation 100 (workgroup 1, warp 1,
    // lane 4) stores past its end.
    let (_, _, inputs) = add_push_inputs(200, 7, 100);
    let compiled = common::compile("c_add_push.comp", Arch::Sm86);
    let err = spvsass::Dispatch::new(&compiled.binary, [4, 1, 1])
        .inputs(inputs)
        .run()
        .expect_err("the store is out of bounds");
    let spvsass::Error::Sim(SimError::InWorkgroup { workgroup, error }) = &err else {
        panic!("{err}")
    };
    assert_eq!(*workgroup, [1, 0, 0]);
    let SimError::InWarp { warp: 1, error } = error.as_ref() else {
        panic!("{err}")
    };
    let SimError::Memory {
        pc,
        lane,
        space,
        addr,
        bytes,
        fault,
    } = error.as_ref()
    else {
        panic!("{err}")
    };
    // Binding 2 is the third buffer mapped: base 3 << 32 (sim/src/memory.rs).
    assert_eq!(
        (*lane, *space, *addr, *bytes),
        (4, Space::Global, 0x3_0000_0190, 4)
    );
    assert_eq!(
        *fault,
        MemFault::OutOfBounds {
            base: 0x3_0000_0000,
            size: 400
        }
    );
    let stg = compiled
        .instrs
        .iter()
        .position(|i| i.to_string().starts_with("STG"))
        .expect("the shader stores");
    assert_eq!(*pc as usize, stg * 16, "the pc is the STG's");
    let text = err.to_string();
    assert!(
        text.contains("lane 4") && text.contains("0x300000190"),
        "{text}"
    );
}

/// `Item` of c_struct_index.comp.glsl in its std430 layout: id, w, pos,
/// tags[3], 32 bytes.
struct Item {
    id: u32,
    w: f32,
    pos: [f32; 2],
    tags: [u32; 3],
}

#[test]
fn dynamic_indices_into_structs_and_arrays() {
    let count = 8u32;
    let items: Vec<Item> = (0..64u32)
        .map(|i| Item {
            id: i * 3,
            // Halves and small integers: every product and sum is exact.
            w: i as f32 * 0.5,
            pos: [i as f32 - 20.0, 2.0 * i as f32],
            tags: [i * 7, i + 5, 100 - i],
        })
        .collect();
    let mut buf = bytes_of(&[count, 0]);
    for it in &items {
        buf.extend(bytes_of(&[it.id, it.w.to_bits()]));
        buf.extend(bytes_of(&[it.pos[0].to_bits(), it.pos[1].to_bits()]));
        buf.extend(bytes_of(&[it.tags[0], it.tags[1], it.tags[2], 0]));
    }
    let inputs = ComputeInputs {
        buffers: buffers(&[(0, buf), (1, vec![0; 64 * 4])]),
        ..Default::default()
    };
    // 16x2 workgroups, 1x2 of them: i = gid.y * 16 + gid.x covers 0..64.
    let run = dispatch("c_struct_index.comp", [1, 2, 1], inputs).unwrap();
    let res = floats_of(&run.buffers[&1]);
    for i in 0..64usize {
        let it = &items[i];
        let j = it.tags[(i & 3).min(2)];
        let c = i & 1;
        let expected = items[(j & (count - 1)) as usize].w * it.pos[c] + (it.id + j) as f32;
        assert_eq!(
            res[i].to_bits(),
            expected.to_bits(),
            "res[{i}]: {} vs {expected}",
            res[i]
        );
    }
}

fn check_reduction(name: &str, size: usize, groups: u32) {
    let data = noise(size * groups as usize, 9);
    let inputs = ComputeInputs {
        buffers: buffers(&[(0, bytes_of(&data)), (1, vec![0; 4 * groups as usize])]),
        ..Default::default()
    };
    let run = dispatch(name, [groups, 1, 1], inputs).unwrap();
    assert_eq!(run.warps as usize, size / 32);
    let sums = words_of(&run.buffers[&1]);
    for g in 0..groups as usize {
        let expected = data[g * size..(g + 1) * size]
            .iter()
            .fold(0u32, |s, &v| s.wrapping_add(v));
        assert_eq!(sums[g], expected, "workgroup {g}");
    }
}

#[test]
fn shared_memory_reduction_over_128_invocations() {
    check_reduction("c_reduce128.comp", 128, 3);
}

#[test]
fn shared_memory_reduction_over_256_invocations_in_2d() {
    check_reduction("c_reduce256.comp", 256, 2);
}

#[test]
fn loop_with_break_and_continue() {
    let v: Vec<u32> = (0..64u32).map(|i| (i * 5) % 23).collect();
    let inputs = ComputeInputs {
        buffers: buffers(&[(0, bytes_of(&v)), (1, vec![0; 64 * 4])]),
        ..Default::default()
    };
    let run = dispatch("c_loop.comp", [2, 1, 1], inputs).unwrap();
    let o = words_of(&run.buffers[&1]);
    for i in 0..64u32 {
        let mut acc = 0u32;
        for k in 0..64u32 {
            let x = v[i as usize] + k;
            if x & 3 == 0 {
                continue;
            }
            if x > 40 + i {
                break;
            }
            acc = acc.wrapping_add(x * k);
        }
        assert_eq!(o[i as usize], acc, "o[{i}]");
    }
}

#[test]
fn uniform_buffer_read() {
    let scale = [1.5f32, -2.0, 0.25, 3.0];
    let lut: Vec<u32> = (0..8).map(|i| i * i + 1).collect();
    // std140: vec4 at 0, lut[8] at 16 with a 16-byte stride.
    let mut ubo = bytes_of(&scale.map(f32::to_bits));
    for &l in &lut {
        ubo.extend(bytes_of(&[l, 0, 0, 0]));
    }
    let inputs = ComputeInputs {
        buffers: buffers(&[(1, vec![0; 64 * 16])]),
        uniforms: buffers(&[(0, ubo)]),
        ..Default::default()
    };
    let run = dispatch("c_uniform.comp", [2, 1, 1], inputs).unwrap();
    let o = floats_of(&run.buffers[&1]);
    for i in 0..64usize {
        for c in 0..4 {
            let expected = scale[c] * lut[i & 7] as f32;
            assert_eq!(o[4 * i + c], expected, "o[{i}][{c}]");
        }
    }
}

#[test]
fn every_compute_builtin_over_a_3d_grid_of_three_warp_workgroups() {
    // 48x2 invocations (three warps) per workgroup, 2x2x2 workgroups.
    let inputs = ComputeInputs {
        buffers: buffers(&[(0, vec![0; 8 * 96 * 8 * 4])]),
        ..Default::default()
    };
    let run = dispatch("c_builtins.comp", [2, 2, 2], inputs).unwrap();
    assert_eq!((run.workgroups, run.warps), (8, 3));
    let o = words_of(&run.buffers[&0]);
    for (z, y, x) in
        (0..2u32).flat_map(|z| (0..2u32).flat_map(move |y| (0..2u32).map(move |x| (z, y, x))))
    {
        for (ly, lx) in (0..2u32).flat_map(|ly| (0..48u32).map(move |lx| (ly, lx))) {
            let index = ly * 48 + lx;
            let slot = (((z * 2 + y) * 2 + x) * 96 + index) as usize * 8;
            let expected = [
                x * 48 + lx,
                (y * 2 + ly) * 1000 + z,
                lx + 100 * ly,
                index % 32,
                index / 32 + 10 * 3,
                32,
                2 + 10 * 2 + 100 * 2,
                96,
            ];
            assert_eq!(
                o[slot..slot + 8],
                expected,
                "workgroup ({x}, {y}, {z}) invocation ({lx}, {ly})"
            );
        }
    }
}

#[test]
fn function_array_indexed_dynamically_lives_in_local_memory() {
    let v: Vec<u32> = noise(64, 5);
    let inputs = ComputeInputs {
        buffers: buffers(&[(0, bytes_of(&v)), (1, vec![0; 64 * 4])]),
        ..Default::default()
    };
    let compiled = common::compile("c_local_array.comp", Arch::Sm86);
    let listing = spvsass::listing(&compiled.binary, false).unwrap();
    assert!(
        listing.contains("STL") && listing.contains("LDL"),
        "{listing}"
    );
    let run = dispatch("c_local_array.comp", [2, 1, 1], inputs).unwrap();
    let o = words_of(&run.buffers[&1]);
    for i in 0..64usize {
        let t = |k: usize| v[i].wrapping_mul(k as u32 + 1);
        let expected = t((v[i] & 7) as usize).wrapping_add(t((i + 3) & 7));
        assert_eq!(o[i], expected, "o[{i}]");
    }
}

#[test]
fn a_buffer_past_the_32_sets_is_refused_naming_the_store() {
    assert_unsupported("c_bad_set.comp", "OpStore", "descriptor set 40");
}

/// SPIR-V's OpSMod: the remainder takes the sign of the divisor.
fn smod(a: i32, b: i32) -> i32 {
    let r = a.wrapping_rem(b);
    if r != 0 && (r ^ b) < 0 { r + b } else { r }
}

#[test]
fn integer_division_is_exact_for_every_pair() {
    // Edge cases first, then pseudo-random pairs of every magnitude; no zero
    // divisor and no INT_MIN / -1 (undefined in SPIR-V).
    let mut pairs: Vec<(u32, u32)> = vec![
        (0, 1),
        (7, 3),
        (u32::MAX, 1),
        (u32::MAX, u32::MAX),
        (u32::MAX, 2),
        (u32::MAX - 1, u32::MAX),
        (0x8000_0000, 3),
        (0x8000_0000, 0x8000_0000),
        (-7i32 as u32, 2),
        (7, -2i32 as u32),
        (-7i32 as u32, -2i32 as u32),
        (i32::MIN as u32, 1),
        (i32::MAX as u32, -1i32 as u32),
        (1, 0x7fff_ffff),
        (100, 10),
        (99, 10),
    ];
    let noise_words = noise(2 * 48, 9);
    for (i, w) in noise_words.chunks_exact(2).enumerate() {
        // Divisors of every size: shift some right so small ones occur.
        let d = (w[1] >> (i % 32)).max(1);
        pairs.push((w[0], d));
    }
    let input: Vec<u32> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
    let n = pairs.len();
    let inputs = ComputeInputs {
        buffers: buffers(&[(0, bytes_of(&input)), (1, vec![0; n * 16])]),
        ..Default::default()
    };
    let run = dispatch("c_divide.comp", [1, 1, 1], inputs).unwrap();
    let out = words_of(&run.buffers[&1]);
    for (i, &(a, b)) in pairs.iter().enumerate() {
        let (sa, sb) = (a as i32, b as i32);
        let expected = [
            a / b,
            a % b,
            sa.wrapping_div(sb) as u32,
            smod(sa, sb) as u32,
        ];
        assert_eq!(out[4 * i..4 * i + 4], expected, "pair {i}: {a:#x}, {b:#x}");
    }
}

/// c_atomics.comp over 4 workgroups of 96 invocations.
const ATOMIC_GROUPS: usize = 4;
const ATOMIC_N: usize = ATOMIC_GROUPS * 96;

/// Totals' words: count, sum, umin, umax, smin, smax, and, or, xor,
/// exchange, compare-and-swap, the 8-bin histogram, then a float sum.
const TOTALS_INIT: [u32; 20] = [
    0,
    0,
    u32::MAX,
    0,
    i32::MAX as u32,
    i32::MIN as u32,
    u32::MAX,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
];

struct AtomicsRun {
    vals: Vec<u32>,
    totals: Vec<u32>,
    /// Per invocation: ticket, exchange's old, CAS's old, shared ticket.
    olds: Vec<[u32; 4]>,
    /// Per workgroup: shared count and shared sum.
    groups: Vec<[u32; 2]>,
}

fn run_atomics() -> AtomicsRun {
    let vals = noise(ATOMIC_N, 21);
    let inputs = ComputeInputs {
        buffers: buffers(&[
            (0, bytes_of(&vals)),
            (1, bytes_of(&TOTALS_INIT)),
            (2, vec![0; 16 * ATOMIC_N]),
            (3, vec![0; 8 * ATOMIC_GROUPS]),
        ]),
        ..Default::default()
    };
    let run = dispatch("c_atomics.comp", [ATOMIC_GROUPS as u32, 1, 1], inputs).unwrap();
    assert_eq!(run.warps, 3, "warps per workgroup");
    let olds = words_of(&run.buffers[&2])
        .chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect();
    let groups = words_of(&run.buffers[&3])
        .chunks_exact(2)
        .map(|c| [c[0], c[1]])
        .collect();
    AtomicsRun {
        vals,
        totals: words_of(&run.buffers[&1]),
        olds,
        groups,
    }
}

/// Whether `v` holds each of `0..v.len()` once.
fn is_permutation(mut v: Vec<u32>) -> bool {
    v.sort_unstable();
    v.iter().enumerate().all(|(i, &x)| x == i as u32)
}

#[test]
fn atomic_add_on_a_buffer_returns_every_ticket_once() {
    let r = run_atomics();
    assert_eq!(r.totals[0], ATOMIC_N as u32);
    assert!(is_permutation(r.olds.iter().map(|o| o[0]).collect()));
}

#[test]
fn atomic_adds_with_unread_results_sum_and_count_into_a_histogram() {
    let r = run_atomics();
    let sum = r.vals.iter().fold(0u32, |s, &v| s.wrapping_add(v));
    assert_eq!(r.totals[1], sum);
    for bin in 0..8u32 {
        let n = r.vals.iter().filter(|&&v| v & 7 == bin).count() as u32;
        assert_eq!(r.totals[11 + bin as usize], n, "bin {bin}");
    }
}

#[test]
fn float_atomic_add_on_a_buffer() {
    let r = run_atomics();
    let sum: u32 = r.vals.iter().map(|&v| v & 0xff).sum();
    assert_eq!(f32::from_bits(r.totals[19]), sum as f32);
}

#[test]
fn atomic_min_and_max_on_a_buffer_signed_and_unsigned() {
    let r = run_atomics();
    let signed = || r.vals.iter().map(|&v| v as i32);
    assert_eq!(r.totals[2], *r.vals.iter().min().unwrap());
    assert_eq!(r.totals[3], *r.vals.iter().max().unwrap());
    assert_eq!(r.totals[4] as i32, signed().min().unwrap());
    assert_eq!(r.totals[5] as i32, signed().max().unwrap());
}

#[test]
fn atomic_and_or_xor_on_a_buffer() {
    let r = run_atomics();
    let and = r.vals.iter().fold(u32::MAX, |a, &v| a & (v | 0x00ff_00ff));
    let or = r.vals.iter().fold(0, |a, &v| a | (v & 0x0f0f_0f0f));
    let xor = r.vals.iter().fold(0, |a, &v| a ^ v);
    assert_eq!(r.totals[6..9], [and, or, xor]);
}

#[test]
fn atomic_exchange_hands_each_stored_value_on_once() {
    let r = run_atomics();
    // Every invocation stores its index + 1 and gets the previous one: the
    // old values and the final word are 0..=n, each once.
    let mut seen: Vec<u32> = r.olds.iter().map(|o| o[1]).collect();
    seen.push(r.totals[9]);
    assert!(is_permutation(seen));
}

#[test]
fn compare_and_swap_loop_increments_once_per_invocation() {
    let r = run_atomics();
    assert_eq!(r.totals[10], ATOMIC_N as u32);
    assert!(is_permutation(r.olds.iter().map(|o| o[2]).collect()));
}

#[test]
fn atomic_add_on_shared_memory_counts_each_workgroup() {
    let r = run_atomics();
    for (g, group) in r.groups.iter().enumerate() {
        let vals = &r.vals[g * 96..(g + 1) * 96];
        let sum = vals.iter().fold(0u32, |s, &v| s.wrapping_add(v));
        assert_eq!(*group, [96, sum], "workgroup {g}");
        let tickets = r.olds[g * 96..(g + 1) * 96].iter().map(|o| o[3]).collect();
        assert!(is_permutation(tickets), "workgroup {g}");
    }
}

#[test]
fn atomic_increment_decrement_and_subtract_on_a_buffer() {
    // dxc_counter_atomics.comp: every invocation increments the counter,
    // the odd ones then decrement it and subtract 3 (adds of 1, -1, -3).
    let inputs = ComputeInputs {
        buffers: buffers(&[(1, bytes_of(&[1000]))]),
        ..Default::default()
    };
    let run = dispatch("dxc_counter_atomics.comp", [2, 1, 1], inputs).unwrap();
    let (n, odd) = (128, 64);
    assert_eq!(
        words_of(&run.buffers[&1]),
        [(1000 + n - odd - 3 * odd) as u32]
    );
}

#[test]
fn a_break_inside_an_if_leaves_the_loop_without_deadlock() {
    let inputs = ComputeInputs {
        buffers: buffers(&[(0, vec![0; 64 * 4])]),
        ..Default::default()
    };
    let run = dispatch("c_loop_break.comp", [1, 1, 1], inputs).unwrap();
    let v = words_of(&run.buffers[&0]);
    for i in 0..32u32 {
        assert_eq!(v[i as usize], i + 1, "v[{i}]");
        assert_eq!(v[i as usize + 32], (i + 1) * 10, "v[{}]", i + 32);
    }
}
