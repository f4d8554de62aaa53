//! Running a compute dispatch's workgroups in parallel with the result of
//! running them one after another in launch order.
//!
//! The workgroups run in chunks. In a chunk, every workgroup runs on its
//! own overlaid copy of global memory (`GlobalMemory::overlaid`): it reads
//! the memory as it was when the chunk started, keeps its writes private,
//! and records which bytes it read from that memory (before writing them
//! itself; an atomic reads and writes) and which it wrote. Then, in launch
//! order, workgroup k's effects are kept, by writing its written bytes into
//! the real memory, as long as
//!
//! - it ran without error, and
//! - it read no byte that an earlier workgroup of the chunk wrote.
//!
//! Why that equals the sequential run: suppose workgroups before k are kept
//! and the real memory is now what the sequential run would have after
//! them. It differs from the memory k started with only in bytes those
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
//! The attempt is made only with more than one workgroup and more than one
//! rayon thread; the argument above makes the result the same either way.

use crate::memory::GlobalMemory;
use crate::overlay::Written;
use rayon::prelude::*;

/// Workgroups per rayon thread in one chunk: enough to balance uneven
/// workgroups, few enough that the chunk's overlays stay small.
const CHUNK_PER_THREAD: usize = 16;

/// Runs `run` for each of `ids` (in launch order) with the effects on
/// `global` and the first error of a run in that order; `keep` receives
/// each result in that order, and an error it returns stops the run there.
pub(crate) fn run_in_launch_order<I, T, E>(
    ids: impl Iterator<Item = I>,
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
    let threads = rayon::current_num_threads();
    if threads > 1 {
        let chunk_len = threads * CHUNK_PER_THREAD;
        loop {
            let chunk: Vec<I> = ids.by_ref().take(chunk_len).collect();
            if chunk.len() < 2 && ids.peek().is_none() {
                // One workgroup left (or none): nothing to overlap.
                for id in chunk {
                    keep(run(id, global)?)?;
                }
                return Ok(());
            }
            let template = &*global;
            let runs: Vec<_> = chunk
                .par_iter()
                .map(|&id| {
                    let mut own = template.overlaid();
                    let result = run(id, &mut own);
                    (result, own.into_overlay())
                })
                .collect();
            let mut written = Written::default();
            let mut kept = 0;
            for (result, overlay) in runs {
                let Ok(value) = result else { break };
                if written.read_by(&overlay) {
                    break;
                }
                written.add(&overlay);
                global.apply(&overlay);
                keep(value)?;
                kept += 1;
            }
            if kept < chunk.len() {
                for &id in &chunk[kept..] {
                    keep(run(id, global)?)?;
                }
                break;
            }
        }
    }
    for id in ids {
        keep(run(id, global)?)?;
    }
    Ok(())
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
        // workgroup 0 of the first chunk is kept from the attempt.
        let (results, _, runs) = on_4_threads(100, 100, |i, g, base| {
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
        assert_eq!(runs, 64 + 99, "one chunk of 64, then 99 sequential runs");
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
