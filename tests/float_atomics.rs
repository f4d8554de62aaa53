//! Float atomics emulated with CAS loops (backend/src/from_ir/cas_loop.rs):
//! float add on compute shared memory, float min/max on storage buffers
//! and shared memory, with every lane of a workgroup on the same word,
//! divergent lanes, and the returned old values checked.

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::sim::{ComputeInputs, ComputeRun};
use std::collections::BTreeMap;

const GROUPS: usize = 3;
const LOCAL: usize = 64;

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn floats_of(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn dispatch(name: &str, groups: u32, buffers: &[(u32, Vec<u8>)]) -> ComputeRun {
    let compiled = common::compile(name, Arch::Sm86);
    let inputs = ComputeInputs {
        buffers: buffers.iter().cloned().collect::<BTreeMap<_, _>>(),
        ..Default::default()
    };
    spvsass::Dispatch::new(&compiled.binary, [groups, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Whole numbers in -1000..1000 (sums of 64 of them are exact in f32),
/// from a fixed LCG.
fn values() -> Vec<f32> {
    let mut x = 7u32;
    (0..GROUPS * LOCAL)
        .map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (x >> 16) as f32 % 2000.0 - 1000.0
        })
        .collect()
}

struct Olds {
    vals: Vec<f32>,
    /// Per invocation: ticket, buffer min's old, shared max's old, odd
    /// lanes' shared add's old (-1 for even lanes).
    olds: Vec<[f32; 4]>,
    bmin: f32,
    bmax: f32,
    /// Per workgroup: tickets, odd sum, shared min, shared max.
    groups: Vec<[f32; 4]>,
}

fn run_olds() -> Olds {
    let vals = values();
    let init = [1.0e30f32, -1.0e30].map(f32::to_bits);
    let mut totals = init.to_vec();
    totals.resize(2 + GROUPS * 4, 0);
    let run = dispatch(
        "c_float_atomic_olds.comp",
        GROUPS as u32,
        &[
            (
                0,
                bytes_of(&vals.iter().map(|v| v.to_bits()).collect::<Vec<_>>()),
            ),
            (1, vec![0; GROUPS * LOCAL * 16]),
            (2, bytes_of(&totals)),
        ],
    );
    let olds = floats_of(&run.buffers[&1]);
    let totals = floats_of(&run.buffers[&2]);
    Olds {
        vals,
        olds: olds
            .chunks_exact(4)
            .map(|c| [c[0], c[1], c[2], c[3]])
            .collect(),
        bmin: totals[0],
        bmax: totals[1],
        groups: totals[2..]
            .chunks_exact(4)
            .map(|c| [c[0], c[1], c[2], c[3]])
            .collect(),
    }
}

/// Old values of adds on one word starting at 0: each old plus its own
/// operand is another lane's old or the final value, so the olds chain
/// from 0 to `total` through every lane exactly once.
fn assert_add_chain(olds_and_operands: &[(f32, f32)], total: f32, what: &str) {
    let mut by_old: Vec<(f32, f32)> = olds_and_operands.to_vec();
    by_old.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut at = 0.0f32;
    let mut left: Vec<(f32, f32)> = by_old;
    while !left.is_empty() {
        let i = left
            .iter()
            .position(|&(o, _)| o == at)
            .unwrap_or_else(|| panic!("{what}: no lane's old value is {at}"));
        at += left.remove(i).1;
    }
    assert_eq!(at, total, "{what}: final value");
}

#[test]
fn float_add_of_one_on_shared_memory_hands_out_each_ticket_once() {
    let r = run_olds();
    for g in 0..GROUPS {
        let mut t: Vec<f32> = r.olds[g * LOCAL..(g + 1) * LOCAL]
            .iter()
            .map(|o| o[0])
            .collect();
        t.sort_by(f32::total_cmp);
        let want: Vec<f32> = (0..LOCAL).map(|i| i as f32).collect();
        assert_eq!(t, want, "workgroup {g}");
        assert_eq!(r.groups[g][0], LOCAL as f32, "workgroup {g}");
    }
}

#[test]
fn float_add_from_divergent_odd_lanes_on_shared_memory_chains_its_old_values() {
    let r = run_olds();
    for g in 0..GROUPS {
        let lanes = g * LOCAL..(g + 1) * LOCAL;
        let odd: Vec<(f32, f32)> = lanes
            .clone()
            .filter(|i| i % 2 == 1)
            .map(|i| (r.olds[i][3], r.vals[i]))
            .collect();
        let sum: f32 = odd.iter().map(|p| p.1).sum();
        assert_eq!(r.groups[g][1], sum, "workgroup {g}");
        assert_add_chain(&odd, sum, &format!("workgroup {g}"));
        for i in lanes.filter(|i| i % 2 == 0) {
            assert_eq!(r.olds[i][3], -1.0, "even invocation {i} did not add");
        }
    }
}

#[test]
fn float_min_and_max_on_a_buffer() {
    let r = run_olds();
    let min = r.vals.iter().copied().fold(f32::INFINITY, f32::min);
    let max = r.vals.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    assert_eq!((r.bmin, r.bmax), (min, max));
    // Each old value of the min is the initial word or an earlier
    // operand, never below the final minimum; exactly one lane saw the
    // initial word.
    let firsts = r.olds.iter().filter(|o| o[1] == 1.0e30).count();
    assert_eq!(firsts, 1);
    for (i, o) in r.olds.iter().enumerate() {
        assert!(
            o[1] == 1.0e30 || r.vals.contains(&o[1]),
            "invocation {i}: {}",
            o[1]
        );
        assert!(o[1] >= min, "invocation {i}");
    }
}

#[test]
fn float_min_and_max_on_shared_memory() {
    let r = run_olds();
    for g in 0..GROUPS {
        let vals = &r.vals[g * LOCAL..(g + 1) * LOCAL];
        let min = vals.iter().copied().fold(f32::INFINITY, f32::min);
        let max = vals.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        assert_eq!(r.groups[g][2..], [min, max], "workgroup {g}");
        let olds = &r.olds[g * LOCAL..(g + 1) * LOCAL];
        assert_eq!(olds.iter().filter(|o| o[2] == -1.0e30).count(), 1);
        for o in olds {
            assert!(o[2] == -1.0e30 || vals.contains(&o[2]));
            assert!(o[2] <= max);
        }
    }
}

#[test]
fn float_add_on_shared_memory_and_a_buffer_sums_every_invocation() {
    // c_atomic_float.comp: every invocation adds index / 2 to a buffer
    // word (ATOMG.ADD.F32) and to a shared word (the CAS loop).
    let groups = 4;
    let run = dispatch("c_atomic_float.comp", groups, &[(0, vec![0; 4 * 5])]);
    let out = floats_of(&run.buffers[&0]);
    let per_group: f32 = (0..LOCAL).map(|i| i as f32 * 0.5).sum();
    assert_eq!(out[0], per_group * groups as f32);
    assert_eq!(out[1..], [per_group; 4]);
}

#[test]
fn float_atomics_shader_accumulates_bounds_and_a_total() {
    // float_atomics.comp: min/max of x on a buffer, w summed per
    // workgroup in shared memory, then into the buffer's total.
    let groups = 2;
    let vals = values();
    let points: Vec<u32> = (0..groups * LOCAL)
        .flat_map(|i| [vals[i], 0.0, 0.0, (i % 7) as f32].map(f32::to_bits))
        .collect();
    let bounds = [f32::MAX, f32::MIN, 0.0].map(f32::to_bits);
    let run = dispatch(
        "float_atomics.comp",
        groups as u32,
        &[(0, bytes_of(&points)), (1, bytes_of(&bounds))],
    );
    let out = floats_of(&run.buffers[&1]);
    let xs = &vals[..groups * LOCAL];
    let total: f32 = (0..groups * LOCAL).map(|i| (i % 7) as f32).sum();
    assert_eq!(
        out,
        [
            xs.iter().copied().fold(f32::INFINITY, f32::min),
            xs.iter().copied().fold(f32::NEG_INFINITY, f32::max),
            total
        ]
    );
}
