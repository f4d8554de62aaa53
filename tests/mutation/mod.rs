//! Mutations of inputs for the mutation tests (tests/input_mutations.rs,
//! the command line's in src/cli_mutations.rs): edits of bytes, of
//! 32-bit words (set to values near the limits) and of numbers in text,
//! drawn by proptest from a fixed seed, so a failure reproduces and
//! shrinks to the fewest edits.
//!
//! `SPVSASS_MUTATION_CASES` sets the cases per target (the long run,
//! scripts/fuzz-inputs.sh) and `SPVSASS_MUTATION_SEED` the seed; without
//! them each target runs a few hundred cases from seed 0.

#![allow(dead_code)]

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::time::Instant;

/// Values that sit on or past the limits a reader checks.
pub const INTERESTING: &[u32] = &[
    0,
    1,
    2,
    3,
    4,
    7,
    8,
    16,
    31,
    32,
    33,
    64,
    127,
    128,
    129,
    255,
    256,
    257,
    1023,
    1024,
    1025,
    0x7fff,
    0x8000,
    0xffff,
    0x1_0000,
    0x1_0001,
    28672,
    49152,
    0x40_0000,
    0x40_0001,
    0x800_0000,
    0x800_0001,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_fffe,
    0xffff_ffff,
];

/// Numbers to put where text holds one.
pub const INTERESTING_TEXT: &[&str] = &[
    "0",
    "-1",
    "1",
    "4294967295",
    "4294967296",
    "18446744073709551616",
    "1e12",
    "1e400",
    "99999999999999",
    "-2147483648",
    "0x7fffffff",
    "nan",
    "inf",
    "0.5",
    "",
    "00000000001",
    "65536",
    "134217729",
    "4194305",
];

#[derive(Clone, Debug)]
pub enum Edit {
    Flip(Index, u8),
    Byte(Index, u8),
    /// The aligned word at the index becomes the value.
    Word(Index, u32),
    Cut(Index),
    Insert(Index, Vec<u8>),
    Remove(Index, usize),
    /// Copies a run of bytes to another place.
    Duplicate(Index, usize, Index),
    /// The n-th number of the text (digits, a sign, a dot) becomes this.
    Number(Index, &'static str),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        3 => (any::<Index>(), 0..8u8).prop_map(|(i, b)| Edit::Flip(i, b)),
        2 => (any::<Index>(), any::<u8>()).prop_map(|(i, b)| Edit::Byte(i, b)),
        4 => (any::<Index>(), prop_oneof![
            3 => proptest::sample::select(INTERESTING),
            1 => any::<u32>(),
        ]).prop_map(|(i, v)| Edit::Word(i, v)),
        1 => any::<Index>().prop_map(Edit::Cut),
        1 => (any::<Index>(), proptest::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(i, b)| Edit::Insert(i, b)),
        1 => (any::<Index>(), 1..16usize).prop_map(|(i, n)| Edit::Remove(i, n)),
        1 => (any::<Index>(), 1..64usize, any::<Index>())
            .prop_map(|(f, n, t)| Edit::Duplicate(f, n, t)),
        3 => (any::<Index>(), proptest::sample::select(INTERESTING_TEXT))
            .prop_map(|(i, s)| Edit::Number(i, s)),
    ]
}

/// One to five edits.
pub fn edits() -> impl Strategy<Value = Vec<Edit>> {
    proptest::collection::vec(edit(), 1..6)
}

/// Applies `edits` to `bytes`.
pub fn apply(bytes: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut b = bytes.to_vec();
    for e in edits {
        let n = b.len().max(1);
        match e {
            Edit::Flip(i, bit) => {
                if !b.is_empty() {
                    b[i.index(n)] ^= 1 << bit;
                }
            }
            Edit::Byte(i, v) => {
                if !b.is_empty() {
                    b[i.index(n)] = *v;
                }
            }
            Edit::Word(i, v) => {
                let at = i.index(n) & !3;
                if at + 4 <= b.len() {
                    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
                }
            }
            Edit::Cut(i) => b.truncate(i.index(n + 1)),
            Edit::Insert(i, bytes) => {
                let at = i.index(n + 1).min(b.len());
                b.splice(at..at, bytes.iter().copied());
            }
            Edit::Remove(i, len) => {
                let at = i.index(n).min(b.len());
                let end = (at + len).min(b.len());
                b.drain(at..end);
            }
            Edit::Duplicate(from, len, to) => {
                let at = from.index(n).min(b.len());
                let run: Vec<u8> = b[at..(at + len).min(b.len())].to_vec();
                let to = to.index(n + 1).min(b.len());
                b.splice(to..to, run);
            }
            Edit::Number(i, text) => {
                let numbers = number_spans(&b);
                if !numbers.is_empty() {
                    let (s, e) = numbers[i.index(numbers.len())];
                    b.splice(s..e, text.bytes());
                }
            }
        }
    }
    b
}

/// The byte ranges of the numbers in `b`: runs of digits with a sign, a
/// dot, an exponent or a hex prefix.
fn number_spans(b: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let start = if i > 0 && b[i - 1] == b'-' { i - 1 } else { i };
            let mut end = i;
            while end < b.len()
                && (b[end].is_ascii_hexdigit() || matches!(b[end], b'.' | b'x' | b'e' | b'E'))
            {
                end += 1;
            }
            spans.push((start, end));
            i = end;
        } else {
            i += 1;
        }
    }
    spans
}

/// Cases per target: `SPVSASS_MUTATION_CASES`, else `default`.
pub fn cases(default: u32) -> u32 {
    std::env::var("SPVSASS_MUTATION_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs `test` on `cases(default)` mutations of the seeds, from the seed
/// `SPVSASS_MUTATION_SEED` (0 by default), and prints the rate. `test`
/// gets the seed's index and the mutated bytes; it panics on a failure.
pub fn run_target(target: &str, seeds: &[Vec<u8>], default: u32, test: impl Fn(usize, &[u8])) {
    let n = cases(default);
    let seed: u64 = std::env::var("SPVSASS_MUTATION_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..8 + target.len().min(24)].copy_from_slice(&target.as_bytes()[..target.len().min(24)]);
    let config = Config {
        cases: n,
        failure_persistence: None,
        max_shrink_iters: 2000,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &key));
    let start = Instant::now();
    let strategy = (0..seeds.len(), edits());
    // Executions actually made: a failure stops the cases early, and
    // shrinking it adds some.
    let executions = std::sync::atomic::AtomicU64::new(0);
    let result = runner.run(&strategy, |(which, edits)| {
        executions.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let bytes = apply(&seeds[which], &edits);
        test(which, &bytes);
        Ok(())
    });
    let secs = start.elapsed().as_secs_f64();
    let executions = executions.into_inner();
    println!(
        "mutations {target}: {executions} executions in {secs:.2} s ({:.0}/s), seed {seed}",
        executions as f64 / secs
    );
    if let Err(e) = result {
        panic!("{target}: {e}");
    }
}
