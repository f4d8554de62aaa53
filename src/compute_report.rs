//! The text and JSON forms of a simulated compute dispatch (`spvsass run`
//! on a compute shader).

use crate::sim::ComputeRun;
use std::fmt::Write;

/// Words shown per buffer in the text summary; `--out` writes them all.
const PREVIEW_WORDS: usize = 8;

fn words(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    bytes
        .chunks(4)
        .map(|c| c.iter().rev().fold(0u32, |w, &b| w << 8 | u32::from(b)))
}

pub fn describe_compute(run: &ComputeRun) -> String {
    let mut s = String::new();
    // Writing into a String cannot fail.
    let _ = writeln!(
        s,
        "dispatch: {} workgroups of {} warps",
        run.workgroups, run.warps
    );
    for (binding, bytes) in &run.buffers {
        let shown: Vec<String> = words(bytes)
            .take(PREVIEW_WORDS)
            .map(|w| format!("{w:#010x}"))
            .collect();
        let more = if bytes.len() > 4 * PREVIEW_WORDS {
            " ..."
        } else {
            ""
        };
        let _ = writeln!(
            s,
            "buffer {binding}: {} bytes: {}{more}",
            bytes.len(),
            shown.join(" ")
        );
    }
    let c = &run.counters;
    let _ = writeln!(
        s,
        "executed: {} warp-instructions, {} thread-instructions",
        c.warp_instructions, c.thread_instructions
    );
    s
}

/// The dispatch as JSON: counts, counters and every buffer as u32 words
/// (little-endian; a trailing partial word is zero-extended).
pub fn compute_json(run: &ComputeRun) -> serde_json::Value {
    let buffers: serde_json::Map<String, serde_json::Value> = run
        .buffers
        .iter()
        .map(|(b, bytes)| {
            (
                b.to_string(),
                serde_json::json!({
                    "bytes": bytes.len(),
                    "words": words(bytes).collect::<Vec<u32>>(),
                }),
            )
        })
        .collect();
    serde_json::json!({
        "workgroups": run.workgroups,
        "warps_per_workgroup": run.warps,
        "counters": run.counters,
        "buffers": buffers,
    })
}
