//! CPU time of each phase of a compile (the thread CPU clock, as in
//! `compile_cpu`), for the corpus (mean per compile over every shader) or
//! for the shaders named as arguments and the generated shader at each
//! scale (`generated`). The phases are those of
//! `spvsass_backend::compile::compile`, run one by one by
//! `spvsass_backend::phases::run_phases`. Each reading costs a system call (about a microsecond), so
//! the smallest phases read high.
//! `cargo bench -p spvsass-backend --bench compile_phases -- [NAME...]`.

mod common;

/// The allocator the `spvsass` binary uses (src/main.rs), so that these
/// figures are those of a compile the CLI runs; a library caller keeps
/// its own. BENCHMARKS.md gives glibc's malloc figures beside them.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use common::{SCALES, corpus, scaling_shader};
use spvsass_backend::compile::BackendOptions;
use spvsass_backend::frontend::{FrontendOptions, translate, words_from_bytes};
use spvsass_backend::phases::run_phases;

/// Nanoseconds this thread has run on a CPU.
fn cpu_ns() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for clock_gettime to write.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    u64::try_from(t.tv_sec).unwrap_or(0) * 1_000_000_000 + u64::try_from(t.tv_nsec).unwrap_or(0)
}

/// Phase names and nanoseconds, summed over compiles.
type Totals = Vec<(&'static str, u64)>;

/// One compile of `bytes` (a shader that compiles), each phase's CPU time
/// added to `totals`.
fn compile_timed(bytes: &[u8], totals: &mut Totals) {
    let opts = BackendOptions::default();
    let mut next = 0;
    let mut t = cpu_ns();
    let mut lap = |name: &'static str, totals: &mut Totals| {
        let now = cpu_ns();
        if totals.len() <= next {
            totals.push((name, 0));
        }
        totals[next].1 += now - t;
        next += 1;
        t = cpu_ns();
    };
    let words = words_from_bytes(bytes).expect("words");
    let sh = translate(&words, &FrontendOptions::default()).expect("translate");
    lap("load+translate", totals);
    run_phases(&sh, &opts, &mut |name| lap(name, totals)).expect("compiles");
}

fn print(what: &str, totals: &Totals, compiles: u32) {
    let us = |ns: u64| ns as f64 / f64::from(compiles) / 1000.0;
    let total: u64 = totals.iter().map(|t| t.1).sum();
    println!("{what}: {:.1} µs per compile", us(total));
    for &(name, ns) in totals {
        println!(
            "  {name:<16} {:8.1} µs {:5.1}%",
            us(ns),
            100.0 * ns as f64 / total as f64
        );
    }
}

fn main() {
    let names: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if names.iter().any(|n| n == "generated") {
        for units in SCALES {
            let mut totals = Totals::new();
            let compiles = (1000 / units).max(3);
            for _ in 0..compiles {
                compile_timed(&scaling_shader(units), &mut totals);
            }
            print(&format!("generated, {units}x"), &totals, compiles);
        }
    }
    let mut all = Totals::new();
    let mut compiles = 0;
    for (name, bytes) in corpus() {
        if names.is_empty() {
            for _ in 0..20 {
                compile_timed(&bytes, &mut all);
            }
            compiles += 20;
        } else if names.iter().any(|n| name.contains(n.as_str())) {
            let mut totals = Totals::new();
            for _ in 0..200 {
                compile_timed(&bytes, &mut totals);
            }
            print(&name, &totals, 200);
        }
    }
    if compiles > 0 {
        print("corpus (mean)", &all, compiles);
    }
}
