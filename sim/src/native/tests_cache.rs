//! The translation cache on disk (`disk_cache.rs`): a program translated
//! again takes every function from it and runs as the compiled code and
//! the interpreter do; either of a function's two entries (under its
//! piece's key and its IR's) finds the code alone; damaged entries, or
//! entries filed under another function's names, are compiled again (and
//! written whole); trimming removes the least recently used entries.

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
        // Each function under two keys: its piece's and its IR's.
        assert_eq!(entries(dir).len() as u64, 2 * functions);
        let (again, taken) = run_cached(&program, 32, Some(dir));
        assert_eq!(
            (taken.functions, taken.cached, taken.error),
            (functions, functions, None)
        );
        assert_eq!(first, interp);
        assert_eq!(again, interp);
        assert_eq!(entries(dir).len() as u64, 2 * functions);
    }
}

/// The converged loop, a cache directory its run filled, the
/// interpreter's end of the run and the loop's function's two entries
/// (under its piece's key and its IR's).
fn filled() -> (Program, CacheDir, End, Vec<PathBuf>) {
    let [(program, _), _] = programs();
    let scratch = CacheDir::new();
    let (interp, _) = run_cached(&program, 32, None);
    run_cached(&program, 32, Some(scratch.0));
    let list = entries(scratch.0);
    assert_eq!(list.len(), 2, "the piece's and the IR's");
    (program, scratch, interp, list)
}

#[test]
fn damaged_entries_are_compiled_again_and_rewritten() {
    let (program, scratch, interp, list) = filled();
    let (program, dir) = (&program, scratch.0);
    let wholes: Vec<Vec<u8>> = list
        .iter()
        .map(|e| std::fs::read(e).expect("the entry"))
        .collect();
    type Damage = fn(&[u8]) -> Vec<u8>;
    let damages: [(&str, Damage); 4] = [
        ("truncated", |w| w[..w.len() / 2].to_vec()),
        ("one code byte changed", |w| {
            let mut v = w.to_vec();
            v[w.len() / 2] ^= 0x40;
            v
        }),
        ("empty", |_| Vec::new()),
        ("one byte longer", |w| [w, &[0]].concat()),
    ];
    for (what, damage) in damages {
        for (entry, whole) in list.iter().zip(&wholes) {
            std::fs::write(entry, damage(whole)).expect("entry written");
        }
        let (end, stats) = run_cached(program, 32, Some(dir));
        assert_eq!((stats.cached, stats.error), (0, None), "{what}");
        assert_eq!(end, interp, "{what}");
        for (entry, whole) in list.iter().zip(&wholes) {
            assert_eq!(&std::fs::read(entry).expect("rewritten"), whole, "{what}");
        }
        let (end, stats) = run_cached(program, 32, Some(dir));
        assert_eq!(stats.cached, 1, "{what}");
        assert_eq!(end, interp, "{what}");
    }
}

/// With either of a function's two entries gone, the other one still
/// gives its code; a hit under the IR's key alone files the code under
/// the piece's key again (a hit under the piece's key builds no IR, so
/// the other stays missing).
#[test]
fn either_key_alone_finds_the_code() {
    let (program, scratch, interp, list) = filled();
    let (program, dir) = (&program, scratch.0);
    let mut restored = 0;
    for entry in &list {
        let whole = std::fs::read(entry).expect("the entry");
        std::fs::remove_file(entry).expect("removed");
        let (end, stats) = run_cached(program, 32, Some(dir));
        assert_eq!((stats.cached, stats.error), (1, None));
        assert_eq!(end, interp);
        match std::fs::read(entry) {
            Ok(again) => {
                assert_eq!(again, whole);
                restored += 1;
            }
            Err(_) => std::fs::write(entry, &whole).expect("put back"),
        }
    }
    assert_eq!(restored, 1, "the piece's entry, made from the IR's");
}

#[test]
fn entries_filed_under_another_name_are_refused() {
    let a = decoded(&headed_loop(&imad_fma(), None, 30)).expect("encodable");
    let b = decoded(&headed_loop(&imad_fma(), None, 31)).expect("encodable");
    let scratch = CacheDir::new();
    let dir = scratch.0;
    let (interp_b, _) = run_cached(&b, 32, None);
    run_cached(&a, 32, Some(dir));
    let of_a = entries(dir);
    run_cached(&b, 32, Some(dir));
    let of_b: Vec<PathBuf> = entries(dir)
        .into_iter()
        .filter(|p| !of_a.contains(p))
        .collect();
    assert_eq!((of_a.len(), of_b.len()), (2, 2));
    for (from, to) in of_a.iter().zip(&of_b) {
        std::fs::copy(from, to).expect("a's entry under b's name");
    }
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

/// A translation the cache holds whole is made on the calling thread
/// when it is started (no thread is started for it, and the code is there
/// at once); one the cache misses is started on a thread of its own.
#[test]
fn a_translation_the_cache_holds_is_made_where_it_is_started() {
    let (program, scratch, _, _) = filled();
    let how = |cache| super::Translation { workers: 1, cache };
    let warm = super::NativeCache::default();
    warm.start_early(program.instrs(), how(Some(scratch.0)));
    assert!(super::lock(&warm.worker).is_none(), "no thread was started");
    let code = warm.code.get().expect("the code, at once");
    assert_eq!((code.stats.functions, code.stats.cached), (1, 1));
    let empty = CacheDir::new();
    let cold = super::NativeCache::default();
    cold.start_early(program.instrs(), how(Some(empty.0)));
    let thread = super::lock(&cold.worker)
        .take()
        .expect("a translating thread");
    thread.join().expect("translated");
    let code = cold.code.get().expect("the code");
    assert_eq!((code.stats.functions, code.stats.cached), (1, 0));
}
