//! The threads a compute dispatch runs its workgroups on
//! (`compute_order.rs`): one pool per thread count, made at the first
//! dispatch that needs it (or earlier, on a thread of its own, when a
//! caller knows that a dispatch is coming: `prestart_workers`) and kept for
//! the process's later dispatches.
//!
//! Starting sixteen threads took about 1 ms of a 22 ms dispatch on the
//! 16-core host, on the calling thread, after the compile and the
//! translation (BENCHMARKS.md, "Workers started beside the compile"); the
//! CLI now starts them while it parses and compiles, and a library caller
//! running many dispatches pays for them once. The pools are rayon's
//! (scoped jobs that borrow the dispatch's state), separate from rayon's
//! global pool, which a draw's workgroups use.

use std::sync::{Arc, Mutex};

/// The pools made so far, by thread count.
static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());

/// The pool of `threads` threads: made on the first call (the others wait
/// for it), the same pool afterwards; `None` if no thread could be
/// started (the dispatch then runs its workgroups on the calling thread).
pub(crate) fn pool(threads: usize) -> Option<Arc<rayon::ThreadPool>> {
    let mut pools = POOLS.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, pool)) = pools.iter().find(|(n, _)| *n == threads) {
        return Some(pool.clone());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|n| format!("workgroups-{n}"))
        .build()
        .ok()
        .map(Arc::new)?;
    pools.push((threads, pool.clone()));
    Some(pool)
}

/// Starts the pool a compute dispatch on `threads` threads will use, on a
/// thread of its own, and returns at once: a caller that is about to
/// parse and compile a shader for such a dispatch starts the workers
/// beside that work. Nothing for fewer than two threads (the workgroups
/// then run on the calling thread). Calling it is never needed: a
/// dispatch makes its pool itself.
pub fn prestart_workers(threads: usize) {
    if threads >= 2 {
        // If the thread cannot start, the dispatch makes the pool.
        let _ = std::thread::Builder::new()
            .name("workgroups-start".into())
            .spawn(move || pool(threads));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A thread count's pool is made once, with that many threads, and
    /// the same pool serves the later dispatches; a prestarted one too.
    #[test]
    fn a_pool_is_made_once_per_thread_count() {
        let a = pool(5).expect("threads start");
        let b = pool(5).expect("threads start");
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(a.current_num_threads(), 5);
        let c = pool(6).expect("threads start");
        assert!(!Arc::ptr_eq(&a, &c));
        assert_eq!(c.current_num_threads(), 6);
        prestart_workers(7);
        let d = pool(7).expect("threads start");
        assert_eq!(d.current_num_threads(), 7);
        assert!(Arc::ptr_eq(&d, &pool(7).expect("threads start")));
    }
}
