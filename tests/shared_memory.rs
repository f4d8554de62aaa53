//! Shared memory of task and mesh shaders in the ISBE and the emulated
//! atomics on it and on the task payload (backend/src/from_ir/shared.rs,
//! atomics.rs), simulated and checked value by value. Where the hardware
//! leaves the order of atomics open, results are checked against every
//! order: the old values must come from some serial order of the lanes.

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::sim::MeshDraw;

fn compile_mesh(mesh: &str, task_present: bool, arch: Arch) -> spvsass::Compiled {
    let options = spvsass::Options {
        arch: Some(arch),
        task_present,
        ..Default::default()
    };
    spvsass::compile(&common::shader_words(mesh), &options)
        .unwrap_or_else(|e| panic!("{mesh}: {e}"))
}

fn draw(task: Option<&str>, mesh: &str, groups: u32, arch: Arch) -> MeshDraw {
    let t = task.map(|t| common::compile(t, arch));
    let m = compile_mesh(mesh, task.is_some(), arch);
    spvsass::Draw::new(t.as_ref().map(|t| &t.binary), &m.binary, [groups, 1, 1])
        .run()
        .map(|r| r.draw)
        .unwrap_or_else(|e| panic!("{mesh}: {e}"))
}

/// The meshlets s_compact*.task keep: `(id * 2654435761) >> 29 < 5`.
fn survivors(group: u32) -> Vec<u32> {
    (group * 32..group * 32 + 32)
        .filter(|id| (id.wrapping_mul(2654435761) >> 29) < 5)
        .collect()
}

/// Each task workgroup launches one mesh workgroup per survivor, and the
/// payload holds the survivors' indices, compacted (in any order).
fn check_compaction(task: &str, arch: Arch) {
    let d = draw(Some(task), "s_compact.mesh", 3, arch);
    for g in 0..3u32 {
        let expected = survivors(g);
        assert_eq!(
            d.tasks[g as usize].mesh_groups,
            [expected.len() as u32, 1, 1]
        );
        let mut got: Vec<u32> = d
            .workgroups
            .iter()
            .filter(|w| w.task_workgroup == Some(g))
            .map(|w| w.vertices[0].position.expect("position")[0] as u32)
            .collect();
        got.sort_unstable();
        assert_eq!(got, expected, "task workgroup {g}");
    }
}

#[test]
fn compaction_aggregated_sm86() {
    check_compaction("s_compact.task", Arch::Sm86);
}

#[test]
fn compaction_aggregated_sm75() {
    check_compaction("s_compact.task", Arch::Sm75);
}

#[test]
fn compaction_match_loop_sm86() {
    check_compaction("s_compact_match.task", Arch::Sm86);
}

#[test]
fn compaction_match_loop_sm75() {
    check_compaction("s_compact_match.task", Arch::Sm75);
}

/// The two task shaders differ in the atomic's lowering only: the
/// aggregated one has no MATCH and runs fewer instructions.
#[test]
fn compaction_paths_differ_as_designed() {
    let agg = common::compile("s_compact.task", Arch::Sm86);
    let lp = common::compile("s_compact_match.task", Arch::Sm86);
    let list_agg = spvsass::listing(&agg.binary, false).expect("listing");
    let list_loop = spvsass::listing(&lp.binary, false).expect("listing");
    assert!(!list_agg.contains("MATCH") && list_agg.contains("POPC"));
    assert!(list_loop.contains("MATCH.ANY"));
    let a = draw(Some("s_compact.task"), "s_compact.mesh", 1, Arch::Sm86);
    let l = draw(
        Some("s_compact_match.task"),
        "s_compact.mesh",
        1,
        Arch::Sm86,
    );
    println!(
        "static: aggregated {} instrs, loop {}; executed warp instrs: aggregated {}, loop {}",
        agg.binary.code.len() / 4,
        lp.binary.code.len() / 4,
        a.counters.warp_instructions,
        l.counters.warp_instructions
    );
    assert!(a.counters.warp_instructions < l.counters.warp_instructions);
}

/// s_reduce.mesh: sum of i * i + g over 32 invocations, and vals[31]
/// untouched by the reduction (31 * 31 + g).
#[test]
fn mesh_shared_reduction() {
    for arch in [Arch::Sm75, Arch::Sm86] {
        let d = draw(None, "s_reduce.mesh", 3, arch);
        for (g, w) in d.workgroups.iter().enumerate() {
            let g = g as u32;
            let sum: u32 = (0..32).map(|i| i * i + g).sum();
            let p = w.vertices[0].position.expect("position");
            assert_eq!(
                [p[0], p[1]],
                [sum as f32, (961 + g) as f32],
                "{arch} group {g}"
            );
        }
    }
}

/// Whether some serial order of the lanes' `operands` applied with `op`
/// from `init` returns `olds` (lane by lane) and leaves `fin`.
fn serializable(
    init: f32,
    operands: &[f32],
    olds: &[f32],
    fin: f32,
    op: fn(f32, f32) -> f32,
) -> bool {
    fn go(cur: f32, left: &mut Vec<(f32, f32)>, fin: f32, op: fn(f32, f32) -> f32) -> bool {
        if left.is_empty() {
            return cur == fin;
        }
        for k in 0..left.len() {
            if left[k].1 == cur {
                let (v, o) = left.swap_remove(k);
                if go(op(cur, v), left, fin, op) {
                    return true;
                }
                left.push((v, o));
                let last = left.len() - 1;
                left.swap(k, last);
            }
        }
        false
    }
    let mut left: Vec<(f32, f32)> = operands.iter().copied().zip(olds.iter().copied()).collect();
    go(init, &mut left, fin, op)
}

struct AtomicCase {
    name: &'static str,
    /// Location, component of the old value (the final one is at +4).
    at: (u32, usize),
    init: f32,
    operand: fn(u32) -> f32,
    op: fn(f32, f32) -> f32,
}

fn bits(f: fn(u32, u32) -> u32) -> impl Fn(f32, f32) -> f32 {
    move |a, b| f(a as u32, b as u32) as f32
}

#[test]
fn every_atomic_op_with_shared_addresses() {
    let cases: Vec<AtomicCase> = vec![
        AtomicCase {
            name: "add",
            at: (0, 0),
            init: 0.0,
            operand: |i| (i + 1) as f32,
            op: |a, b| a + b,
        },
        AtomicCase {
            name: "umin",
            at: (0, 1),
            init: 1000.0,
            operand: |i| (500 + 3 * i) as f32,
            op: f32::min,
        },
        AtomicCase {
            name: "umax",
            at: (0, 2),
            init: 0.0,
            operand: |i| (5 * i) as f32,
            op: f32::max,
        },
        AtomicCase {
            name: "and",
            at: (0, 3),
            init: 255.0,
            operand: |i| (!(1u32 << (i >> 2)) & 0xff) as f32,
            op: |a, b| bits(|x, y| x & y)(a, b),
        },
        AtomicCase {
            name: "or",
            at: (1, 0),
            init: 0.0,
            operand: |i| (1u32 << (i >> 2)) as f32,
            op: |a, b| bits(|x, y| x | y)(a, b),
        },
        AtomicCase {
            name: "xor",
            at: (1, 1),
            init: 0.0,
            operand: |i| (1u32 << (i >> 2)) as f32,
            op: |a, b| bits(|x, y| x ^ y)(a, b),
        },
        AtomicCase {
            name: "exchange",
            at: (1, 2),
            init: 7.0,
            operand: |i| (i + 10) as f32,
            op: |_, b| b,
        },
        AtomicCase {
            name: "compare-exchange",
            at: (1, 3),
            init: 0.0,
            operand: |i| (i + 1) as f32,
            op: |a, b| if a == 0.0 { b } else { a },
        },
        AtomicCase {
            name: "smin",
            at: (2, 0),
            init: 100.0,
            operand: |i| i as f32 - 16.0,
            op: f32::min,
        },
        AtomicCase {
            name: "smax",
            at: (2, 1),
            init: -100.0,
            operand: |i| i as f32 - 16.0,
            op: f32::max,
        },
        AtomicCase {
            name: "fadd",
            at: (2, 2),
            init: 0.0,
            operand: |i| 0.5 * ((i >> 2) + 1) as f32,
            op: |a, b| a + b,
        },
        AtomicCase {
            name: "fmin",
            at: (2, 3),
            init: 1000.0,
            operand: |i| i as f32 * 1.5,
            op: f32::min,
        },
        AtomicCase {
            name: "fmax",
            at: (3, 0),
            init: -1000.0,
            operand: |i| i as f32 * 1.5,
            op: f32::max,
        },
    ];
    for arch in [Arch::Sm75, Arch::Sm86] {
        let d = draw(None, "s_atomics.mesh", 1, arch);
        let v = &d.workgroups[0].vertices;
        assert_eq!(v.len(), 32);
        let get = |i: usize, loc: u32, c: usize| v[i].generic[&loc][c].expect("written");
        for case in &cases {
            for g in 0..4usize {
                let lanes: Vec<usize> = (g..32).step_by(4).collect();
                let operands: Vec<f32> = lanes.iter().map(|&i| (case.operand)(i as u32)).collect();
                let olds: Vec<f32> = lanes
                    .iter()
                    .map(|&i| get(i, case.at.0, case.at.1))
                    .collect();
                let fin = get(g, case.at.0 + 4, case.at.1);
                let expected_fin = operands.iter().fold(case.init, |a, &b| (case.op)(a, b));
                if case.name != "exchange" && case.name != "compare-exchange" {
                    assert_eq!(fin, expected_fin, "{arch} {} group {g}", case.name);
                }
                assert!(
                    serializable(case.init, &operands, &olds, fin, case.op),
                    "{arch} {} group {g}: olds {olds:?} final {fin} from {operands:?}",
                    case.name
                );
            }
        }
        // hits: uniform add of 3, null-initialised; sum: uniform address,
        // lane values.
        let mut hits: Vec<f32> = (0..32).map(|i| get(i, 3, 1)).collect();
        hits.sort_by(f32::total_cmp);
        assert_eq!(
            hits,
            (0..32).map(|k| (3 * k) as f32).collect::<Vec<_>>(),
            "{arch}"
        );
        assert_eq!(get(0, 7, 1), 96.0);
        let sums: Vec<f32> = (0..32).map(|i| get(i, 3, 2)).collect();
        let lane_values: Vec<f32> = (0..32).map(|i| i as f32).collect();
        assert_eq!(get(0, 7, 2), 496.0);
        assert!(
            serializable(0.0, &lane_values, &sums, 496.0, |a, b| a + b),
            "{arch} sum {sums:?}"
        );
    }
}

/// Atomics on the task payload, read back by the mesh shader.
#[test]
fn payload_atomics() {
    for arch in [Arch::Sm75, Arch::Sm86] {
        let d = draw(
            Some("s_payload_atomics.task"),
            "s_payload_atomics.mesh",
            2,
            arch,
        );
        for (g, w) in d.workgroups.iter().enumerate() {
            let mut olds: Vec<u32> = w
                .vertices
                .iter()
                .map(|v| v.position.expect("position")[0] as u32)
                .collect();
            olds.sort_unstable();
            assert_eq!(olds, (0..32).collect::<Vec<_>>(), "{arch} group {g}");
            let p = w.vertices[0].position.expect("position");
            assert_eq!(
                [p[1], p[2], p[3]],
                [32.0, 528.0, (93 + g) as f32],
                "{arch} group {g}"
            );
            // 1 + the 40 words of the null-initialised array (zero-filled
            // over the 0xcd the task output starts with).
            assert_eq!(w.vertices[0].point_size, Some(1.0), "{arch} group {g}");
        }
    }
}

/// Shared memory sizes reach the method stream: the mesh's
/// SHARED_MEM_LINES, the task's LOCAL_BUFFER_LINES (payload + shared).
#[test]
fn shared_lines_in_methods() {
    let mesh = compile_mesh("s_atomics.mesh", false, Arch::Sm86);
    // 13 arrays of 4 words + 2 words = 54 words: 2 lines.
    assert_eq!(mesh.binary.mesh.as_ref().unwrap().shared_mem_lines, 2);
    let task = common::compile("s_compact_match.task", Arch::Sm86);
    let m = compile_mesh("s_compact.mesh", true, Arch::Sm86);
    let words = spvsass::draw_methods(Some(&task.binary), &m.binary, 1, 0);
    let text = spvsass::backend::methods::print(&words, Arch::Sm86).expect("prints");
    // 0x20 + 128 payload bytes: 2 lines; one line of shared memory.
    assert!(text.contains(".LOCAL_BUFFER_LINES = (0x3)"), "{text}");
    assert!(text.contains(".OUTPUT_TO_M_S_LINES = (0x2)"), "{text}");
}

/// One OpAtomicIIncrement / OpAtomicIDecrement / OpAtomicISub of
/// s_incdec.*: where its old values and final value are (location,
/// component, relative to the memory's first location), and what it does.
struct IncDec {
    name: &'static str,
    old: (u32, usize),
    fin: (u32, usize),
    init: f32,
    operand: fn(u32) -> f32,
    op: fn(f32, f32) -> f32,
    /// Eight invocations per address (g = i & 3) instead of all 32 on one.
    grouped: bool,
}

const INC_DEC: &[IncDec] = &[
    IncDec {
        name: "inc, uniform address",
        old: (0, 0),
        fin: (2, 0),
        init: 0.0,
        operand: |_| 1.0,
        op: |a, b| a + b,
        grouped: false,
    },
    IncDec {
        name: "dec, uniform address",
        old: (0, 1),
        fin: (2, 1),
        init: 100.0,
        operand: |_| 1.0,
        op: |a, b| a - b,
        grouped: false,
    },
    IncDec {
        name: "sub 3, uniform address",
        old: (0, 2),
        fin: (2, 2),
        init: 1000.0,
        operand: |_| 3.0,
        op: |a, b| a - b,
        grouped: false,
    },
    IncDec {
        name: "sub i + 1, uniform address",
        old: (0, 3),
        fin: (2, 3),
        init: 1000.0,
        operand: |i| (i + 1) as f32,
        op: |a, b| a - b,
        grouped: false,
    },
    IncDec {
        name: "inc, per group",
        old: (1, 0),
        fin: (3, 0),
        init: 0.0,
        operand: |_| 1.0,
        op: |a, b| a + b,
        grouped: true,
    },
    IncDec {
        name: "dec, per group",
        old: (1, 1),
        fin: (3, 1),
        init: 50.0,
        operand: |_| 1.0,
        op: |a, b| a - b,
        grouped: true,
    },
    IncDec {
        name: "sub j + 1, per group",
        old: (1, 2),
        fin: (3, 2),
        init: 500.0,
        operand: |i| ((i >> 2) + 1) as f32,
        op: |a, b| a - b,
        grouped: true,
    },
];

/// s_incdec.task runs the atomics of `INC_DEC` on the task payload
/// (locations 0..3 of s_incdec.mesh), s_incdec.mesh on its shared memory
/// (locations 4..7). Every address's old values come from one serial order
/// of its lanes and its final value is the whole sequence's, seen alike by
/// every invocation.
fn check_inc_dec(first_location: u32, arch: Arch) {
    let d = draw(Some("s_incdec.task"), "s_incdec.mesh", 1, arch);
    let v = &d.workgroups[0].vertices;
    assert_eq!(v.len(), 32);
    let get = |i: u32, (loc, c): (u32, usize)| v[i as usize].generic[&(first_location + loc)][c];
    for case in INC_DEC {
        let groups: Vec<Vec<u32>> = if case.grouped {
            (0..4).map(|g| (g..32).step_by(4).collect()).collect()
        } else {
            vec![(0..32).collect()]
        };
        for lanes in groups {
            let operands: Vec<f32> = lanes.iter().map(|&i| (case.operand)(i)).collect();
            let olds: Vec<f32> = lanes
                .iter()
                .map(|&i| get(i, case.old).expect("old value written"))
                .collect();
            let fin = operands.iter().fold(case.init, |a, &b| (case.op)(a, b));
            for &i in &lanes {
                assert_eq!(
                    get(i, case.fin),
                    Some(fin),
                    "{arch} {}: lane {i}",
                    case.name
                );
            }
            assert!(
                serializable(case.init, &operands, &olds, fin, case.op),
                "{arch} {}: olds {olds:?} from {operands:?}",
                case.name
            );
        }
    }
}

#[test]
fn payload_inc_dec_sub_sm86() {
    check_inc_dec(0, Arch::Sm86);
}

#[test]
fn payload_inc_dec_sub_sm75() {
    check_inc_dec(0, Arch::Sm75);
}

#[test]
fn mesh_shared_inc_dec_sub_sm86() {
    check_inc_dec(4, Arch::Sm86);
}

#[test]
fn mesh_shared_inc_dec_sub_sm75() {
    check_inc_dec(4, Arch::Sm75);
}
