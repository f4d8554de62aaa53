//! vp_sets.comp's results computed on the CPU from a run description's
//! inputs (tests/runs/vp_sets.json): shared by tests/var_ptrs.rs (the
//! simulator) and tests/reference_lavapipe.rs (lavapipe).

use super::res_sets::bound;
use spvsass::reference::RunDescription;

/// The buffers vp_sets.comp reads and writes besides `o`, by
/// (set, binding, element), in the order the shader's four-way select
/// names them: a, b, c[0], c[1].
pub const BUFFERS: [(u32, u32, u32); 4] = [(1, 3, 0), (0, 20, 0), (2, 0, 0), (2, 0, 1)];

/// What vp_sets.comp computes from a description's inputs for its 64
/// invocations: `o` (set 0, binding 0) and the four buffers of
/// [`BUFFERS`] afterwards.
pub fn expected_vp_sets(desc: &RunDescription) -> (Vec<u32>, Vec<Vec<u32>>) {
    let mut bufs: Vec<Vec<u32>> = BUFFERS
        .iter()
        .map(|&(s, b, e)| bound(desc, s, b, e))
        .collect();
    let mut o = bound(desc, 0, 0, 0);
    let (a, b, c0, c1) = (0, 1, 2, 3);
    for x in 0..64usize {
        // o[x] = [a, b, c[0], c[1]][x % 4][x]
        o[x] = bufs[x % 4][x];
        // The loop: c[0], then a, then c[1].
        o[64 + x] = bufs[[c0, a, c1][x % 3]][x + 1];
    }
    for x in 0..64usize {
        // (x & 4 ? b : a)[64 + x] = x + 7, after every read above (no
        // read overlaps these words).
        let which = if x & 4 != 0 { b } else { a };
        bufs[which][64 + x] = x as u32 + 7;
        bufs[x % 4][150] += 1;
    }
    (o, bufs)
}
