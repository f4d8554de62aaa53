//! Compute programs whose buffers depend on the order in which their
//! invocations' atomics or same-address stores land: buffer_atomics,
//! c_atomics and small_and_wide_ints (tests/runs/cuda_all). No two correct
//! implementations need agree on those words, so the H100's capture of our
//! cubin (tests/reference/cuda/NAME) is checked the way the program's own
//! tests check the simulator: every word the program determines equals the
//! simulator's, and every order-dependent word is a value some order of the
//! same operations gives (docs/CUBIN.md, "Order-dependent programs").

use spvsass::backend::target::Arch;
use spvsass::reference::Capture;
use spvsass::simulate_run::{SimulateOptions, simulate_run_file};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The simulator's buffers and the H100's, by binding, for `name`.
fn buffers(name: &str) -> (Vec<Vec<u32>>, Vec<Vec<u32>>) {
    let run = root().join(format!("tests/runs/cuda_all/{name}.json"));
    let h100 = Capture::read(&root().join(format!("tests/reference/cuda/{name}")))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        h100.result
            .device
            .driver_info
            .contains("spvsass sm90 cubin"),
        "{name}: not a capture of our own cubin"
    );
    let options = SimulateOptions {
        arch: Some(Arch::Sm90),
        ..SimulateOptions::default()
    };
    let sim = simulate_run_file(&run, &options).unwrap_or_else(|e| panic!("{e}"));
    let words = |c: &Capture| c.result.buffers.iter().map(|b| b.words.clone()).collect();
    (words(&sim.capture), words(&h100))
}

/// The values of `v` in order (a multiset).
fn sorted(mut v: Vec<u32>) -> Vec<u32> {
    v.sort_unstable();
    v
}

/// buffer_atomics.comp, 2 workgroups of 64 (the description's counters
/// start at 1, 8, 2, 9, 3): the compare-and-swap never finds 0, so the
/// lock word keeps its value; the counter counts every add (its start
/// plus 128, plus up to 128 odd exchanges, or an index up to 63 that an
/// atomicMax raised it to); the signed word ends as one invocation's `-i`
/// or one returned counter value; the slot as one invocation's index.
#[test]
fn buffer_atomics_on_the_h100_is_an_order_of_its_atomics() {
    let (sim, h100) = buffers("buffer_atomics");
    for b in [&sim, &h100] {
        let [u, s, _bits, slot, lock] = [b[0][0], b[0][1], b[0][2], b[0][3], b[0][4]];
        assert_eq!(lock, sim[0][4], "lock");
        assert!((129..=1 + 63 + 128 + 128).contains(&u), "u = {u}");
        let s = s as i32;
        assert!((-63..=1 + 63 + 128 + 128).contains(&s), "s = {s}");
        assert!(slot < 64, "slot = {slot}");
        assert_eq!(b[0][5..], sim[0][5..], "past the counters");
    }
}

/// c_atomics.comp, 2 workgroups of 96: every total but the exchanged word
/// equals the simulator's (sums, counts, minima, maxima and bit operations
/// do not depend on the order); the old values the atomics returned are
/// the simulator's in another order (tickets, compare-and-swap counts, the
/// exchanged values with the final word, and each workgroup's shared
/// tickets); per-workgroup totals are equal.
#[test]
fn c_atomics_on_the_h100_is_an_order_of_its_atomics() {
    let (sim, h100) = buffers("c_atomics");
    assert_eq!(sim[0], h100[0], "inputs");
    for (w, (a, b)) in sim[1].iter().zip(&h100[1]).enumerate() {
        if w != 9 {
            assert_eq!(a, b, "totals word {w}");
        }
    }
    let n = 2 * 96;
    let column = |b: &Vec<Vec<u32>>, k: usize, range: std::ops::Range<usize>| -> Vec<u32> {
        range.map(|i| b[2][4 * i + k]).collect()
    };
    for k in [0, 2] {
        assert_eq!(
            sorted(column(&sim, k, 0..n)),
            sorted(column(&h100, k, 0..n)),
            "column {k}"
        );
    }
    for g in 0..2 {
        let r = g * 96..(g + 1) * 96;
        assert_eq!(
            sorted(column(&sim, 3, r.clone())),
            sorted(column(&h100, 3, r)),
            "group {g}"
        );
    }
    let exchanged = |b: &Vec<Vec<u32>>| {
        let mut v = column(b, 1, 0..n);
        v.push(b[1][9]);
        sorted(v)
    };
    assert_eq!(exchanged(&sim), exchanged(&h100), "exchanges");
    assert_eq!(sim[2][4 * n..], h100[2][4 * n..], "past the old values");
    assert_eq!(sim[3], h100[3], "per-workgroup totals");
}

/// small_and_wide_ints.comp, 2 workgroups of 32: the byte and short
/// buffers are equal; `total` and `signedTotal`, which every invocation
/// stores, hold the value of one invocation each.
#[test]
fn small_and_wide_ints_on_the_h100_keeps_one_invocation_s_store() {
    let (sim, h100) = buffers("small_and_wide_ints");
    assert_eq!(sim[0], h100[0], "bytes");
    assert_eq!(sim[1], h100[1], "shorts");
    let run: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/runs/cuda_all/small_and_wide_ints.json"))
            .expect("description"),
    )
    .expect("json");
    let input = |b: usize| -> Vec<u32> {
        run["buffers"][b]["contents"][0]["u32"]
            .as_array()
            .expect("u32 contents")
            .iter()
            .map(|v| v.as_u64().expect("u32") as u32)
            .collect()
    };
    let bytes: Vec<u8> = input(0).iter().flat_map(|w| w.to_le_bytes()).collect();
    let shorts: Vec<i16> = input(1)
        .iter()
        .flat_map(|w| [*w as u16 as i16, (*w >> 16) as u16 as i16])
        .collect();
    for b in [&sim, &h100] {
        let total = u64::from(b[2][0]) | u64::from(b[2][1]) << 32;
        let signed = (u64::from(b[2][2]) | u64::from(b[2][3]) << 32) as i64;
        assert!(
            (0..64u64).any(|id| total == (id << 40) + u64::from(bytes[id as usize])),
            "total {total:#x}"
        );
        assert!(
            (0..64).any(|id| signed == i64::from(shorts[id]) * -5),
            "signedTotal {signed}"
        );
        assert_eq!(b[2][4..], sim[2][4..], "past the two totals");
    }
}
