//! CPU time of one whole compile, per corpus shader and for the generated
//! shader at 1×, 10×, 100× and 1000×: the thread's own run time from
//! /proc/thread-self/schedstat (Linux), which time waiting for a core does
//! not inflate, unlike criterion's wall clock on a shared machine. Median
//! over 9 batches of repeated compiles.
//! `cargo bench -p spvsass-backend --bench compile_cpu`.

mod common;

use common::{SCALES, compile_bytes, corpus, scaling_shader};
use std::hint::black_box;

/// Nanoseconds this thread has run on a CPU.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Median CPU time of one compile of `bytes`, in microseconds.
fn median_us(bytes: &[u8]) -> Option<f64> {
    // The run time advances at scheduler events, not continuously: size
    // batches by compiling until 20 ms of CPU have passed.
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
    if cpu_ns().is_none() {
        println!("/proc/thread-self/schedstat is not readable: no CPU times here");
        return;
    }
    // Per section, and per section above the one-section shader (the
    // fixed cost of a compile taken out): flat when compile time grows
    // linearly.
    let mut one = None;
    for units in SCALES {
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
    for (name, bytes) in corpus() {
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
