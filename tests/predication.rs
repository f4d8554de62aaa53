//! Predicated branches in the simulator: c_predicated.comp's small
//! if/else regions on per-invocation values compile to straight-line code
//! (backend/src/opt_predicate.rs), and every lane still gets the value of
//! the side it took. The inputs put lanes of every warp on both sides of
//! every condition.

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::sim::ComputeInputs;
use std::collections::BTreeMap;

const GROUPS: u32 = 2;
const LANES: usize = 64 * GROUPS as usize;
/// Marks words the shader must not write.
const UNTOUCHED: u32 = 0xdead_beef;

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// std140 `uint table[8]`: one element per 16 bytes.
fn table() -> Vec<u32> {
    (0..8u32).flat_map(|i| [100 + 7 * i, 0, 0, 0]).collect()
}

/// The shader on the CPU for one invocation: (data, floats, extra).
fn reference(v: u32, x: f32) -> (u32, f32, u32) {
    let a = if v & 1 == 0 { v >> 1 } else { v * 3 + 1 };
    let y = if x < 0.0 { x * -2.0 } else { x + 0.5 };
    let b = v > 10 && a < 40;
    let w = if v < 8 { 100 + 7 * v } else { v + 1000 };
    let data = a + if b { 0x10000 } else { 0 } + (w << 20);
    let extra = if v & 4 != 0 { v } else { 0 };
    (data, y, extra)
}

fn inputs() -> (Vec<u32>, Vec<f32>) {
    // v covers both parities, v < 8 and beyond, v & 4 set and clear, and
    // v > 10 with a below and above 40, in every warp.
    let data: Vec<u32> = (0..LANES as u32).map(|i| (i * 37 + 3) % 61).collect();
    let floats: Vec<f32> = (0..LANES)
        .map(|i| (i as f32 - 50.0) * 0.375 + 0.125)
        .collect();
    (data, floats)
}

#[test]
fn predicated_branches_compute_both_sides_lane_by_lane() {
    let compiled = common::compile("c_predicated.comp", Arch::Sm86);
    let (data, floats) = inputs();
    let float_bits: Vec<u32> = floats.iter().map(|f| f.to_bits()).collect();
    let inputs = ComputeInputs {
        buffers: BTreeMap::from([
            (0, bytes_of(&data)),
            (1, bytes_of(&float_bits)),
            (2, bytes_of(&vec![UNTOUCHED; LANES])),
            (4, bytes_of(&[UNTOUCHED])),
        ]),
        uniforms: BTreeMap::from([(3, bytes_of(&table()))]),
        ..Default::default()
    };
    let run = spvsass::Dispatch::new(&compiled.binary, [GROUPS, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("c_predicated.comp: {e}"));
    let out_data = words_of(&run.buffers[&0]);
    let out_floats = words_of(&run.buffers[&1]);
    let out_extra = words_of(&run.buffers[&2]);
    for i in 0..LANES {
        let (want_data, want_y, want_extra) = reference(data[i], floats[i]);
        let what = format!("lane {i}: v = {}, x = {}", data[i], floats[i]);
        assert_eq!(out_data[i], want_data, "data, {what}");
        assert_eq!(f32::from_bits(out_floats[i]), want_y, "floats, {what}");
        assert_eq!(out_extra[i], want_extra, "extra, {what}");
    }
    // Only invocation 5 stores `picked`: its `a`.
    let a5 = reference(data[5], floats[5]).0 & 0xffff;
    assert_eq!(words_of(&run.buffers[&4]), [a5]);
}

#[test]
fn predicated_branches_leave_no_branch_and_guard_memory_accesses() {
    let compiled = common::compile("c_predicated.comp", Arch::Sm86);
    let text = spvsass::listing(&compiled.binary, false).expect("listing");
    for op in ["BRA", "BSSY", "BSYNC"] {
        assert!(!text.contains(op), "{op} left:\n{text}");
    }
    // The uniform-buffer read, the conditional shared store and the store
    // of one invocation each run under the branch predicate.
    for access in ["LDC R", "STS [R", "STG.E [R0.64], R"] {
        let guarded = text
            .lines()
            .filter(|l| l.contains(access))
            .any(|l| l.contains(" @P") || l.contains(" @!P"));
        assert!(guarded, "no guarded {access}:\n{text}");
    }
    // The integer and float if/else regions merge with SEL.
    assert!(text.contains("SEL"), "{text}");
}
