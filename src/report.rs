//! The readable text form of a simulated mesh draw (`spvsass run` without
//! `--json`).

use crate::sim::{Attributes, MeshDraw};
use std::fmt::Write;

fn attrs(out: &mut String, a: &Attributes) {
    // Writing into a String cannot fail.
    if let Some([x, y, z, w]) = a.position {
        let _ = write!(out, " position ({x}, {y}, {z}, {w})");
    }
    if let Some(s) = a.point_size {
        let _ = write!(out, " point_size {s}");
    }
    let ints = [
        ("primitive_id", a.primitive_id),
        ("layer", a.layer),
        ("viewport", a.viewport_index),
        ("shading_rate", a.shading_rate),
    ];
    for (name, v) in ints {
        if let Some(v) = v {
            let _ = write!(out, " {name} {v}");
        }
    }
    if a.cull == Some(true) {
        out.push_str(" culled");
    }
    for (loc, comps) in &a.generic {
        let c: Vec<String> = comps
            .iter()
            .map(|c| c.map_or("-".into(), |v| v.to_string()))
            .collect();
        let _ = write!(out, " location{loc} ({})", c.join(", "));
    }
    for (name, distances) in [("clip", &a.clip_distance), ("cull", &a.cull_distance)] {
        for (k, v) in distances {
            let _ = write!(out, " {name}{k} {v}");
        }
    }
    for (addr, bits) in &a.other {
        let _ = write!(out, " [{addr:#05x}] {bits:#010x}");
    }
}

pub fn describe(draw: &MeshDraw) -> String {
    let mut s = String::new();
    for (i, t) in draw.tasks.iter().enumerate() {
        let [x, y, z] = t.id;
        let [mx, my, mz] = t.mesh_groups;
        let _ = writeln!(
            s,
            "task workgroup {i} ({x}, {y}, {z}): launches {mx}x{my}x{mz} mesh workgroups"
        );
    }
    for wg in &draw.workgroups {
        let [x, y, z] = wg.id;
        if let Some(t) = wg.task_workgroup {
            let _ = write!(s, "task {t} ");
        }
        let _ = writeln!(
            s,
            "workgroup ({x}, {y}, {z}): {} {}",
            wg.primitive_count, draw.topology
        );
        for (i, idx) in wg.indices.iter().enumerate() {
            let list: Vec<String> = idx.iter().map(|v| v.to_string()).collect();
            let _ = write!(s, "  primitive {i}: vertices ({})", list.join(", "));
            if let Some(p) = wg.primitives.get(i) {
                attrs(&mut s, p);
            }
            s.push('\n');
        }
        for (i, v) in wg.vertices.iter().enumerate() {
            let _ = write!(s, "  vertex {i}:");
            attrs(&mut s, v);
            s.push('\n');
        }
    }
    let c = &draw.counters;
    let _ = writeln!(
        s,
        "executed: {} warp-instructions, {} thread-instructions",
        c.warp_instructions, c.thread_instructions
    );
    let st = &draw.statistics;
    let _ = writeln!(
        s,
        "statistics: {} task invocations, {} mesh invocations, {} mesh primitives generated",
        st.task_invocations, st.mesh_invocations, st.mesh_primitives_generated
    );
    s
}
