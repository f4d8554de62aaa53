//! Running the workgroups of a grid so that the result does not depend on
//! the host's thread count.

use crate::memory::Resources;
use rayon::prelude::*;

/// Runs `run` for workgroups `0..n` and returns their results in launch
/// order; the first error in that order wins.
///
/// When no workgroup can see what another writes (each has its own ISBE
/// and memories, and `writes_global` is false or no buffer is bound), they
/// run in parallel, each with its own copy of `resources` (copies share the
/// buffers' bytes). Otherwise they share global memory: they run one after
/// another in launch order on `resources` and stop at the first error, so
/// the buffers' final contents are the same whatever the thread count
/// (Vulkan leaves the order of a draw's workgroups open; launch order is
/// one valid choice).
pub(crate) fn in_launch_order<T: Send, E: Send>(
    n: u32,
    resources: &mut Resources,
    writes_global: bool,
    run: impl Fn(u32, &mut Resources) -> Result<T, E> + Sync,
) -> Result<Vec<T>, E> {
    if !writes_global || resources.global.is_empty() {
        let template = &*resources;
        let runs: Vec<Result<T, E>> = (0..n)
            .into_par_iter()
            .map(|i| run(i, &mut template.clone()))
            .collect();
        runs.into_iter().collect()
    } else {
        (0..n).map(|i| run(i, resources)).collect()
    }
}
