//! res_sets.comp's results computed on the CPU from a run description's
//! inputs (tests/runs/res_sets.json, res_dynamic.json): shared by
//! tests/resources.rs (the simulator) and tests/reference_lavapipe.rs.

use spvsass::reference::{RunDescription, resolve_data};
use std::path::PathBuf;

pub fn runs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/runs")
}

pub fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The words of the range a descriptor of `desc` shows (its offset and
/// range applied), by set, binding and element.
pub fn bound(desc: &RunDescription, set: u32, binding: u32, element: u32) -> Vec<u32> {
    let b = desc
        .buffers
        .iter()
        .find(|b| (b.set, b.binding, b.element) == (set, binding, element))
        .expect("the description binds it");
    let all = resolve_data(&b.contents, &runs(), "input", b.kind.limit()).expect("input data");
    let end = b.range.map_or(all.len(), |r| (b.offset + r) as usize);
    words(&all[b.offset as usize..end])
}

/// What res_sets.comp computes from a description's inputs: `o` and the
/// two runtime-array buffers' ranges afterwards.
pub fn expected_res_sets(desc: &RunDescription) -> (Vec<u32>, [Vec<u32>; 2]) {
    let inb = bound(desc, 1, 20, 0);
    let params = bound(desc, 2, 3, 0);
    let arr: Vec<Vec<u32>> = (0..3).map(|e| bound(desc, 3, 1, e)).collect();
    let mut rt = [bound(desc, 3, 2, 0), bound(desc, 3, 2, 1)];
    let sel = [bound(desc, 0, 5, 0)[0], bound(desc, 0, 5, 1)[0]];
    let o = (0..128usize)
        .map(|i| {
            let x = inb[i];
            let a = x.wrapping_mul(params[0]).wrapping_add(params[1]);
            let b = arr[1][i].wrapping_add(arr[i / 64 % 3][i]);
            let g = i / 64;
            let length = (rt[g % 2].len() - 1) as u32;
            let c = rt[(x % 2) as usize][1 + i].wrapping_add(length);
            a.wrapping_add(b.wrapping_mul(16))
                .wrapping_add(c.wrapping_mul(256))
                .wrapping_add(sel[g & 1])
        })
        .collect();
    for x in &inb[..128] {
        rt[(x % 2) as usize][0] += 1;
    }
    (o, rt)
}
