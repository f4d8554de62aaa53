//! Peak heap memory of one whole compile, per corpus shader and for the
//! generated shader at 1×, 10×, 100× and 1000×, measured by a counting global
//! allocator (heap only: the stack and the binary's own pages are not
//! counted). `cargo bench -p spvsass-backend --bench compile_memory`.

mod common;

use common::{SCALES, compile_bytes, corpus, scaling_shader};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; the
// counters only observe sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's layout.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// The heap peak of one compile above what was live before it.
fn peak_of(bytes: &[u8]) -> usize {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let compiled = compile_bytes(bytes);
    let peak = PEAK.load(Ordering::Relaxed) - before;
    drop(compiled);
    peak
}

fn main() {
    // `cargo test --benches` runs bench targets with no arguments too; the
    // measurement is cheap, so it runs either way.
    let mut worst = (0, String::new());
    println!("{:<36} {:>12}", "shader", "peak heap");
    for (name, bytes) in corpus() {
        let p = peak_of(&bytes);
        println!("{name:<36} {:>9.1} KiB", p as f64 / 1024.0);
        if p > worst.0 {
            worst = (p, name);
        }
    }
    println!(
        "largest corpus peak: {} ({:.1} KiB)",
        worst.1,
        worst.0 as f64 / 1024.0
    );
    for units in SCALES {
        let p = peak_of(&scaling_shader(units));
        println!(
            "generated, {units}x ({units} sections): {:.1} KiB",
            p as f64 / 1024.0
        );
    }
}
