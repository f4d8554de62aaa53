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
//! global pool, which a draw's workgroups use. A pool's threads start as
//! a tree, each new thread starting two more before it takes jobs, and
//! the pool is handed out as soon as the first is started: a dispatch's
//! jobs wait in the pool's queue for the threads as they come up.

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
    let pending = Arc::new(Mutex::new(Vec::with_capacity(threads)));
    let queued = Arc::clone(&pending);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|n| format!("workgroups-{n}"))
        .spawn_handler(move |thread| {
            lock(&queued).push(thread);
            Ok(())
        })
        .build()
        .ok()
        .map(Arc::new)?;
    // The pool's threads start as a tree (each new one starts two more
    // before it takes jobs), and a dispatch hands the pool its jobs while
    // they come up: rayon starts them one after another on the calling
    // thread, 0.6–0.9 ms for sixteen on the 16-core host, where the tree
    // ran a first job after 0.3 ms and had all sixteen by 1.1 ms
    // (BENCHMARKS.md, "Compile cache and workers started as a tree").
    let first = lock(&pending).pop();
    // Without a first thread no job would ever run: no pool then.
    if first.is_none_or(|t| start(t, &pending).is_err()) {
        return None;
    }
    pools.push((threads, pool.clone()));
    Some(pool)
}

/// rayon's worker threads not started yet.
type Pending = Arc<Mutex<Vec<rayon::ThreadBuilder>>>;

/// Locks a list of workers to start (one that panicked while holding it
/// left it whole: every update is one push or pop).
fn lock(pending: &Pending) -> std::sync::MutexGuard<'_, Vec<rayon::ThreadBuilder>> {
    pending.lock().unwrap_or_else(|p| p.into_inner())
}

/// Starts `thread` on a thread of its own, which first starts up to two
/// of the `pending` ones (each of which does the same) and then runs as
/// the pool's worker. A worker that cannot be started is left out: the
/// pool's jobs then run on the others.
fn start(thread: rayon::ThreadBuilder, pending: &Pending) -> std::io::Result<()> {
    let mut builder = std::thread::Builder::new();
    if let Some(name) = thread.name() {
        builder = builder.name(name.to_owned());
    }
    if let Some(size) = thread.stack_size() {
        builder = builder.stack_size(size);
    }
    let pending = Arc::clone(pending);
    builder.spawn(move || {
        for _ in 0..2 {
            let Some(next) = lock(&pending).pop() else {
                break;
            };
            if start(next, &pending).is_err() {
                break;
            }
        }
        thread.run();
    })?;
    Ok(())
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

    /// Every thread of a pool comes up (started as a tree), each running
    /// jobs.
    #[test]
    fn every_thread_of_a_pool_runs_jobs() {
        let threads = 9;
        let pool = pool(threads).expect("threads start");
        let seen = Mutex::new(std::collections::BTreeSet::new());
        let count = || seen.lock().expect("not poisoned").len();
        // One job per thread, each waiting (up to two seconds) until every
        // thread has taken one: a thread that never came up leaves its job
        // to another, after the wait, and the set short.
        pool.in_place_scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|_| {
                    let index = rayon::current_thread_index().expect("a pool thread");
                    seen.lock().expect("not poisoned").insert(index);
                    let begun = std::time::Instant::now();
                    while count() < threads && begun.elapsed().as_secs() < 2 {
                        std::thread::sleep(std::time::Duration::from_millis(1));
                    }
                });
            }
        });
        let seen = seen.into_inner().expect("not poisoned");
        assert_eq!(seen, (0..threads).collect());
    }

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
