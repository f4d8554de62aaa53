//! Running the workgroups of a grid so that the result does not depend on
//! the host's thread count.

use crate::memory::Resources;
use crate::mesh::QueryBlock;
use rayon::prelude::*;

/// Runs `run` for workgroups `0..n` and returns their results in launch
/// order; the first error in that order wins.
///
/// Workgroups first run in parallel, each on its own copy of `resources`
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
/// order is one valid choice). `may_write` (`Program::writes_global`)
/// false skips the test.
pub(crate) fn in_launch_order<T: Send, E: Send>(
    n: u32,
    resources: &mut Resources,
    query: QueryBlock,
    may_write: bool,
    run: impl Fn(u32, &mut Resources) -> Result<T, E> + Sync,
) -> Result<Vec<T>, E> {
    let template = &*resources;
    let runs: Vec<(Result<T, E>, bool)> = (0..n)
        .into_par_iter()
        .map(|i| {
            let mut own = template.clone();
            let result = run(i, &mut own);
            let wrote = may_write && own.global.written_since(&template.global, query.base());
            (result, wrote)
        })
        .collect();
    if runs.iter().all(|(_, wrote)| !wrote) {
        return runs.into_iter().map(|(result, _)| result).collect();
    }
    drop(runs);
    (0..n).map(|i| run(i, resources)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::draw_root;
    use spvsass_backend::abi::{CullControl, RootTable};

    /// A draw's memory: one bound 4-byte buffer (at the returned base),
    /// then the query block.
    fn draw_memory() -> (Resources, u64, QueryBlock) {
        let mut resources = Resources::default();
        let buffer = resources.global.map(vec![0; 4]);
        let query = draw_root(
            &mut RootTable::default(),
            &mut resources,
            [8, 1, 1],
            &CullControl::default(),
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
        let counts = in_launch_order(8, &mut resources, query, true, |i, r| {
            query.reset(r);
            add(r, query.base(), i + 1);
            Ok::<_, ()>(query.statistics(r).task_invocations)
        })
        .expect("runs");
        // Each workgroup counted from zero, and the shared memory was
        // left alone: they ran on copies, not one after another.
        assert_eq!(counts, (1..=8).collect::<Vec<u64>>());
        assert_eq!(query.statistics(&resources).task_invocations, 0);
    }

    #[test]
    fn writing_a_bound_buffer_runs_in_launch_order() {
        let (mut resources, buffer, query) = draw_memory();
        let seen = in_launch_order(5, &mut resources, query, true, |i, r| {
            Ok::<_, ()>(add(r, buffer, i + 1))
        })
        .expect("runs");
        // Every workgroup saw the ones before it in launch order.
        assert_eq!(seen, vec![0, 1, 12, 123, 1234]);
        let end = resources.global.read(buffer, 4).expect("mapped");
        assert_eq!(u32::from_le_bytes(end.try_into().expect("4 bytes")), 12345);
    }
}
