//! Control flow in the simulator: OpSwitch (fall-through, shared targets,
//! nesting) and the divergence analysis, which leaves convergence barriers
//! out of uniform branches and keeps them on divergent ones. Every output
//! value is checked against the same computation on the CPU.

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

/// Runs `name` on `data` (binding `binding`) and returns that buffer after.
fn run(name: &str, groups: u32, binding: u32, data: &[u32], extra: ComputeInputs) -> Vec<u32> {
    let compiled = common::compile(name, Arch::Sm86);
    let mut inputs = extra;
    inputs.buffers.insert(binding, bytes_of(data));
    let run = spvsass::Dispatch::new(&compiled.binary, [groups, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    words_of(&run.buffers[&binding])
}

fn listing(name: &str) -> String {
    let compiled = common::compile(name, Arch::Sm86);
    spvsass::listing(&compiled.binary, false).expect("listing")
}

/// c_switch.comp.glsl on the CPU.
fn switch_reference(v: i32) -> i32 {
    let mut r = 0;
    match v & 7 {
        0 => r = 3,
        1 => r = 2,
        2 | 3 => r = -1,
        6 => match v / 8 {
            0 => r = 60,
            -1 => r = 61,
            2 => r = 62,
            _ => {}
        },
        _ => r = 100 + v,
    }
    r
}

#[test]
fn switch_with_fall_through_shared_targets_and_nesting() {
    // Every case of both switches: v & 7 over 0..8, v / 8 over -2..3.
    let data: Vec<u32> = (0..128i32).map(|i| ((i % 48) - 16) as u32).collect();
    let out = run("c_switch.comp", 2, 0, &data, ComputeInputs::default());
    for (i, (&v, &r)) in data.iter().zip(&out).enumerate() {
        assert_eq!(
            r as i32,
            switch_reference(v as i32),
            "data[{i}] = {}",
            v as i32
        );
    }
}

#[test]
fn switch_cases_straight_to_the_merge_feed_its_phi() {
    // opt_switch_merges.comp: sel = v & 7; 0 and -1 go to the merge (0),
    // 1 and 2 share a target (v + 1), 5 gives 42, the rest -1.
    let data: Vec<u32> = (0..64i32).map(|i| (i * 5 - 100) as u32).collect();
    let out = run(
        "opt_switch_merges.comp",
        2,
        0,
        &data,
        ComputeInputs::default(),
    );
    for (i, (&v, &r)) in data.iter().zip(&out).enumerate() {
        let v = v as i32;
        let want = match v & 7 {
            0 => 0,
            1 | 2 => v + 1,
            5 => 42,
            _ => -1,
        };
        assert_eq!(r as i32, want, "data[{i}] = {v}");
    }
}

#[test]
fn switch_on_a_per_invocation_value_keeps_its_convergence_barriers() {
    let text = listing("c_switch.comp");
    // The outer and the nested switch each open and close one.
    assert_eq!(text.matches("BSSY").count(), 2, "{text}");
    assert_eq!(text.matches("BSYNC").count(), 2, "{text}");
}

/// c_uniform_branch.comp.glsl on the CPU.
fn uniform_reference(v: u32, mode: u32, count: u32, threshold: u32, group: u32) -> u32 {
    let mut v = if mode == 1 {
        v.wrapping_mul(3)
    } else {
        v.wrapping_add(7)
    };
    for i in 0..count {
        if i == threshold {
            v ^= 0x100;
        }
        v = v.wrapping_add(i);
    }
    match group {
        0 => v + 1000,
        1 => v + 2000,
        _ => v,
    }
}

fn run_uniform(mode: u32, count: u32, threshold: u32) {
    let data: Vec<u32> = (0..192u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    let extra = ComputeInputs {
        push_constants: bytes_of(&[mode, count]),
        uniforms: BTreeMap::from([(0, bytes_of(&[threshold, 0, 0, 0]))]),
        ..Default::default()
    };
    let out = run("c_uniform_branch.comp", 3, 1, &data, extra);
    for (i, (&v, &r)) in data.iter().zip(&out).enumerate() {
        let group = i as u32 / 64;
        assert_eq!(
            r,
            uniform_reference(v, mode, count, threshold, group),
            "data[{i}], mode {mode}, count {count}, threshold {threshold}"
        );
    }
}

#[test]
fn uniform_branches_compute_both_ways() {
    run_uniform(1, 5, 2);
    run_uniform(0, 0, 0);
    run_uniform(7, 9, 100);
}

#[test]
fn uniform_branches_have_no_convergence_barriers() {
    let text = listing("c_uniform_branch.comp");
    assert!(!text.contains("BSSY") && !text.contains("BSYNC"), "{text}");
    // The branches are still there.
    assert!(text.matches("BRA").count() >= 5, "{text}");
}

/// c_divergent_branch.comp.glsl on the CPU.
fn divergent_reference(id: u32, v: u32) -> u32 {
    let step = |v: u32| {
        if v & 1 == 0 {
            v / 2
        } else {
            v.wrapping_mul(3).wrapping_add(1)
        }
    };
    let mut v = step(v);
    let mut steps = 0u32;
    for _ in 0..(id & 15) {
        if v == 1 {
            break;
        }
        v = step(v);
        steps += 1;
    }
    v.wrapping_add(steps << 24)
}

#[test]
fn divergent_branches_and_loops_compute_per_invocation() {
    let data: Vec<u32> = (0..128u32).map(|i| (i * 7) % 37 + 1).collect();
    let out = run(
        "c_divergent_branch.comp",
        2,
        0,
        &data,
        ComputeInputs::default(),
    );
    for (i, (&v, &r)) in data.iter().zip(&out).enumerate() {
        assert_eq!(r, divergent_reference(i as u32, v), "data[{i}] = {v}");
    }
}

#[test]
fn divergent_branches_and_loops_keep_their_convergence_barriers() {
    let options = spvsass::Options {
        arch: Some(Arch::Sm86),
        print_passes: true,
        ..Default::default()
    };
    let compiled = spvsass::compile(&common::shader_words("c_divergent_branch.comp"), &options)
        .expect("compiles");
    let (_, selected) = &compiled.pass_dumps[0];
    // Instruction selection gives the if/else, the loop, and the if/else
    // inside the loop one each; the `if (v == 1) break` leaves the loop
    // and reconverges with it.
    assert_eq!(selected.matches("BSSY").count(), 3, "{selected}");
    assert_eq!(selected.matches("BSYNC").count(), 3, "{selected}");
    // Both if/else regions are short: predication turns them into SELs,
    // which need no barrier. The loop keeps its own.
    let text = listing("c_divergent_branch.comp");
    assert_eq!(text.matches("BSSY").count(), 1, "{text}");
    assert_eq!(text.matches("BSYNC").count(), 1, "{text}");
}
