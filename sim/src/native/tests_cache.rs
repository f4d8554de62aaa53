//! The translation cache on disk (`disk_cache.rs`): a program translated
//! again takes every function from it and runs as the compiled code and
//! the interpreter do; a damaged entry, or one filed under another
//! function's name, is compiled again (and the entry written whole);
//! trimming removes the oldest entries.

use super::disk_cache;
use super::tests::{
    End, Start, decoded, headed_loop, imad_fma, lane_start, per_lane_count, run_options,
};
use crate::SimOptions;
use crate::native::{NativeStats, Tier};
use crate::program::Program;
use std::path::{Path, PathBuf};

/// A fresh cache directory, removed when the test ends (the options take
/// a `'static` path, so the path itself is leaked: a few bytes).
struct CacheDir(&'static Path);

impl CacheDir {
    fn new() -> CacheDir {
        let dir = tempfile::tempdir().expect("a temporary directory");
        CacheDir(Box::leak(dir.keep().into_boxed_path()))
    }
}

impl Drop for CacheDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(self.0);
    }
}

/// The entries in `dir`, sorted.
fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut list: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|l| l.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    list.retain(|p| p.extension().is_some_and(|e| e == "bin"));
    list.sort();
    list
}

/// Runs a fresh copy of `program` natively on one worker thread with the
/// cache in `dir` (`None`: in the interpreter); returns the end and the
/// translation's statistics.
fn run_cached(program: &Program, lanes: u32, dir: Option<&'static Path>) -> (End, NativeStats) {
    let fresh = program.clone();
    let options = SimOptions {
        max_steps: 100_000,
        tier: if dir.is_some() {
            Tier::Native
        } else {
            Tier::Interp
        },
        check_ctrl: false,
        threads: std::num::NonZeroUsize::new(1),
        translation_cache: dir,
        ..SimOptions::default()
    };
    let (end, _) = run_options(&fresh, &start(), lanes, &options);
    (end, fresh.native_stats().unwrap_or_default())
}

fn start() -> Start {
    lane_start(3, 5)
}

/// A converged loop (one copy, one function) and a loop whose lanes
/// leave apart (both copies: a second function).
fn programs() -> [(Program, u64); 2] {
    let converged = headed_loop(&imad_fma(), None, 30);
    let mut apart = converged.clone();
    apart[0] = per_lane_count(1);
    [(converged, 1), (apart, 2)]
        .map(|(instrs, functions)| (decoded(&instrs).expect("encodable"), functions))
}

#[test]
fn a_program_translated_again_takes_its_code_from_the_cache() {
    for (program, functions) in programs() {
        let scratch = CacheDir::new();
        let dir = scratch.0;
        let (interp, _) = run_cached(&program, 32, None);
        let (first, made) = run_cached(&program, 32, Some(dir));
        assert_eq!(
            (made.functions, made.cached, made.error),
            (functions, 0, None)
        );
        assert_eq!(entries(dir).len() as u64, functions);
        let (again, taken) = run_cached(&program, 32, Some(dir));
        assert_eq!(
            (taken.functions, taken.cached, taken.error),
            (functions, functions, None)
        );
        assert_eq!(first, interp);
        assert_eq!(again, interp);
        assert_eq!(entries(dir).len() as u64, functions);
    }
}

#[test]
fn a_damaged_entry_is_compiled_again_and_rewritten() {
    let (program, _) = &programs()[0];
    let scratch = CacheDir::new();
    let dir = scratch.0;
    let (interp, _) = run_cached(program, 32, None);
    run_cached(program, 32, Some(dir));
    let [entry] = entries(dir).try_into().expect("one entry");
    let whole = std::fs::read(&entry).expect("the entry");
    let mut flipped = whole.clone();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 0x40;
    let damaged: [(&str, Vec<u8>); 4] = [
        ("truncated", whole[..whole.len() / 2].to_vec()),
        ("one code byte changed", flipped),
        ("empty", Vec::new()),
        ("one byte longer", [whole.as_slice(), &[0]].concat()),
    ];
    for (what, bytes) in damaged {
        std::fs::write(&entry, bytes).expect("entry written");
        let (end, stats) = run_cached(program, 32, Some(dir));
        assert_eq!((stats.cached, stats.error), (0, None), "{what}");
        assert_eq!(end, interp, "{what}");
        assert_eq!(std::fs::read(&entry).expect("rewritten"), whole, "{what}");
        let (end, stats) = run_cached(program, 32, Some(dir));
        assert_eq!(stats.cached, 1, "{what}");
        assert_eq!(end, interp, "{what}");
    }
}

#[test]
fn an_entry_filed_under_another_name_is_refused() {
    let a = decoded(&headed_loop(&imad_fma(), None, 30)).expect("encodable");
    let b = decoded(&headed_loop(&imad_fma(), None, 31)).expect("encodable");
    let scratch = CacheDir::new();
    let dir = scratch.0;
    let (interp_b, _) = run_cached(&b, 32, None);
    run_cached(&a, 32, Some(dir));
    let [entry_a] = entries(dir).try_into().expect("one entry");
    run_cached(&b, 32, Some(dir));
    let entry_b = entries(dir)
        .into_iter()
        .find(|p| *p != entry_a)
        .expect("b's own entry");
    std::fs::copy(&entry_a, &entry_b).expect("a's entry under b's name");
    let (end, stats) = run_cached(&b, 32, Some(dir));
    assert_eq!(stats.cached, 0);
    assert_eq!(end, interp_b);
}

#[test]
fn trimming_removes_the_oldest_entries() {
    let scratch = CacheDir::new();
    let dir = scratch.0;
    let epoch = std::time::SystemTime::UNIX_EPOCH;
    for n in 0..12u64 {
        let path = dir.join(format!("{n:02}.bin"));
        std::fs::write(&path, [0u8]).expect("written");
        // Oldest first: entry 11 is the oldest.
        let at = epoch + std::time::Duration::from_secs(1_000_000 - n * 10);
        let file = std::fs::File::options()
            .write(true)
            .open(&path)
            .expect("opened");
        file.set_modified(at).expect("time set");
    }
    std::fs::write(dir.join("notes.txt"), "kept").expect("written");
    // Temporary files of stores: one a killed run left two hours ago,
    // one being written now.
    let stale = dir.join(".entry-stale");
    std::fs::write(&stale, [0u8]).expect("written");
    let two_hours = std::time::Duration::from_secs(7200);
    let file = std::fs::File::options()
        .write(true)
        .open(&stale)
        .expect("opened");
    file.set_modified(std::time::SystemTime::now() - two_hours)
        .expect("time set");
    let fresh = dir.join(".entry-fresh");
    std::fs::write(&fresh, [0u8]).expect("written");
    disk_cache::trim(dir, 16);
    assert!(!stale.exists() && fresh.exists());
    assert_eq!(entries(dir).len(), 12, "under the limit: nothing removed");
    disk_cache::trim(dir, 8);
    let left: Vec<String> = entries(dir)
        .iter()
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    assert_eq!(
        left,
        ["00.bin", "01.bin", "02.bin", "03.bin", "04.bin", "05.bin"]
    );
    assert!(dir.join("notes.txt").exists());
}
