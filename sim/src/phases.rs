//! Time stamps of a run's phases, for seeing where its wall time goes:
//! with `SPVSASS_PHASES` set, each stamp writes a line `phase NAME MS` to
//! standard error, MS being the milliseconds since `start` (the CLI calls
//! it first thing in `main`) or else since the first stamp. Unset, a stamp
//! costs one load of a flag. `scripts/run-phases.py` runs commands with it
//! and prints each stamp's median (BENCHMARKS.md, "Serial time of a
//! 16-thread run").

use std::sync::OnceLock;
use std::time::Instant;

static ON: OnceLock<bool> = OnceLock::new();
static START: OnceLock<Instant> = OnceLock::new();

fn on() -> bool {
    *ON.get_or_init(|| std::env::var_os("SPVSASS_PHASES").is_some())
}

/// Sets the time the stamps count from (once: later calls do nothing).
pub fn start() {
    if on() {
        START.get_or_init(Instant::now);
    }
}

/// Writes the stamp `name`, if stamps are on.
pub fn stamp(name: &str) {
    if on() {
        let ms = START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e3;
        eprintln!("phase {name} {ms:.3}");
    }
}
