//! CPU time of one whole compile, per corpus shader and for the generated
//! shader at 1×, 10×, 100× and 1000×: the thread's own CPU clock
//! (`CLOCK_THREAD_CPUTIME_ID`, nanosecond resolution), which time waiting
//! for a core does not inflate, unlike criterion's wall clock on a shared
//! machine. (/proc/thread-self/schedstat, used before, advances in
//! scheduler ticks on some kernels: a 50 µs compile read as 0 or 4 ms.)
//! Median over 9 batches of repeated compiles.
//! `cargo bench -p spvsass-backend --bench compile_cpu`.

mod common;

/// The allocator the `spvsass` binary uses (src/main.rs), so that these
/// figures are those of a compile the CLI runs; a library caller keeps
/// its own. BENCHMARKS.md gives glibc's malloc figures beside them.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use common::{SCALES, compile_bytes, corpus, scaling_shader};
use std::hint::black_box;

/// Nanoseconds this thread has run on a CPU.
fn cpu_ns() -> Option<u64> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for clock_gettime to write.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    let secs = u64::try_from(t.tv_sec).ok()?;
    let nanos = u64::try_from(t.tv_nsec).ok()?;
    (rc == 0).then_some(secs * 1_000_000_000 + nanos)
}

/// Median CPU time of one compile of `bytes`, in microseconds.
fn median_us(bytes: &[u8]) -> Option<f64> {
    // Batches of 20 ms of CPU each, so that a batch holds many compiles of
    // a small shader and the clock reads are a negligible part of it.
    let t0 = cpu_ns()?;
    let mut per_batch = 0u64;
    while cpu_ns()? - t0 < 20_000_000 {
        let _ = black_box(compile_bytes(black_box(bytes)));
        per_batch += 1;
    }
    let mut samples = Vec::new();
    for _ in 0..9 {
        let t = cpu_ns()?;
        for _ in 0..per_batch {
            let _ = black_box(compile_bytes(black_box(bytes)));
        }
        samples.push((cpu_ns()? - t) as f64 / per_batch as f64 / 1000.0);
    }
    samples.sort_by(f64::total_cmp);
    Some(samples[samples.len() / 2])
}

fn main() {
    // Arguments that are not flags (cargo passes `--bench`) pick shaders
    // whose names contain one of them; the generated shader is named
    // `generated`.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted = |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f));
    if cpu_ns().is_none() {
        println!("the thread CPU clock is not readable: no CPU times here");
        return;
    }
    // Per section, and per section above the one-section shader (the
    // fixed cost of a compile taken out): flat when compile time grows
    // linearly.
    let mut one = None;
    for units in SCALES.into_iter().filter(|_| wanted("generated")) {
        let bytes = scaling_shader(units);
        if let Err(e) = compile_bytes(&bytes) {
            println!("generated, {units}x: does not compile: {e}");
            continue;
        }
        if let Some(us) = median_us(&bytes) {
            let marginal = match one {
                Some(base) if units > 1 => {
                    format!(
                        ", {:.2} µs per added section",
                        (us - base) / f64::from(units - 1)
                    )
                }
                _ => String::new(),
            };
            println!(
                "generated, {units}x ({units} sections): {us:.1} µs ({:.2} µs per section{marginal})",
                us / f64::from(units)
            );
            if units == 1 {
                one = Some(us);
            }
        }
    }
    let mut all = Vec::new();
    println!("{:<36} {:>12}", "shader", "CPU / compile");
    for (name, bytes) in corpus().into_iter().filter(|(n, _)| wanted(n)) {
        if let Some(us) = median_us(&bytes) {
            println!("{name:<36} {us:>9.1} µs");
            all.push(us);
        }
    }
    all.sort_by(f64::total_cmp);
    if let (Some(first), Some(last)) = (all.first(), all.last()) {
        println!(
            "{} shaders: min {first:.1} µs, median {:.1} µs, max {last:.1} µs",
            all.len(),
            all[all.len() / 2]
        );
    }
}
