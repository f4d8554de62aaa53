//! Running a compute dispatch's workgroups in parallel with the result of
//! running them one after another in launch order.
//!
//! Worker threads take workgroups in launch order, one at a time, and run
//! each on its own overlaid copy of global memory (`GlobalMemory::overlaid`)
//! of one snapshot, the memory as it was when the attempt started: it reads
//! the snapshot, keeps its writes private, and records which bytes it read
//! from the snapshot (before writing them itself; an atomic reads and
//! writes) and which it wrote. The calling thread meanwhile commits the
//! finished workgroups in launch order: workgroup k's effects are kept, by
//! writing its written bytes into the real memory, as long as
//!
//! - it ran without error, and
//! - it read no byte that an earlier workgroup of the attempt wrote.
//!
//! Why that equals the sequential run: suppose workgroups before k are kept
//! and the real memory is now what the sequential run would have after
//! them. It differs from the snapshot k started with only in bytes those
//! workgroups wrote, and k read none of them, so k, a deterministic
//! function of what it reads, did the same reads, the same writes and
//! computed the same values as it would have sequentially. Writing its
//! written bytes over the memory is exactly the sequential run's effect of
//! k (a byte an earlier workgroup also wrote gets k's value, as it would
//! sequentially; a byte a later workgroup only read was read before k
//! wrote it, as sequentially). By induction, every kept workgroup matches.
//!
//! At the first workgroup that failed or read an earlier one's write, the
//! attempt stops: its results and those of later workgroups are dropped,
//! and from it on the workgroups run sequentially on the real memory,
//! stopping at the first error, so an error is the one the sequential run
//! reports. (Workgroups that conflict, like those counting with atomics into
//! one word, would mostly conflict again; retrying in parallel would waste
//! the work.)
//!
//! Scaling (ARCHITECTURE.md, "Native tier"): there is no barrier between
//! groups of workgroups, and the commits, which are serial, run beside the
//! workers instead of between their rounds, so a worker only waits when it
//! is more than `WINDOW_PER_THREAD` workgroups per thread ahead of the
//! oldest workgroup not yet committed (which bounds the memory the
//! finished but uncommitted results hold). The real memory's written
//! buffers are copied once per attempt (copy on write: the workers still
//! read the snapshot's).
//!
//! The attempt is made only with more than one workgroup and more than one
//! worker thread (`SimOptions::worker_threads`: the CLI takes the count
//! from `RAYON_NUM_THREADS` or the machine's CPUs); the argument above
//! makes the result the same either way.

use crate::memory::GlobalMemory;
use crate::overlay::{Overlay, Written};
use std::collections::BTreeMap;
use std::sync::mpsc;
use std::sync::{Condvar, Mutex, MutexGuard};

/// How far ahead of the oldest uncommitted workgroup the workers may run,
/// per thread: enough to ride over uneven workgroups, few enough that the
/// finished results stay small.
pub(crate) const WINDOW_PER_THREAD: usize = 16;

/// What the workers share: the workgroups not yet taken, and how far the
/// commits got.
struct Queue<It> {
    ids: It,
    /// Launch-order index of the next workgroup to take.
    next: usize,
    /// Workgroups committed (or given up: `stop`).
    committed: usize,
    /// Set when the attempt ends early: workers take no more workgroups.
    stop: bool,
}

/// A finished workgroup: its launch-order index, id, result and effects.
type Finished<I, T, E> = (usize, I, Result<T, E>, Overlay);

/// Locks the queue (a worker that panicked while holding it left it
/// consistent: every update is one assignment).
fn lock<It>(m: &Mutex<Queue<It>>) -> MutexGuard<'_, Queue<It>> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Runs `run` for each of `ids` (in launch order) with the effects on
/// `global` and the first error of a run in that order; `keep` receives
/// each result in that order, and an error it returns stops the run there.
pub(crate) fn run_in_launch_order<I, T, E>(
    threads: usize,
    ids: impl Iterator<Item = I> + Send,
    global: &mut GlobalMemory,
    run: impl Fn(I, &mut GlobalMemory) -> Result<T, E> + Sync,
    mut keep: impl FnMut(T) -> Result<(), E>,
) -> Result<(), E>
where
    I: Copy + Send + Sync,
    T: Send,
    E: Send,
{
    let mut ids = ids.peekable();
    let first = ids.next();
    let Some(first) = first else { return Ok(()) };
    if threads < 2 || ids.peek().is_none() {
        keep(run(first, global)?)?;
        for id in ids {
            keep(run(id, global)?)?;
        }
        return Ok(());
    }
    let window = threads * WINDOW_PER_THREAD;
    let snapshot = global.overlaid();
    let queue = Mutex::new(Queue {
        ids: std::iter::once(first).chain(ids),
        next: 0,
        committed: 0,
        stop: false,
    });
    let moved = Condvar::new();
    let (send, receive) = mpsc::channel::<Finished<I, T, E>>();
    // The workers are the jobs of a pool kept for the process
    // (`workers.rs`): started by an earlier dispatch or beside the
    // compile, not here.
    let pool = crate::workers::pool(threads);
    let ended = match &pool {
        // No thread could start: everything runs sequentially.
        None => Ended::Early(BTreeMap::new()),
        Some(pool) => pool.in_place_scope(|scope| {
            for _ in 0..threads {
                let send = send.clone();
                let (queue, moved, snapshot, run) = (&queue, &moved, &snapshot, &run);
                scope.spawn(move |_| {
                    loop {
                        let (k, id) = {
                            let mut q = lock(queue);
                            while !q.stop && q.next >= q.committed + window {
                                q = moved.wait(q).unwrap_or_else(|p| p.into_inner());
                            }
                            if q.stop {
                                return;
                            }
                            let Some(id) = q.ids.next() else { return };
                            q.next += 1;
                            (q.next - 1, id)
                        };
                        let mut own = snapshot.overlaid();
                        let result = run(id, &mut own);
                        if send.send((k, id, result, own.into_overlay())).is_err() {
                            return;
                        }
                    }
                });
            }
            drop(send);
            crate::phases::stamp("workers_started");
            commit(&receive, global, &mut keep, |committed| {
                let mut q = lock(&queue);
                match committed {
                    Some(n) => q.committed = n,
                    None => q.stop = true,
                }
                drop(q);
                moved.notify_all();
            })
        }),
    };
    crate::phases::stamp("workers_joined");
    let (taken, keep_error) = match ended {
        Ended::Done => return Ok(()),
        Ended::Early(taken) => (taken, None),
        Ended::KeepFailed(e) => (BTreeMap::new(), Some(e)),
    };
    if let Some(e) = keep_error {
        return Err(e);
    }
    // Sequentially from the first workgroup not kept: those the workers
    // took (each was sent back before they stopped), then the others.
    let rest = queue.into_inner().unwrap_or_else(|p| p.into_inner()).ids;
    for id in taken.into_values().chain(rest) {
        keep(run(id, global)?)?;
    }
    Ok(())
}

/// How an attempt ended.
enum Ended<I, E> {
    /// Every workgroup was kept.
    Done,
    /// At a workgroup that failed or read an earlier one's write: it and
    /// the later workgroups the workers took, by launch-order index.
    Early(BTreeMap<usize, I>),
    /// `keep` returned this error.
    KeepFailed(E),
}

/// The calling thread's side of an attempt: receives the finished
/// workgroups, commits them in launch order into `global` and hands their
/// results to `keep`; `progress` tells the workers how many are committed,
/// or (`None`) that the attempt has ended. Returns when every worker has
/// stopped.
fn commit<I, T, E>(
    receive: &mpsc::Receiver<Finished<I, T, E>>,
    global: &mut GlobalMemory,
    keep: &mut impl FnMut(T) -> Result<(), E>,
    progress: impl Fn(Option<usize>),
) -> Ended<I, E> {
    let mut pending: BTreeMap<usize, (I, Result<T, E>, Overlay)> = BTreeMap::new();
    let mut written = Written::default();
    let mut next = 0;
    let mut ended = Ended::Done;
    let mut first = true;
    while let Ok((k, id, result, overlay)) = receive.recv() {
        if std::mem::take(&mut first) {
            crate::phases::stamp("first_result");
        }
        match &mut ended {
            Ended::Done => {}
            Ended::Early(taken) => {
                taken.insert(k, id);
                continue;
            }
            Ended::KeepFailed(_) => continue,
        }
        pending.insert(k, (id, result, overlay));
        let before = next;
        while let Some((id, result, overlay)) = pending.remove(&next) {
            let value = match result {
                Ok(v) if !written.read_by(&overlay) => v,
                _ => {
                    let mut taken = BTreeMap::from([(next, id)]);
                    taken.extend(
                        std::mem::take(&mut pending)
                            .into_iter()
                            .map(|(k, p)| (k, p.0)),
                    );
                    ended = Ended::Early(taken);
                    break;
                }
            };
            written.add(&overlay);
            global.apply(&overlay);
            next += 1;
            if let Err(e) = keep(value) {
                ended = Ended::KeepFailed(e);
                break;
            }
        }
        match ended {
            Ended::Done if next > before => progress(Some(next)),
            Ended::Done => {}
            Ended::Early(_) | Ended::KeepFailed(_) => progress(None),
        }
    }
    crate::phases::stamp("last_result");
    ended
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::BUFFER_STRIDE;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn word(global: &mut GlobalMemory, addr: u64) -> u32 {
        let bytes = global.read(addr, 4).expect("mapped");
        u32::from_le_bytes(bytes.try_into().expect("4 bytes"))
    }

    /// Runs workgroups `0..n` with `body` on 4 threads; returns the
    /// results, the memory and how many times `body` ran.
    fn on_4_threads(
        n: u32,
        words: usize,
        body: impl Fn(u32, &mut GlobalMemory, u64) -> Result<u32, u32> + Sync,
    ) -> (Result<Vec<u32>, u32>, GlobalMemory, usize) {
        let mut global = GlobalMemory::default();
        let base = global.map(vec![0; words * 4]);
        let runs = AtomicUsize::new(0);
        let mut results = Vec::new();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build();
        let result = pool.expect("thread pool").install(|| {
            run_in_launch_order(
                rayon::current_num_threads(),
                0..n,
                &mut global,
                |i, g| {
                    runs.fetch_add(1, Ordering::Relaxed);
                    body(i, g, base)
                },
                |r| {
                    results.push(r);
                    Ok(())
                },
            )
        });
        (result.map(|()| results), global, runs.into_inner())
    }

    #[test]
    fn disjoint_workgroups_run_once() {
        let (results, mut global, runs) = on_4_threads(100, 100, |i, g, base| {
            let at = base + u64::from(i) * 4;
            g.write(at, &(i * 2).to_le_bytes()).expect("mapped");
            Ok(word(g, at))
        });
        assert_eq!(results, Ok((0..100).map(|i| i * 2).collect()));
        assert_eq!(runs, 100, "no workgroup ran twice");
        // The first buffer is mapped at BUFFER_STRIDE.
        assert_eq!(word(&mut global, BUFFER_STRIDE + 99 * 4), 198);
    }

    #[test]
    fn reading_an_earlier_write_reruns_from_there_on() {
        // Workgroup i reads word i - 1, which workgroup i - 1 wrote: only
        // workgroup 0 is kept from the attempt, workgroups 1.. run again
        // in order (those the workers had taken, then the others).
        let (results, mut global, runs) = on_4_threads(100, 100, |i, g, base| {
            let before = if i == 0 {
                0
            } else {
                word(g, base + u64::from(i - 1) * 4)
            };
            g.write(base + u64::from(i) * 4, &(before + 1).to_le_bytes())
                .expect("mapped");
            Ok(before)
        });
        assert_eq!(results, Ok((0..100).collect()));
        assert_eq!(word(&mut global, BUFFER_STRIDE + 99 * 4), 100);
        // At least workgroups 0 and 1 ran in the attempt, at most the
        // window of 4 threads past the one committed workgroup (0, kept
        // before 1's conflict stops the attempt); 99 ran again.
        let window = 4 * WINDOW_PER_THREAD;
        assert!(
            (100 + 1..=1 + window + 99).contains(&runs),
            "{runs} runs: the attempt stopped within its window"
        );
    }

    #[test]
    fn a_keep_error_stops_the_run() {
        let mut global = GlobalMemory::default();
        let mut kept = Vec::new();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build();
        let result = pool.expect("thread pool").install(|| {
            run_in_launch_order(
                rayon::current_num_threads(),
                0..1000u32,
                &mut global,
                |i, _| Ok::<u32, u32>(i),
                |i| {
                    kept.push(i);
                    if i == 500 { Err(i) } else { Ok(()) }
                },
            )
        });
        assert_eq!(result, Err(500));
        assert_eq!(kept, (0..=500).collect::<Vec<_>>());
    }

    #[test]
    fn results_are_kept_in_launch_order_whatever_the_finishing_order() {
        // Early workgroups take longest, so later ones finish first.
        let (results, _, runs) = on_4_threads(64, 64, |i, g, base| {
            std::thread::sleep(std::time::Duration::from_micros(u64::from(64 - i) * 50));
            g.write(base + u64::from(i) * 4, &i.to_le_bytes())
                .expect("mapped");
            Ok(i)
        });
        assert_eq!(results, Ok((0..64).collect()));
        assert_eq!(runs, 64);
    }

    #[test]
    fn the_first_error_in_launch_order_wins() {
        // In the attempt workgroups 10 and 20 fail; sequentially 10 does.
        let (results, _, _) = on_4_threads(100, 1, |i, _, _| match i {
            10 | 20 => Err(i),
            _ => Ok(i),
        });
        assert_eq!(results, Err(10));
    }
}
