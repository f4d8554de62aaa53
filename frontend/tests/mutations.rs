//! Corrupted modules give an error, never a panic. Each test applies one
//! kind of mutation — bit flips, truncation, id corruption, opcode and
//! word-count corruption — to valid corpus modules, a bounded number of
//! times with a fixed seed (so a failure reproduces), and translates the
//! result. A mutated module may still be valid (a flipped constant), so
//! only truncation must always fail; every mutation must not panic.

use crate::common;

use common::*;
use spvsass_frontend::{FrontendError, FrontendOptions, translate, words_from_bytes};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Modules that together hold every kind of instruction the frontend
/// translates: inlined calls, switches, phis, atomics, subgroup ops,
/// spec constants, pointers, mesh and task outputs.
const MODULES: &[&str] = &[
    "tests/shaders/meshlet_cone_culling.task.spv",
    "tests/shaders/meshlet_instanced.mesh.spv",
    "tests/shaders/function_calls.comp.spv",
    "tests/shaders/switch_fallthrough.comp.spv",
    "tests/shaders/phi_heavy_loop.comp.spv",
    "tests/shaders/spec_op_quantize.comp.spv",
    "tests/shaders/buffer_device_address.comp.spv",
    "tests/shaders/subgroup_vote_shuffle.comp.spv",
];

/// Mutations per module and kind.
const PER_MODULE: usize = 250;

/// xorshift64*: a fixed, dependency-free sequence.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Translates `words` and fails the test with the mutation's description
/// on a panic. The module with specialization constants gets an override,
/// so that path is exercised too.
fn translate_without_panic(words: &[u32], what: &str) -> Result<(), FrontendError> {
    let spec_constants = match what.starts_with("tests/shaders/spec_op_quantize") {
        true => vec![(7, "3".parse().unwrap())],
        false => Vec::new(),
    };
    let options = FrontendOptions {
        entry: None,
        spec_constants,
    };
    match catch_unwind(AssertUnwindSafe(|| translate(words, &options))) {
        Ok(result) => result.map(|_| ()),
        Err(_) => panic!("translation panicked on {what}"),
    }
}

/// Runs `mutate` PER_MODULE times on each module.
fn mutate_all(seed: u64, mut mutate: impl FnMut(&mut Rng, &mut Vec<u32>) -> String) {
    let mut rng = Rng(seed);
    for path in MODULES {
        let words = words_of(path);
        for round in 0..PER_MODULE {
            let mut bad = words.clone();
            let what = mutate(&mut rng, &mut bad);
            let _ = translate_without_panic(&bad, &format!("{path} round {round}: {what}"));
        }
    }
}

/// The start of every instruction after the header.
fn instruction_starts(words: &[u32]) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut at = 5;
    while at < words.len() {
        starts.push(at);
        at += ((words[at] >> 16) as usize).max(1);
    }
    starts
}

#[test]
fn bit_flips_never_panic() {
    mutate_all(0x5eed_0001, |rng, words| {
        let flips = 1 + rng.below(3);
        let mut what = String::new();
        for _ in 0..flips {
            let index = 5 + rng.below(words.len() - 5);
            let bit = rng.below(32);
            words[index] ^= 1 << bit;
            what += &format!("flip word {index} bit {bit}; ");
        }
        what
    });
}

#[test]
fn id_corruption_never_panics() {
    mutate_all(0x5eed_0002, |rng, words| {
        let bound = words[3];
        // Operand words (not the opcode word) that hold an id-sized value.
        let starts = instruction_starts(words);
        let candidates: Vec<usize> = (5..words.len())
            .filter(|i| !starts.contains(i) && words[*i] > 0 && words[*i] < bound)
            .collect();
        let index = candidates[rng.below(candidates.len())];
        let new = match rng.below(3) {
            0 => rng.below(bound as usize) as u32,
            1 => bound + rng.below(16) as u32,
            _ => 0,
        };
        let what = format!("word {index}: id {} -> {new}", words[index]);
        words[index] = new;
        what
    });
}

#[test]
fn opcode_and_word_count_corruption_never_panics() {
    mutate_all(0x5eed_0003, |rng, words| {
        let starts = instruction_starts(words);
        let at = starts[rng.below(starts.len())];
        let (count, opcode) = (words[at] >> 16, words[at] & 0xffff);
        if rng.below(2) == 0 {
            // Another opcode with the same operands: a real one most times.
            let new = rng.below(400) as u32;
            words[at] = (count << 16) | new;
            format!("instruction at {at}: opcode {opcode} -> {new}")
        } else {
            let new = (count as usize + rng.below(5)).saturating_sub(2) as u32;
            words[at] = (new << 16) | opcode;
            format!("instruction at {at}: word count {count} -> {new}")
        }
    });
}

#[test]
fn truncation_is_always_an_error() {
    for path in MODULES {
        let words = words_of(path);
        let starts = instruction_starts(&words);
        // Cutting inside the last instruction, or right after it but
        // before the function ends, leaves the module incomplete.
        for cut in (0..words.len()).step_by(7).chain(starts) {
            let result = translate_without_panic(&words[..cut], &format!("{path} cut at {cut}"));
            assert!(result.is_err(), "{path} cut at word {cut} translated");
        }
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        for cut in (0..bytes.len()).filter(|c| c % 4 != 0).step_by(13) {
            assert!(
                words_from_bytes(&bytes[..cut]).is_err(),
                "{path} cut at byte {cut}"
            );
        }
    }
}
