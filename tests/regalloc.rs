//! Register allocation end to end: shaders whose allocation once failed
//! regalloc2's checker (loop-carried values through split back edges) and
//! one that needs more registers than the file has, compiled and run in
//! the simulator, every output checked against the same computation here.

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::sim::ComputeInputs;
use std::collections::BTreeMap;

fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Runs `name` with the given storage buffers and returns every buffer's
/// words afterwards.
fn run(name: &str, groups: u32, buffers: &[(u32, Vec<u32>)]) -> BTreeMap<u32, Vec<u32>> {
    let compiled = common::compile(name, Arch::Sm86);
    let inputs = ComputeInputs {
        buffers: buffers.iter().map(|(b, w)| (*b, bytes_of(w))).collect(),
        ..Default::default()
    };
    let run = spvsass::Dispatch::new(&compiled.binary, [groups, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    run.buffers
        .iter()
        .map(|(b, bytes)| (*b, words_of(bytes)))
        .collect()
}

/// tests/shaders/loops_break_continue.comp.glsl on the CPU.
fn loops_break_continue(id: u32) -> i32 {
    let mut acc: i32 = 0;
    for i in 0..100 {
        if i % 3 == 0 {
            continue;
        }
        if acc > 1000 {
            break;
        }
        let mut j = 0;
        loop {
            j += 1;
            if j > i {
                break;
            }
            if j & 1 == 0 {
                continue;
            }
            acc += j;
        }
    }
    let mut k = id as i32;
    loop {
        k = if k & 1 != 0 {
            k.wrapping_mul(3).wrapping_add(1)
        } else {
            k / 2
        };
        acc += 1;
        if !(k > 1 && acc < 5000) {
            break;
        }
    }
    acc
}

#[test]
fn nested_loops_with_break_and_continue() {
    // Collatz step counts differ per lane, so lanes leave the do-while
    // loop at different trips.
    let out = run("loops_break_continue.comp", 2, &[(0, vec![0; 64])]);
    for (id, &got) in out[&0].iter().enumerate() {
        assert_eq!(got as i32, loops_break_continue(id as u32), "data[{id}]");
    }
}

/// tests/shaders/phi_heavy_loop.comp.spvasm on the CPU: three phis
/// rotating (a, b) <- (b, a + b), a break to the merge with the sum, and
/// the loop's normal exit passing the old b.
fn phi_heavy_loop(x: u32) -> u32 {
    let (mut i, mut a, mut b) = (0u32, x, 1u32);
    loop {
        let sum = a.wrapping_add(b);
        if sum > 1000 {
            return sum;
        }
        i += 1;
        if i >= 10 {
            return b;
        }
        (a, b) = (b, sum);
    }
}

#[test]
fn loop_carried_phis_through_a_split_back_edge() {
    // 64 invocations x 4 workgroups: small ids run all ten trips, large
    // ones break out early.
    let out = run("phi_heavy_loop.comp", 4, &[(0, vec![0; 256])]);
    let mut early = 0;
    for (x, &got) in out[&0].iter().enumerate() {
        let expected = phi_heavy_loop(x as u32);
        early += usize::from(expected > 1000);
        assert_eq!(got, expected, "buf[{x}]");
    }
    assert!(early > 0 && early < 256, "both exits taken ({early} early)");
}

#[test]
fn over_a_hundred_live_values_spill_to_local_memory_and_compute_right() {
    // c_pressure.comp loads 120 words per invocation before it uses any,
    // then folds them as s = s * 3 + v[k] from k = 119 down to 0.
    let compiled = common::compile("c_pressure.comp", Arch::Sm86);
    let binary = &compiled.binary;
    let listing = spvsass::listing(binary, false).unwrap();
    // At the peak 120 values are live and at most 64 are in registers:
    // 56 or more sit in spill slots, each stored once at least.
    let stores = listing.lines().filter(|l| l.contains(" STL ")).count();
    let loads = listing.lines().filter(|l| l.contains(" LDL ")).count();
    assert!(stores >= 56 && loads >= 56, "{stores} STL, {loads} LDL");
    let local = binary.compute.expect("a compute binary").local_bytes;
    assert!(local >= 56 * 4, "{local} bytes of local memory");
    assert_eq!(binary.num_gprs, 64, "spilling uses the whole register file");
    assert!(
        listing.contains("// registers: 64 GPRs"),
        "{}",
        listing.lines().nth(1).unwrap_or("")
    );

    let a: Vec<u32> = (0..64 * 120u32)
        .map(|i| i.wrapping_mul(2_654_435_761) ^ (i >> 3))
        .collect();
    let out = run("c_pressure.comp", 2, &[(0, a.clone()), (1, vec![0; 64])]);
    for (id, &got) in out[&1].iter().enumerate() {
        let v = &a[id * 120..id * 120 + 120];
        let expected = v
            .iter()
            .rev()
            .fold(0u32, |s, &x| s.wrapping_mul(3).wrapping_add(x));
        assert_eq!(got, expected, "o[{id}]");
    }
}

#[test]
fn twelve_live_predicates_spill_through_a_scratch_gpr() {
    // c_pred_pressure.comp keeps 12 comparisons live (P0..P6 hold seven),
    // then folds them as s = s * 2 + c[k] from k = 11 down to 0.
    let compiled = common::compile("c_pred_pressure.comp", Arch::Sm86);
    let binary = &compiled.binary;
    let listing = spvsass::listing(binary, false).unwrap();
    // A predicate is stored as a word (SEL 1 or 0, STL) and read back
    // (LDL, ISETP.NE) through a GPR.
    let lines: Vec<&str> = listing.lines().collect();
    let spills = lines
        .windows(2)
        .filter(|w| w[0].contains(" SEL ") && w[0].contains(", !P") && w[1].contains(" STL "))
        .count();
    let reloads = lines
        .windows(2)
        .filter(|w| w[0].contains(" LDL ") && w[1].contains(" ISETP.NE.U32.AND P"))
        .count();
    assert!(
        spills >= 5 && reloads >= 5,
        "{spills} spills, {reloads} reloads"
    );
    // Few values besides the predicates: the scratch register is one of
    // a small file, not R63.
    assert!(binary.num_gprs <= 32, "{} GPRs", binary.num_gprs);

    let a: Vec<u32> = (0..64 * 12u32).map(|i| (i * 37) % 131).collect();
    let out = run(
        "c_pred_pressure.comp",
        2,
        &[(0, a.clone()), (1, vec![0; 64])],
    );
    for (id, &got) in out[&1].iter().enumerate() {
        let expected = (0..12u32).rev().fold(0, |s, k| {
            s * 2 + u32::from(a[id * 12 + k as usize] > k * 10)
        });
        assert_eq!(got, expected, "o[{id}]");
    }
}
