//! Task and mesh workgroups of more than 32 invocations, run as logical
//! subgroups on one warp (backend `logical_subgroups`, docs/HARDWARE.md):
//! outputs
//! checked value by value, statistics counted in API invocations.

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::sim::{MeshDraw, SimOptions};

fn draw(task: Option<&str>, mesh: &str, groups: [u32; 3]) -> MeshDraw {
    let t = task.map(|t| common::compile(t, Arch::Sm86));
    let m = common::compile(mesh, Arch::Sm86);
    spvsass::Draw::new(t.as_ref().map(|t| &t.binary), &m.binary, groups)
        .run()
        .map(|r| r.draw)
        .expect("draw runs")
}

/// 128 invocations: invocation i writes vertex i (position (i, subgroup,
/// workgroup, 1), color (2i, local id x, 4, 0.5)); i < 64 writes triangle i.
#[test]
fn mesh_128_invocations_write_their_own_vertices() {
    let d = draw(None, "w_vertices128.mesh", [2, 1, 1]);
    assert_eq!(d.workgroups.len(), 2);
    for (g, wg) in d.workgroups.iter().enumerate() {
        assert_eq!(wg.primitive_count, 64);
        for p in 0..64u32 {
            assert_eq!(
                wg.indices[p as usize],
                vec![2 * p, 2 * p + 1, (2 * p + 2) % 128],
                "triangle {p}"
            );
        }
        assert_eq!(wg.vertices.len(), 128);
        for (i, v) in wg.vertices.iter().enumerate() {
            let i = i as u32;
            assert_eq!(
                v.position,
                Some([i as f32, (i / 32) as f32, g as f32, 1.0]),
                "vertex {i} of workgroup {g}"
            );
            assert_eq!(
                v.generic[&0],
                [Some((2 * i) as f32), Some(i as f32), Some(4.0), Some(0.5)],
                "color of vertex {i}"
            );
        }
    }
    assert_eq!(d.statistics.mesh_invocations, 2 * 128);
    assert_eq!(d.statistics.mesh_primitives_generated, 2 * 64);
}

/// 64 task invocations write a[i] = 3i + g, and after the barrier
/// b[i] = a[63 - i] + 1000 (written by the other logical subgroup); the
/// 64-invocation mesh shader shows (a[i], b[i], subgroup id).
#[test]
fn barrier_orders_logical_subgroups() {
    let d = draw(Some("w_exchange.task"), "w_exchange.mesh", [2, 1, 1]);
    assert_eq!(d.workgroups.len(), 2);
    for (g, wg) in d.workgroups.iter().enumerate() {
        let g = g as u32;
        assert_eq!(wg.primitive_count, 64);
        assert_eq!(wg.vertices.len(), 64);
        for (i, v) in wg.vertices.iter().enumerate() {
            let i = i as u32;
            let a = 3 * i + g;
            let b = 3 * (63 - i) + g + 1000;
            assert_eq!(
                v.position,
                Some([a as f32, b as f32, (i / 32) as f32, 1.0]),
                "vertex {i} of task workgroup {g}"
            );
        }
    }
    assert_eq!(d.statistics.task_invocations, 2 * 64);
    assert_eq!(d.statistics.mesh_invocations, 2 * 64);
}

/// 96 task invocations fill v[i] = 7i + g and launch three mesh
/// workgroups; mesh workgroup m shows v[32m + lane].
#[test]
fn task_96_invocations_emit_mesh_tasks() {
    let d = draw(Some("w_emit96.task"), "w_emit96.mesh", [2, 1, 1]);
    assert_eq!(d.tasks.len(), 2);
    assert!(d.tasks.iter().all(|t| t.mesh_groups == [3, 1, 1]));
    assert_eq!(d.workgroups.len(), 6);
    for (n, wg) in d.workgroups.iter().enumerate() {
        let (g, m) = ((n / 3) as u32, (n % 3) as u32);
        assert_eq!(wg.task_workgroup, Some(g));
        assert_eq!(wg.primitive_count, 32);
        for (lane, v) in wg.vertices.iter().enumerate() {
            let i = 32 * m + lane as u32;
            assert_eq!(
                v.position,
                Some([(7 * i + g) as f32, m as f32, 0.0, 1.0]),
                "payload word {i} of task workgroup {g}"
            );
        }
    }
    assert_eq!(d.statistics.task_invocations, 2 * 96);
    assert_eq!(d.statistics.mesh_invocations, 6 * 32);
}

/// A loop of three rounds around two barriers: a[i] = a[(i + 1) % 64] + 1,
/// from a[i] = 10i: after it, a[i] = 10 * ((i + 3) % 64) + 3.
#[test]
fn loop_with_constant_trip_count_around_barriers() {
    let d = draw(Some("w_loop.task"), "w_loop.mesh", [1, 1, 1]);
    assert_eq!(d.workgroups.len(), 1);
    let wg = &d.workgroups[0];
    assert_eq!(wg.vertices.len(), 64);
    for (i, v) in wg.vertices.iter().enumerate() {
        let expected = 10 * ((i + 3) % 64) + 3;
        assert_eq!(
            v.position,
            Some([expected as f32, 0.0, 0.0, 1.0]),
            "payload word {i}"
        );
    }
    assert_eq!(d.statistics.task_invocations, 64);
    assert_eq!(d.statistics.mesh_invocations, 64);
}

/// A barrier under a branch on the invocation index (`i < 40` of 64:
/// undefined behaviour in Vulkan) is no longer refused: such a branch is
/// assumed uniform and evaluated once for the workgroup, taken because
/// some invocation still running takes it, so every invocation runs the
/// barrier and writes its point.
#[test]
fn barrier_under_a_non_uniform_branch_is_evaluated_once_per_workgroup() {
    let d = draw(None, "w_divergent_barrier.mesh", [1, 1, 1]);
    let wg = &d.workgroups[0];
    assert_eq!(wg.vertices.len(), 64);
    for (i, v) in wg.vertices.iter().enumerate() {
        assert_eq!(v.position, Some([i as f32, 0.0, 0.0, 1.0]), "vertex {i}");
    }
}

/// A mesh shader compiled for Sm86 with spec constant 0 (its workgroup
/// size) set to `size`.
fn compile_sized(name: &str, size: u32) -> spvsass::Compiled {
    let options = spvsass::Options {
        arch: Some(Arch::Sm86),
        spec_constants: vec![(0, spvsass::frontend::SpecValue::Int(size.into()))],
        ..Default::default()
    };
    spvsass::compile(&common::shader_words(name), &options)
        .unwrap_or_else(|e| panic!("{name} with {size} invocations: {e}"))
}

/// w_shared_exit_loop.mesh: a loop with two barriers whose exit condition
/// is a shared word invocation 0 counts down (3 + 2g rounds for workgroup
/// g): acc[i] = (i + R) % n + R, R rounds, remaining 0 at the end.
fn shared_exit_loop(size: u32) {
    let m = compile_sized("w_shared_exit_loop.mesh", size);
    let d = spvsass::Draw::new(None, &m.binary, [3, 1, 1])
        .run()
        .map(|r| r.draw)
        .expect("draw runs");
    assert_eq!(d.workgroups.len(), 3);
    for (g, wg) in d.workgroups.iter().enumerate() {
        let rounds = 3 + 2 * g as u32;
        assert_eq!(wg.vertices.len(), size as usize);
        for (i, v) in wg.vertices.iter().enumerate() {
            let acc = (i as u32 + rounds) % size + rounds;
            assert_eq!(
                v.position,
                Some([acc as f32, rounds as f32, 0.0, 1.0]),
                "vertex {i} of workgroup {g}"
            );
        }
    }
    assert_eq!(d.statistics.mesh_invocations, 3 * u64::from(size));
}

#[test]
fn loop_exit_read_from_shared_memory_128() {
    shared_exit_loop(128);
}

/// 80 invocations: the last logical subgroup's lanes 16..31 are no
/// invocations; their stale copies of the condition must not count.
#[test]
fn loop_exit_read_from_shared_memory_80() {
    shared_exit_loop(80);
}

/// w_cluster_skip.mesh (niagara's pattern): workgroup g reads cluster
/// index c[g]; ~0 outputs nothing and returns, anything else outputs
/// meshlet c[g]'s vertices (ci, i, g) and triangles (i, i+1, i+2 mod v).
fn cluster_skip(size: u32) {
    use spvsass::sim::ComputeInputs;
    let m = compile_sized("w_cluster_skip.mesh", size);
    let clusters: [u32; 5] = [2, u32::MAX, 0, 1, u32::MAX];
    // (vertices, triangles) per meshlet.
    let meshlets: [(u32, u32); 3] = [(100, 40), (128, 128), (7, 3)];
    let le = |w: &[u32]| -> Vec<u8> { w.iter().flat_map(|x| x.to_le_bytes()).collect() };
    let mut inputs = ComputeInputs::default();
    inputs.buffers.insert(0, le(&clusters));
    let flat: Vec<u32> = meshlets.iter().flat_map(|&(v, t)| [v, t]).collect();
    inputs.buffers.insert(1, le(&flat));
    let bound = spvsass::sim::run_draw_bound(
        None,
        &m.binary,
        [clusters.len() as u32, 1, 1],
        0,
        inputs,
        &SimOptions::default(),
    )
    .expect("draw runs");
    let d = bound.draw;
    assert_eq!(d.workgroups.len(), clusters.len());
    for (g, (wg, &ci)) in d.workgroups.iter().zip(&clusters).enumerate() {
        if ci == u32::MAX {
            assert_eq!(wg.vertices.len(), 0, "workgroup {g}");
            assert_eq!(wg.primitive_count, 0, "workgroup {g}");
            continue;
        }
        let (vc, tc) = meshlets[ci as usize];
        assert_eq!(wg.primitive_count, tc, "workgroup {g}");
        // The read-back shows vertices up to the largest index used.
        let used = (0..tc).flat_map(|t| [t, (t + 1) % vc, (t + 2) % vc]).max();
        assert_eq!(
            wg.vertices.len(),
            used.map_or(0, |m| m as usize + 1),
            "workgroup {g}"
        );
        for (i, v) in wg.vertices.iter().enumerate() {
            assert_eq!(
                v.position,
                Some([ci as f32, i as f32, g as f32, 1.0]),
                "vertex {i} of workgroup {g}"
            );
        }
        for t in 0..tc {
            assert_eq!(
                wg.indices[t as usize],
                vec![t, (t + 1) % vc, (t + 2) % vc],
                "triangle {t} of workgroup {g}"
            );
        }
    }
    assert_eq!(
        d.statistics.mesh_invocations,
        clusters.len() as u64 * u64::from(size)
    );
    assert_eq!(d.statistics.mesh_primitives_generated, 40 + 128 + 3);
}

#[test]
fn cluster_skip_before_set_mesh_outputs_64() {
    cluster_skip(64);
}

#[test]
fn cluster_skip_before_set_mesh_outputs_128() {
    cluster_skip(128);
}

/// 48 invocations: the last logical subgroup has 16; lanes 16..31 of it
/// are no invocations and write nothing (payload words 48..63 keep the
/// simulator's poison, 0xcdcdcdcd, read as a uint and converted to float).
#[test]
fn lanes_past_the_workgroup_do_not_write() {
    let d = draw(Some("w_partial48.task"), "w_loop.mesh", [1, 1, 1]);
    let wg = &d.workgroups[0];
    assert_eq!(wg.vertices.len(), 64);
    for (i, v) in wg.vertices.iter().enumerate() {
        let expected = if i < 48 { i as u32 + 1 } else { 0xcdcd_cdcd };
        assert_eq!(
            v.position,
            Some([expected as f32, 0.0, 0.0, 1.0]),
            "payload word {i}"
        );
    }
    assert_eq!(d.statistics.task_invocations, 48);
}

/// Divergent code between barriers (an if, a loop of `i & 3` rounds) runs
/// per logical subgroup; barriers under an if on gl_WorkGroupID (uniform)
/// work: workgroup 0 keeps x(i), workgroup 1 gets x(63 - i) + 100.
#[test]
fn divergent_regions_and_a_uniform_if_around_barriers() {
    let x = |i: u32| if i & 1 == 0 { 5 * i } else { i } + (i & 3);
    let d = draw(Some("w_uniform_if.task"), "w_loop.mesh", [2, 1, 1]);
    assert_eq!(d.workgroups.len(), 2);
    for (g, wg) in d.workgroups.iter().enumerate() {
        for (i, v) in wg.vertices.iter().enumerate() {
            let i = i as u32;
            let expected = if g == 0 { x(i) } else { x(63 - i) + 100 };
            assert_eq!(
                v.position,
                Some([expected as f32, 0.0, 0.0, 1.0]),
                "payload word {i} of task workgroup {g}"
            );
        }
    }
}

/// Invocations 40..63 return under a branch on their index, before
/// writing: their points stay unwritten (index bytes 0, so the read-back
/// sees vertices 0..39 only), the others' vertices and points are there.
#[test]
fn return_in_divergent_branch_stops_only_the_returned_invocations() {
    let d = draw(None, "w_return_in_branch.mesh", [1, 1, 1]);
    let wg = &d.workgroups[0];
    assert_eq!(wg.primitive_count, 64);
    for (p, idx) in wg.indices.iter().enumerate() {
        let expected = if p < 40 { p as u32 } else { 0 };
        assert_eq!(idx, &vec![expected], "point {p}");
    }
    assert_eq!(wg.vertices.len(), 40);
    for (i, v) in wg.vertices.iter().enumerate() {
        assert_eq!(v.position, Some([i as f32, 0.0, 0.0, 1.0]), "vertex {i}");
    }
    assert_eq!(d.statistics.mesh_invocations, 64);
}

/// A return inside a loop, uniform over the workgroup, before the
/// barriers of the next round: workgroup g stops after min(g + 1, 3)
/// rounds of s[i] = s[(i + 1) % 64] + 1 (from s[i] = 10i), so vertex i is
/// (10 * ((i + r) % 64) + r, r, 0, 1).
#[test]
fn uniform_return_inside_a_loop_before_barriers() {
    let d = draw(None, "w_return_loop.mesh", [3, 1, 1]);
    assert_eq!(d.workgroups.len(), 3);
    for (g, wg) in d.workgroups.iter().enumerate() {
        let r = (g as u32 + 1).min(3);
        assert_eq!(wg.vertices.len(), 64);
        for (i, v) in wg.vertices.iter().enumerate() {
            let i = i as u32;
            let s = 10 * ((i + r) % 64) + r;
            assert_eq!(
                v.position,
                Some([s as f32, r as f32, 0.0, 1.0]),
                "vertex {i} of workgroup {g}"
            );
            assert_eq!(wg.indices[i as usize], vec![i]);
        }
    }
}

/// Divergent returns after the last barrier of a 96-invocation workgroup:
/// invocations i % 3 == 1 return at once, even ones with i % 5 >= 3 return
/// inside a loop. The survivors show s[95 - i] = 3 (95 - i), the number of
/// invocations of their logical subgroup that passed the first return (a
/// ballot: returned invocations take no part), and 1 + 2 + ... + i % 5;
/// the returned ones' positions stay as the simulator starts them (zero).
#[test]
fn divergent_returns_after_the_last_barrier() {
    let d = draw(None, "w_return_late.mesh", [1, 1, 1]);
    let wg = &d.workgroups[0];
    assert_eq!(wg.primitive_count, 96);
    for (p, idx) in wg.indices.iter().enumerate() {
        assert_eq!(idx, &vec![p as u32], "point {p}");
    }
    assert_eq!(wg.vertices.len(), 96);
    let survivors = |sub: u32| (32 * sub..32 * sub + 32).filter(|j| j % 3 != 1).count();
    for (i, v) in wg.vertices.iter().enumerate() {
        let i = i as u32;
        let m = i % 5;
        let returned = i % 3 == 1 || (m >= 3 && i.is_multiple_of(2));
        let expected = if returned {
            [0.0; 4]
        } else {
            [
                (3 * (95 - i)) as f32,
                survivors(i / 32) as f32,
                (m * (m + 1) / 2) as f32,
                1.0,
            ]
        };
        assert_eq!(v.position, Some(expected), "vertex {i}");
    }
}

/// Early returns in a 64-invocation task workgroup, before and after a
/// barrier, and EmitMeshTasksEXT by the invocations still running:
/// payload word i is i + 1 (i < 20), i + 500 (i % 4 == 0), else never
/// written (the poison 0xcdcdcdcd as a float).
#[test]
fn task_invocations_return_early() {
    let d = draw(Some("w_return.task"), "w_loop.mesh", [1, 1, 1]);
    assert_eq!(d.tasks.len(), 1);
    assert_eq!(d.tasks[0].mesh_groups, [1, 1, 1]);
    let wg = &d.workgroups[0];
    assert_eq!(wg.vertices.len(), 64);
    for (i, v) in wg.vertices.iter().enumerate() {
        let i = i as u32;
        let expected = match i {
            0..20 => i + 1,
            _ if i.is_multiple_of(4) => i + 500,
            _ => 0xcdcd_cdcd,
        };
        assert_eq!(
            v.position,
            Some([expected as f32, 0.0, 0.0, 1.0]),
            "payload word {i}"
        );
    }
    assert_eq!(d.statistics.task_invocations, 64);
}

/// w_scan128.mesh: 128 invocations, a loop of 6 + g rounds with two
/// barriers each, passing partial sums through shared memory between
/// rounds (a Hillis-Steele scan); every vertex checked value by value.
#[test]
fn loop_with_barriers_passes_shared_memory_between_rounds_128() {
    let d = draw(None, "w_scan128.mesh", [2, 1, 1]);
    assert_eq!(d.workgroups.len(), 2);
    for (g, wg) in d.workgroups.iter().enumerate() {
        let a: Vec<u32> = (0..128u32)
            .map(|k| (37 * k + 11 * g as u32) % 101)
            .collect();
        // The sum of the `w` values up to i.
        let window = |i: usize, w: usize| -> u32 { a[(i + 1).saturating_sub(w)..=i].iter().sum() };
        let rounds = 6 + g;
        let d_last = 1usize << (rounds - 1);
        assert_eq!(wg.vertices.len(), 128);
        for (i, v) in wg.vertices.iter().enumerate() {
            let last = if i >= d_last {
                window(i - d_last, d_last)
            } else {
                0
            };
            assert_eq!(
                v.position,
                Some([
                    window(i, 1 << rounds) as f32,
                    rounds as f32,
                    last as f32,
                    1.0
                ]),
                "vertex {i} of workgroup {g}"
            );
        }
    }
    assert_eq!(d.statistics.mesh_invocations, 2 * 128);
}

/// w_private_init.mesh: a Private array with an initializer in a
/// 64-invocation workgroup; each logical subgroup gets its own initialised
/// copy, so o[i] = g[(i + 1) % 4] + 1000 g[i % 4] = 5 + 1000 (5 + i).
#[test]
fn private_variables_are_per_invocation_with_their_initializer() {
    let d = draw(None, "w_private_init.mesh", [1, 1, 1]);
    let wg = &d.workgroups[0];
    assert_eq!(wg.vertices.len(), 64);
    for (i, v) in wg.vertices.iter().enumerate() {
        let expected = 5.0 + 1000.0 * (5 + i) as f32;
        assert_eq!(v.generic[&0][0], Some(expected), "o[{i}]");
    }
}

/// gl_SubgroupID and gl_NumSubgroups in 32-invocation task and mesh
/// workgroups (one subgroup each): the task puts 100i + 10·id + count into
/// its payload, the mesh shader writes point i at (that word, its own id,
/// its own count).
#[test]
fn subgroup_id_and_count_in_one_warp_task_and_mesh_shaders() {
    let d = draw(
        Some("s_subgroup_ids.task"),
        "s_subgroup_ids.mesh",
        [1, 1, 1],
    );
    assert_eq!(d.workgroups.len(), 1);
    let wg = &d.workgroups[0];
    assert_eq!(wg.vertices.len(), 32);
    for (i, v) in wg.vertices.iter().enumerate() {
        assert_eq!(
            v.position,
            Some([(100 * i + 1) as f32, 0.0, 1.0, 1.0]),
            "vertex {i}"
        );
    }
}

fn le_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// d_switch_barrier.comp with `size` invocations: a switch on a mode that
/// invocation 0 copied from a buffer into shared memory, barriers inside
/// its cases (shared by two literals, falling through, in the default);
/// every result checked against the same computation on the CPU.
fn switch_around_barriers_compute(size: u32) {
    use spvsass::sim::ComputeInputs;
    let c = compile_sized("d_switch_barrier.comp", size);
    let modes: [u32; 7] = [0, 1, 2, 3, 4, 9, 1];
    let mut inputs = ComputeInputs::default();
    inputs.buffers.insert(0, le_bytes(&modes));
    inputs
        .buffers
        .insert(1, vec![0; 4 * modes.len() * size as usize]);
    let run = spvsass::Dispatch::new(&c.binary, [modes.len() as u32, 1, 1])
        .inputs(inputs)
        .run()
        .expect("dispatch runs");
    let got: Vec<u32> = run.buffers[&1]
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let n = size;
    for (g, &m) in modes.iter().enumerate() {
        let g = g as u32;
        let d0 = |i: u32| 3 * i + g;
        for i in 0..n {
            let r = match m {
                0 => d0((i + 1) % n),
                1 | 4 => d0(n - 1 - (i + 5) % n) + 100,
                2 => d0(i) * 2 + 7,
                3 => 7,
                _ => 0xdead_0000 + m,
            };
            assert_eq!(
                got[(g * n + i) as usize],
                r,
                "invocation {i} of workgroup {g} (mode {m})"
            );
        }
    }
}

#[test]
fn switch_around_barriers_compute_64() {
    switch_around_barriers_compute(64);
}

#[test]
fn switch_around_barriers_compute_128() {
    switch_around_barriers_compute(128);
}

/// d_switch_outputs.mesh with `size` invocations: a switch on workgroup
/// id mod 3 (provably uniform: logical subgroup 0's selector) with barriers
/// in its cases, then a switch on a mode read from a buffer (voted once
/// for the workgroup) with SetMeshOutputsEXT in every case and a return in
/// one.
fn switch_with_set_mesh_outputs(size: u32) {
    use spvsass::sim::ComputeInputs;
    let m = compile_sized("d_switch_outputs.mesh", size);
    let modes: [u32; 6] = [1, 0, 7, 5, 2, 1];
    let mut inputs = ComputeInputs::default();
    inputs.buffers.insert(0, le_bytes(&modes));
    let bound = spvsass::sim::run_draw_bound(
        None,
        &m.binary,
        [modes.len() as u32, 1, 1],
        0,
        inputs,
        &SimOptions::default(),
    )
    .expect("draw runs");
    let d = bound.draw;
    let n = size;
    assert_eq!(d.workgroups.len(), modes.len());
    for (g, (wg, &mode)) in d.workgroups.iter().zip(&modes).enumerate() {
        let g = g as u32;
        let s0 = |i: u32| i + 10 * g;
        let s1 = |i: u32| match g % 3 {
            0 => s0(i) + 1000,
            1 => s0((i + 1) % n) + 2000,
            _ => s0(i),
        };
        let (count, x): (u32, Box<dyn Fn(u32) -> u32>) = match mode {
            0 => (0, Box::new(|_| 0)),
            1 | 5 => (n, Box::new(|i| s1(n - 1 - i))),
            _ => (n / 2, Box::new(|i| 2 * s1(i))),
        };
        assert_eq!(wg.primitive_count, count, "workgroup {g}");
        assert_eq!(wg.vertices.len(), count as usize, "workgroup {g}");
        for (i, v) in wg.vertices.iter().enumerate() {
            let i = i as u32;
            assert_eq!(
                v.position,
                Some([x(i) as f32, mode as f32, g as f32, 1.0]),
                "vertex {i} of workgroup {g} (mode {mode})"
            );
            assert_eq!(wg.indices[i as usize], vec![i], "point {i}");
        }
    }
    assert_eq!(
        d.statistics.mesh_invocations,
        modes.len() as u64 * u64::from(size)
    );
}

#[test]
fn switch_with_set_mesh_outputs_64() {
    switch_with_set_mesh_outputs(64);
}

/// 80 invocations: the last logical subgroup's lanes 16..31 are no
/// invocations; their stale selectors must not count in the vote.
#[test]
fn switch_with_set_mesh_outputs_80() {
    switch_with_set_mesh_outputs(80);
}

#[test]
fn switch_with_set_mesh_outputs_128() {
    switch_with_set_mesh_outputs(128);
}
