//! Running the workgroups of a grid so that the result does not depend on
//! the host's thread count.

use crate::memory::Resources;
use crate::mesh::QueryBlock;
use rayon::prelude::*;

/// Runs `run` for workgroups `0..n` and returns their results in launch
/// order; the first error in that order wins, and `keep` sees each result
/// in that order (an error it returns, such as a budget the draw has
/// passed, also stops the run there).
///
/// The workgroups run in chunks of a few per thread, so an error stops the
/// draw within one chunk of the workgroup that failed, and the results
/// held at any time are those kept so far plus one chunk. In a chunk,
/// workgroups first run in parallel, each on its own copy of `resources`
/// (copies share the buffers' bytes until one writes). That is the draw's
/// result if no workgroup wrote a bound buffer: then none could see what
/// another did. The statistics `query` block is left out of that test:
/// every task and mesh program adds its counts into it (RED.E.ADD), and
/// `run` zeroes it before each workgroup and reads it after, so what a
/// workgroup counts never depends on another. Deciding this from the code
/// alone would need proof that each reduction targets the block (its
/// address comes from the root table through registers), and a purely
/// static `writes_global` would serialize every draw; so the test is on
/// what the run did. If any workgroup wrote another buffer, the parallel
/// results are discarded and the workgroups run again, one after another
/// in launch order on the shared `resources`, stopping at the first
/// error, so the buffers' final contents are the same whatever the thread
/// count (Vulkan leaves the order of a draw's workgroups open; launch
/// order is one valid choice). Chunks that wrote nothing left `resources`
/// as they were, so the chunk after them starts from the memory the
/// sequential run would have; from the first chunk that wrote on, every
/// workgroup runs sequentially. `may_write` (`Program::writes_global`)
/// false skips the test.
pub(crate) fn in_launch_order<T: Send, E: Send>(
    n: u32,
    resources: &mut Resources,
    query: QueryBlock,
    may_write: bool,
    run: impl Fn(u32, &mut Resources) -> Result<T, E> + Sync,
    mut keep: impl FnMut(&T) -> Result<(), E>,
) -> Result<Vec<T>, E> {
    let chunk_len = (rayon::current_num_threads() * CHUNK_PER_THREAD) as u32;
    let mut kept = Vec::new();
    let mut sequential = false;
    let mut start = 0;
    while start < n {
        let end = n.min(start.saturating_add(chunk_len));
        if !sequential {
            let template = &*resources;
            let runs: Vec<(Result<T, E>, bool)> = (start..end)
                .into_par_iter()
                .map(|i| {
                    let mut own = template.clone();
                    let result = run(i, &mut own);
                    let wrote =
                        may_write && own.global.written_since(&template.global, query.base());
                    (result, wrote)
                })
                .collect();
            if runs.iter().all(|(_, wrote)| !wrote) {
                for (result, _) in runs {
                    let value = result?;
                    keep(&value)?;
                    kept.push(value);
                }
                start = end;
                continue;
            }
            sequential = true;
        }
        for i in start..end {
            let value = run(i, resources)?;
            keep(&value)?;
            kept.push(value);
        }
        start = end;
    }
    Ok(kept)
}

/// Workgroups per rayon thread in one chunk.
const CHUNK_PER_THREAD: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::draw_root;
    use spvsass_isa::abi::RootTable;

    /// A draw's memory: one bound 4-byte buffer (at the returned base),
    /// then the query block.
    fn draw_memory() -> (Resources, u64, QueryBlock) {
        let mut resources = Resources::default();
        let buffer = resources.global.map(vec![0; 4]);
        let query = draw_root(
            &mut RootTable::default(),
            &mut resources,
            [8, 1, 1],
            &crate::SimOptions::default(),
        );
        (resources, buffer, query)
    }

    fn add(resources: &mut Resources, at: u64, value: u32) -> u32 {
        let old = resources.global.read(at, 4).expect("mapped");
        let old = u32::from_le_bytes(old.try_into().expect("4 bytes"));
        let new = old * 10 + value;
        resources
            .global
            .write(at, &new.to_le_bytes())
            .expect("mapped");
        old
    }

    #[test]
    fn counting_into_the_query_block_runs_on_copies() {
        let (mut resources, _, query) = draw_memory();
        let counts = in_launch_order(
            8,
            &mut resources,
            query,
            true,
            |i, r| {
                query.reset(r);
                add(r, query.base(), i + 1);
                Ok::<_, ()>(query.statistics(r).task_invocations)
            },
            |_| Ok(()),
        )
        .expect("runs");
        // Each workgroup counted from zero, and the shared memory was
        // left alone: they ran on copies, not one after another.
        assert_eq!(counts, (1..=8).collect::<Vec<u64>>());
        assert_eq!(query.statistics(&resources).task_invocations, 0);
    }

    #[test]
    fn writing_a_bound_buffer_runs_in_launch_order() {
        let (mut resources, buffer, query) = draw_memory();
        let seen = in_launch_order(
            5,
            &mut resources,
            query,
            true,
            |i, r| Ok::<_, ()>(add(r, buffer, i + 1)),
            |_| Ok(()),
        )
        .expect("runs");
        // Every workgroup saw the ones before it in launch order.
        assert_eq!(seen, vec![0, 1, 12, 123, 1234]);
        let end = resources.global.read(buffer, 4).expect("mapped");
        assert_eq!(u32::from_le_bytes(end.try_into().expect("4 bytes")), 12345);
    }

    #[test]
    fn an_error_stops_the_run_within_a_chunk() {
        let (mut resources, _, query) = draw_memory();
        let ran = std::sync::atomic::AtomicU32::new(0);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build();
        let result = pool.expect("pool").install(|| {
            in_launch_order(
                1_000_000,
                &mut resources,
                query,
                false,
                |i, _| {
                    ran.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i == 3 { Err(i) } else { Ok(i) }
                },
                |_| Ok(()),
            )
        });
        assert_eq!(result, Err(3));
        // One chunk of 2 x 16 workgroups ran, not the million.
        assert_eq!(ran.into_inner(), 32);
    }

    #[test]
    fn keep_sees_results_in_order_and_can_stop_the_run() {
        let (mut resources, _, query) = draw_memory();
        let mut seen = Vec::new();
        let result = in_launch_order(
            100,
            &mut resources,
            query,
            false,
            |i, _| Ok(i),
            |&i| {
                seen.push(i);
                if i == 40 { Err(i) } else { Ok(()) }
            },
        );
        assert_eq!(result, Err(40));
        assert_eq!(seen, (0..=40).collect::<Vec<u32>>());
    }
}
