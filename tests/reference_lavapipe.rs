//! The reference runner on this machine's Vulkan driver: Mesa's lavapipe
//! here and in CI (compute only in Debian 12's Mesa 22.3). Every compute run
//! description in tests/runs/ is executed and its buffers checked against
//! values computed here on the CPU from the same description's inputs.
//!
//! Without a Vulkan loader or driver the tests print that they skipped,
//! unless SPVSASS_REQUIRE_VULKAN=1 (CI sets it): then they fail.

use crate::common;

use spvsass::reference::{self, Capture, ReferenceError, RunDescription, Statistics, resolve_data};
use std::path::{Path, PathBuf};
use std::process::Command;

fn runs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/runs")
}

fn run_path(name: &str) -> PathBuf {
    runs().join(format!("{name}.json"))
}

fn description(name: &str) -> RunDescription {
    RunDescription::load(&run_path(name)).unwrap_or_else(|e| panic!("{e}"))
}

fn words(bytes: Vec<u8>) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The initial words of the buffer at `binding`, as the description gives them.
fn input(desc: &RunDescription, binding: u32) -> Vec<u32> {
    let b = desc
        .buffers
        .iter()
        .find(|b| b.binding == binding)
        .expect("binding in the description");
    words(resolve_data(&b.contents, &runs(), "input", b.kind.limit()).expect("input data"))
}

fn push_constants(desc: &RunDescription) -> Vec<u32> {
    words(
        resolve_data(
            &desc.push_constants,
            &runs(),
            "push constants",
            spvsass::reference::PUSH_CONSTANT_LIMIT,
        )
        .expect("push constants"),
    )
}

fn vulkan_required() -> bool {
    std::env::var("SPVSASS_REQUIRE_VULKAN").is_ok_and(|v| v == "1")
}

/// Runs `name`; `None` when the machine has no Vulkan driver to run it on.
fn run(name: &str) -> Option<Result<Capture, ReferenceError>> {
    match reference::run_file(&run_path(name)) {
        Err(
            e @ (ReferenceError::NoLoader(_)
            | ReferenceError::NoDevice(_)
            | ReferenceError::NoUsableDevice(_)),
        ) => {
            assert!(!vulkan_required(), "SPVSASS_REQUIRE_VULKAN=1, but {e}");
            eprintln!("skipped {name}: {e}");
            None
        }
        r => Some(r),
    }
}

fn compute(name: &str) -> Option<Capture> {
    run(name).map(|r| r.unwrap_or_else(|e| panic!("{name}: {e}")))
}

/// Invocations of a dispatch: groups times the local size the shader declares.
fn check_invocations(s: &Statistics, desc: &RunDescription, local_size: u64) {
    let groups: u64 = desc.groups.iter().map(|&g| u64::from(g)).product();
    if let Some(n) = s.compute_shader_invocations {
        assert_eq!(n, groups * local_size, "compute shader invocations");
    }
}

/// ref_add.comp.glsl: out[i] = a[i] * scale + offset[i % 4] and
/// index[i] = group * 1000 + local for i < count; the rest untouched.
fn check_ref_add(desc: &RunDescription, c: &Capture) {
    let a = input(desc, 0);
    let offset = input(desc, 1);
    let push = push_constants(desc);
    let (count, scale) = (push[0] as usize, f32::from_bits(push[1]));
    let (out_init, index_init) = (input(desc, 2), input(desc, 3));
    let out = c.buffer(2).expect("binding 2 read back");
    let index = c.buffer(3).expect("binding 3 read back");
    assert_eq!(out.len(), out_init.len());
    for i in 0..out.len() {
        if i < count {
            // The inputs are exact in f32, so a fused multiply-add and a
            // separate multiply and add give the same bits.
            let want = f32::from_bits(a[i]) * scale + f32::from_bits(offset[i % 4]);
            assert_eq!(f32::from_bits(out[i]), want, "out[{i}]");
            assert_eq!(index[i], (i / 64 * 1000 + i % 64) as u32, "index[{i}]");
        } else {
            assert_eq!(out[i], out_init[i], "out[{i}] past count was written");
            assert_eq!(index[i], index_init[i], "index[{i}] past count was written");
        }
    }
    check_invocations(&c.result.statistics, desc, 64);
}

/// ref_reduce.comp.glsl: per workgroup of 64, the wrapping sum and the maximum.
fn check_ref_reduce(desc: &RunDescription, c: &Capture) {
    let values = input(desc, 0);
    let sums = c.buffer(1).expect("binding 1 read back");
    for (g, chunk) in values.chunks(64).enumerate() {
        let sum = chunk.iter().fold(0u32, |s, v| s.wrapping_add(*v));
        let max = chunk.iter().copied().max().unwrap_or(0);
        assert_eq!(sums[2 * g], sum, "sum of group {g}");
        assert_eq!(sums[2 * g + 1], max, "maximum of group {g}");
    }
    check_invocations(&c.result.statistics, desc, 64);
}

/// ref_atomic.comp.glsl: counts, extremes and a histogram by atomics.
fn check_ref_atomic(desc: &RunDescription, c: &Capture) {
    let values = input(desc, 0);
    let init = input(desc, 1);
    let out = c.buffer(1).expect("binding 1 read back");
    let threes = values.iter().filter(|v| *v % 3 == 0).count() as u32;
    assert_eq!(out[0], init[0] + threes, "multiples of three");
    assert_eq!(
        out[1],
        values.iter().copied().fold(init[1], u32::min),
        "min"
    );
    assert_eq!(
        out[2],
        values.iter().copied().fold(init[2], u32::max),
        "max"
    );
    for bin in 0..8 {
        let n = values.iter().filter(|v| *v & 7 == bin).count() as u32;
        assert_eq!(
            out[3 + bin as usize],
            init[3 + bin as usize] + n,
            "bin {bin}"
        );
    }
    check_invocations(&c.result.statistics, desc, 64);
}

/// c_subgroup_quads.comp.glsl: quad swaps and broadcasts of a vec2
/// (values multiples of 1/8 below 512: every result exact).
fn check_c_subgroup_quads(desc: &RunDescription, c: &Capture) {
    let texels: Vec<f32> = input(desc, 0).into_iter().map(f32::from_bits).collect();
    let out = c.buffer(1).expect("binding 1 read back");
    let t = |i: usize| (texels[2 * i], texels[2 * i + 1]);
    for i in 0..texels.len() / 2 {
        let quad = i & !3;
        let (h, v, d, b) = (t(i ^ 1), t(i ^ 2), t(i ^ 3), t(quad + 2));
        let want = [h.0 + 10.0 * v.1, d.0 - b.1, t(quad).0, h.1 - d.1].map(f32::to_bits);
        assert_eq!(out[4 * i..4 * i + 4], want, "outs[{i}]");
    }
    check_invocations(&c.result.statistics, desc, 64);
}

/// c_float_atomic_olds.comp.glsl (the old values are not read back:
/// they depend on the order the lanes' swaps land in): min/max on a
/// buffer, and per workgroup the float tickets, the odd lanes' sum and
/// the shared min/max (whole numbers: every sum exact in any order).
fn check_c_float_atomic_olds(desc: &RunDescription, c: &Capture) {
    let vals: Vec<f32> = input(desc, 0).into_iter().map(f32::from_bits).collect();
    let out: Vec<f32> = c
        .buffer(2)
        .expect("binding 2 read back")
        .iter()
        .map(|&w| f32::from_bits(w))
        .collect();
    let fmin = |xs: &[f32]| xs.iter().copied().fold(f32::INFINITY, f32::min);
    let fmax = |xs: &[f32]| xs.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    assert_eq!(out[..2], [fmin(&vals), fmax(&vals)], "buffer min/max");
    for (g, group) in vals.chunks(64).enumerate() {
        let odd = group.iter().skip(1).step_by(2).fold(0.0f32, |a, &v| a + v);
        let want = [64.0, odd, fmin(group), fmax(group)];
        assert_eq!(out[2 + 4 * g..6 + 4 * g], want, "workgroup {g}");
    }
    check_invocations(&c.result.statistics, desc, 64);
}

/// half_and_double.comp: lavapipe, the simulator (same inputs) and Rust's
/// f16 arithmetic agree bit for bit on every half; on doubles the
/// simulator gives Rust's `x*x + h - 1/3` exactly and lavapipe that
/// within 1 ulp: llvmpipe contracts the multiply-add (SPIR-V allows it
/// without NoContraction), which the simulator never does (ARCHITECTURE.md).
fn check_half_and_double(desc: &RunDescription, c: &Capture) {
    use half::f16;
    let (h_in, d_in) = (input(desc, 0), input(desc, 1));
    let (h_ref, d_ref) = (c.buffer(0).expect("halves"), c.buffer(1).expect("doubles"));
    let bytes = |w: &[u32]| -> Vec<u8> { w.iter().flat_map(|x| x.to_le_bytes()).collect() };
    let compiled = spvsass::compile(
        &spvsass::frontend::words_from_bytes(
            &std::fs::read(runs().join("../shaders/half_and_double.comp.spv")).expect("shader"),
        )
        .expect("SPIR-V"),
        &spvsass::Options::default(),
    )
    .expect("compiles");
    let inputs = spvsass::sim::ComputeInputs {
        buffers: [(0, bytes(&h_in)), (1, bytes(&d_in))].into_iter().collect(),
        ..Default::default()
    };
    let sim = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
        .inputs(inputs)
        .run()
        .expect("simulates");
    assert_eq!(
        words(sim.buffers[&0].clone()),
        h_ref,
        "halves: simulator vs lavapipe"
    );
    let d_sim = words(sim.buffers[&1].clone());
    let half = |w: &[u32], k: usize| f16::from_bits((w[k / 2] >> (16 * (k % 2))) as u16);
    for k in 0..2 * h_in.len() {
        let want = f16::from_f32(f16::from_f32(half(&h_in, k).to_f32() * 0.5).to_f32() + 1.0);
        assert_eq!(half(h_ref, k).to_bits(), want.to_bits(), "h[{k}]");
    }
    for i in 0..d_in.len() / 2 {
        let x = f64::from_bits(u64::from(d_in[2 * i]) | u64::from(d_in[2 * i + 1]) << 32);
        let h = f64::from(half(h_ref, 4 * i).to_f32());
        let want = x * x + h - 1.0 / 3.0;
        let pair = |w: &[u32]| u64::from(w[2 * i]) | u64::from(w[2 * i + 1]) << 32;
        assert_eq!(pair(&d_sim), want.to_bits(), "simulated d[{i}] = {x:e}");
        let got = pair(d_ref);
        assert!(
            got.abs_diff(want.to_bits()) <= 1,
            "lavapipe's d[{i}] = {x:e}: {:e}",
            f64::from_bits(got)
        );
    }
}

/// res_sets.comp (res_sets, res_dynamic): `o` and both runtime-array
/// buffers against the CPU (tests/common/res_sets.rs).
fn check_res_sets(desc: &RunDescription, c: &Capture) {
    let (o, rt) = common::res_sets::expected_res_sets(desc);
    assert_eq!(c.buffer(0), Some(&o[..]), "o");
    for (e, want) in rt.iter().enumerate() {
        let offset = desc
            .buffers
            .iter()
            .find(|b| (b.set, b.binding, b.element) == (3, 2, e as u32))
            .map_or(0, |b| b.offset as usize / 4);
        let got = c.buffer_at(3, 2, e as u32).expect("read back");
        assert_eq!(&got[offset..offset + want.len()], &want[..], "rt[{e}]");
    }
    check_invocations(&c.result.statistics, desc, 64);
}

/// lt_buffer_struct_index.comp (dynamic indices into arrays of structs in
/// buffers, issue 19's long tail): lavapipe against the simulator, every
/// buffer word exact (tests/long_tail.rs checks the simulator against the
/// CPU). The long tail's other compute shaders have no lavapipe run:
/// lavapipe's subgroups are 8 wide, it allows 128 push-constant bytes, and
/// the reference runner does not enable `workgroupMemoryExplicitLayout`
/// (Mesa 22.3's lavapipe then returned 1 for every word of
/// lt_workgroup_explicit_layout, the simulator and the CPU 1000·a + b + 777).
fn check_lt_buffer_struct_index(desc: &RunDescription, c: &Capture) {
    let sim = spvsass::simulate_run::simulate_run(
        desc,
        "lt_buffer_struct_index",
        &runs(),
        &Default::default(),
    )
    .expect("simulates");
    let cmp = spvsass::compare::compare(&sim, c, &spvsass::compare::Tolerances::for_run(desc));
    assert!(cmp.matches(), "{cmp:?}");
    assert_eq!(cmp.buffers.len(), 2, "both buffers read back");
}

/// vp_sets.comp (variable pointers across descriptor sets, bindings and
/// array elements): lavapipe against the CPU (tests/common/vp_sets.rs).
fn check_vp_sets(desc: &RunDescription, c: &Capture) {
    let (o, bufs) = common::vp_sets::expected_vp_sets(desc);
    assert_eq!(c.buffer(0), Some(&o[..]), "o");
    for (&(s, b, e), want) in common::vp_sets::BUFFERS.iter().zip(&bufs) {
        assert_eq!(
            c.buffer_at(s, b, e),
            Some(&want[..]),
            "set {s} binding {b}[{e}]"
        );
    }
}

macro_rules! compute_runs {
    ($($name:ident => $check:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            let desc = description(stringify!($name));
            if let Some(c) = compute(stringify!($name)) {
                $check(&desc, &c);
            }
        }
    )*};
}

compute_runs!(
    ref_add => check_ref_add,
    ref_reduce => check_ref_reduce,
    ref_atomic => check_ref_atomic,
    c_subgroup_quads => check_c_subgroup_quads,
    c_float_atomic_olds => check_c_float_atomic_olds,
    half_and_double => check_half_and_double,
    res_sets => check_res_sets,
    res_dynamic => check_res_sets,
    lt_buffer_struct_index => check_lt_buffer_struct_index,
    vp_sets => check_vp_sets,
);

/// Mesh runs: a driver without VK_EXT_mesh_shader (lavapipe of Mesa 22.3)
/// must refuse them with the clear error; one with it must render.
fn mesh(name: &str) -> Option<Capture> {
    match run(name)? {
        Ok(c) => Some(c),
        Err(e @ ReferenceError::MeshShadersUnsupported { .. }) => {
            assert!(
                e.to_string()
                    .starts_with("mesh shaders not supported by this driver ("),
                "{e}"
            );
            eprintln!("{name}: {e}");
            None
        }
        Err(e) => panic!("{name}: {e}"),
    }
}

/// Pixels of `layer` whose alpha is non-zero (the clear colour is 0).
fn covered(c: &Capture, layer: u32) -> Vec<(u32, u32)> {
    let image = c.result.image.as_ref().expect("mesh runs have an image");
    let mut out = Vec::new();
    for y in 0..image.height {
        for x in 0..image.width {
            if c.pixel(layer, x, y).is_some_and(|p| p[3] != 0.0) {
                out.push((x, y));
            }
        }
    }
    out
}

/// The triangle of triangle.mesh.glsl in pixels (row 0 at the top): its
/// NDC corners (-0.5,-0.5), (0,0.5), (0.5,-0.5) through the viewport.
fn triangle_corners(w: f32, h: f32) -> [(f32, f32); 3] {
    [(-0.5, -0.5), (0.0, 0.5), (0.5, -0.5)].map(|(x, y)| ((x + 1.0) * w / 2.0, (y + 1.0) * h / 2.0))
}

/// Distance of pixel centre (x, y) inside the triangle (negative: outside).
fn inside_distance(p: [(f32, f32); 3], x: u32, y: u32) -> f32 {
    let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
    let area = (p[1].0 - p[0].0) * (p[2].1 - p[0].1) - (p[1].1 - p[0].1) * (p[2].0 - p[0].0);
    (0..3)
        .map(|i| {
            let (a, b) = (p[i], p[(i + 1) % 3]);
            let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
            ((b.0 - a.0) * (cy - a.1) - (b.1 - a.1) * (cx - a.0)) * area.signum() / len
        })
        .fold(f32::INFINITY, f32::min)
}

/// Coverage away from edges as a CPU rasterizer sampling pixel centres
/// says, and colours that are barycentric mixes of red, green and blue.
fn check_triangle_layer(c: &Capture, layer: u32) {
    let image = c.result.image.as_ref().expect("image");
    let corners = triangle_corners(image.width as f32, image.height as f32);
    for y in 0..image.height {
        for x in 0..image.width {
            let d = inside_distance(corners, x, y);
            let p = c.pixel(layer, x, y).expect("pixel");
            if d > 0.01 {
                assert_eq!(p[3], 1.0, "({x}, {y}) layer {layer} should be covered");
                let sum = p[0] + p[1] + p[2];
                assert!((sum - 1.0).abs() < 1e-4, "({x}, {y}): {p:?}");
            } else if d < -0.01 {
                assert_eq!(p, [0.0; 4], "({x}, {y}) layer {layer} should be clear");
            }
        }
    }
}

/// MESH_PRIMITIVES_GENERATED counts culled primitives too (seen on the H100,
/// gpu-reference.md).
fn check_draw_statistics(s: &Statistics, fragments: usize, primitives: u64) {
    if let Some(n) = s.fragment_shader_invocations {
        assert_eq!(n, fragments as u64, "fragment shader invocations");
    }
    if let Some(n) = s.mesh_primitives_generated {
        assert_eq!(n, primitives, "mesh primitives generated");
    }
}

#[test]
fn triangle() {
    if let Some(c) = mesh("triangle") {
        check_triangle_layer(&c, 0);
        check_draw_statistics(&c.result.statistics, covered(&c, 0).len(), 1);
        if let Some(n) = c.result.statistics.mesh_shader_invocations {
            assert_eq!(n, 32, "one workgroup of 32 invocations");
        }
    }
}

#[test]
fn triangle_multiview() {
    if let Some(c) = mesh("triangle_multiview") {
        check_triangle_layer(&c, 0);
        check_triangle_layer(&c, 1);
        assert_eq!(covered(&c, 0), covered(&c, 1), "both views draw the same");
    }
}

/// ref_views: view v's triangle is moved right by v / 4 of the image and
/// painted (v == 0, v == 1, 0.5, 1).
#[test]
fn ref_views() {
    let Some(c) = mesh("ref_views") else { return };
    let image = c.result.image.as_ref().expect("image");
    assert_eq!(image.layers, 2);
    let (w, h) = (image.width as f32, image.height as f32);
    for view in 0..2u32 {
        let shift = view as f32 * 0.5;
        // Centroid of (-0.75, -0.5), (-0.25, 0.5), (0.25, -0.5), moved.
        let (cx, cy) = (
            ((-0.25 + shift) + 1.0) * w / 2.0,
            (-1.0 / 6.0 + 1.0) * h / 2.0,
        );
        let p = c.pixel(view, cx as u32, cy as u32).expect("pixel");
        let want = [
            (view == 0) as u32 as f32,
            (view == 1) as u32 as f32,
            0.5,
            1.0,
        ];
        for (got, want) in p.iter().zip(want) {
            assert!((got - want).abs() < 1e-5, "view {view}: {p:?}");
        }
    }
    assert_ne!(covered(&c, 0), covered(&c, 1), "the views differ");
}

#[test]
fn triangle_cull_front() {
    if let Some(c) = mesh("triangle_cull_front") {
        assert!(covered(&c, 0).is_empty(), "a culled triangle drew pixels");
        check_draw_statistics(&c.result.statistics, 0, 1);
    }
}

#[test]
fn point() {
    if let Some(c) = mesh("point") {
        // No Location-0 output: covered pixels are opaque white, and the
        // centre pixel is covered whatever the device's largest point size.
        let image = c.result.image.as_ref().expect("image");
        let pixels = covered(&c, 0);
        assert!(pixels.contains(&(image.width / 2, image.height / 2)));
        for (x, y) in &pixels {
            assert_eq!(c.pixel(0, *x, *y), Some([1.0; 4]), "({x}, {y})");
        }
        check_draw_statistics(&c.result.statistics, pixels.len(), 1);
    }
}

/// ref_quads: quad q fills the middle of quadrant (q % 2, q / 2) with two
/// triangles split along the diagonal from its top-right to its bottom-left
/// corner, each with its own flat colour; the second triangle of quad 3 is
/// culled.
#[test]
fn ref_quads() {
    let Some(c) = mesh("ref_quads") else { return };
    let image = c.result.image.as_ref().expect("image");
    let (w, h) = (image.width as f32, image.height as f32);
    for q in 0..4u32 {
        // NDC corners of the quad, as the mesh shader places them.
        let x0 = (q % 2) as f32 - 0.75;
        let y0 = (q / 2) as f32 - 0.75;
        let pixel = |x: f32, y: f32| ((x + 1.0) * w / 2.0, (y + 1.0) * h / 2.0);
        // A point well inside each triangle: near corner 0, near corner 3.
        let inside = [pixel(x0 + 0.125, y0 + 0.125), pixel(x0 + 0.375, y0 + 0.375)];
        for (i, (px, py)) in inside.into_iter().enumerate() {
            let got = c.pixel(0, px as u32, py as u32).expect("pixel");
            let want = if q == 3 && i == 1 {
                [0.0; 4]
            } else {
                [
                    (q + 1) as f32 * 0.25,
                    if i == 0 { 1.0 } else { 0.5 },
                    0.25,
                    1.0,
                ]
            };
            assert_eq!(got, want, "quad {q} triangle {i} at ({px}, {py})");
        }
    }
    let s = &c.result.statistics;
    check_draw_statistics(s, covered(&c, 0).len(), 8);
    if let (Some(task), Some(mesh)) = (s.task_shader_invocations, s.mesh_shader_invocations) {
        // Invocations, not workgroups (gpu-reference.md: seen on the H100).
        assert_eq!((task, mesh), (32, 4 * 32));
    }
}

/// Shader problems are found before any device is touched, so these hold
/// on every machine, with or without a driver.
#[test]
fn a_wrong_entry_point_is_refused_before_the_device() {
    let mut desc = description("ref_add");
    if let Some(c) = desc.stages.compute.as_mut() {
        c.entry = "not_main".into();
    }
    let e = reference::run(&desc, "ref_add", &runs()).err();
    assert!(
        matches!(&e, Some(ReferenceError::EntryPointNotFound { entry, .. }) if entry == "not_main"),
        "{e:?}"
    );
}

#[test]
fn a_compute_shader_is_not_a_mesh_shader() {
    let mut desc = description("triangle");
    desc.stages.mesh = desc.stages.mesh.take().map(|mut m| {
        m.spirv = "../shaders/ref_add.comp.spv".into();
        m
    });
    let e = reference::run(&desc, "triangle", &runs()).err();
    assert_eq!(
        e.map(|e| e.to_string()),
        Some(format!(
            "{}: no MeshEXT entry point named `main`",
            runs().join("../shaders/ref_add.comp.spv").display()
        ))
    );
}

fn spvsass(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_spvsass"))
        .args(args)
        .output()
        .expect("spvsass runs")
}

fn out_dir(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("spvsass-reference-{}-{name}", std::process::id()))
}

#[test]
fn subcommand_writes_a_result_that_reads_back() {
    let out = out_dir("cli");
    let run = run_path("ref_reduce");
    let o = spvsass(&[
        "reference",
        run.to_str().expect("utf-8 path"),
        "--out",
        out.to_str().expect("utf-8 path"),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    if !o.status.success() && stderr.contains("no Vulkan") {
        assert!(!vulkan_required(), "SPVSASS_REQUIRE_VULKAN=1, but {stderr}");
        eprintln!("skipped: {stderr}");
        return;
    }
    assert!(o.status.success(), "{stderr}");
    let c = Capture::read(&out).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.result.run, "ref_reduce");
    assert!(
        c.result
            .command
            .as_deref()
            .is_some_and(|s| s.contains(" reference "))
    );
    assert!(!c.result.device.driver_name.is_empty());
    check_ref_reduce(&description("ref_reduce"), &c);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn subcommand_without_out_is_a_usage_error() {
    let o = spvsass(&["reference", "tests/runs/ref_add.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--out"));
}

#[test]
fn subcommand_names_a_missing_description() {
    let missing = Path::new("tests/runs/no_such_run.json");
    let o = spvsass(&[
        "reference",
        missing.to_str().expect("utf-8"),
        "--out",
        out_dir("missing").to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.starts_with("error: cannot read tests/runs/no_such_run.json"),
        "{stderr}"
    );
}

/// The differential test: the same description on the machine's Vulkan
/// driver (lavapipe in CI) and in the simulator, compared like the stored
/// H100 captures are (buffers word for word, statistics equal).
fn simulator_agrees_with_the_driver(name: &str) {
    use spvsass::compare::{Tolerances, compare};
    use spvsass::simulate_run::{SimulateOptions, simulate_run_file};
    let Some(driver) = compute(name) else { return };
    let sim = simulate_run_file(&run_path(name), &SimulateOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let c = compare(&sim, &driver, &Tolerances::for_run(&description(name)));
    assert!(c.matches(), "{name}: {c}");
    assert!(!c.buffers.is_empty(), "{name}: no buffer was compared");
}

#[test]
fn simulator_agrees_with_the_driver_on_res_sets() {
    simulator_agrees_with_the_driver("res_sets");
}

#[test]
fn simulator_agrees_with_the_driver_on_res_dynamic() {
    simulator_agrees_with_the_driver("res_dynamic");
}

#[test]
fn simulator_agrees_with_the_driver_on_vp_select() {
    simulator_agrees_with_the_driver("vp_select");
}

#[test]
fn simulator_agrees_with_the_driver_on_vp_private() {
    simulator_agrees_with_the_driver("vp_private");
}

#[test]
fn simulator_agrees_with_the_driver_on_vp_sets() {
    simulator_agrees_with_the_driver("vp_sets");
}

#[test]
fn simulator_agrees_with_the_driver_on_ref_add() {
    simulator_agrees_with_the_driver("ref_add");
}

#[test]
fn simulator_agrees_with_the_driver_on_ref_reduce() {
    simulator_agrees_with_the_driver("ref_reduce");
}

#[test]
fn simulator_agrees_with_the_driver_on_ref_atomic() {
    simulator_agrees_with_the_driver("ref_atomic");
}

fn write_words(path: &Path, words: &[u32]) {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(path, bytes).expect("temporary file written");
}

/// `spvsass run COMP.spv ... --reference vulkan`: the command line's
/// buffers, uniform and push constants reach both sides, the two agree,
/// and `--out` writes the simulator's buffer.
#[test]
fn run_with_reference_on_a_compute_shader() {
    let dir = out_dir("run-compute");
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let a: Vec<u32> = [0.5f32, 1.5, -2.0, 3.25]
        .iter()
        .map(|f| f.to_bits())
        .chain(std::iter::repeat_n(0, 124))
        .collect();
    let offsets: Vec<u32> = [10.0f32, 20.0, -30.0, 0.125].map(f32::to_bits).to_vec();
    write_words(&dir.join("a.bin"), &a);
    write_words(&dir.join("offsets.bin"), &offsets);
    write_words(&dir.join("push.bin"), &[4, 2.0f32.to_bits()]);
    let path = |f: &str| dir.join(f).to_str().expect("utf-8 path").to_owned();
    let o = spvsass(&[
        "run",
        "tests/shaders/ref_add.comp.spv",
        "--groups",
        "1,1,1",
        "--buffer",
        &format!("0={}", path("a.bin")),
        "--uniform",
        &format!("1={}", path("offsets.bin")),
        "--buffer",
        "2=512",
        "--buffer",
        "3=512",
        "--push",
        &path("push.bin"),
        "--float-ulps",
        "2=0",
        "--out",
        &format!("2={}", path("out.bin")),
        "--reference",
        "vulkan",
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    if !o.status.success() && stderr.contains("no Vulkan") {
        assert!(!vulkan_required(), "SPVSASS_REQUIRE_VULKAN=1, but {stderr}");
        eprintln!("skipped: {stderr}");
        return;
    }
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{stdout}{stderr}");
    // Both written buffers were compared; the float one as f32.
    assert!(
        stdout.contains("buffer 2 (f32 within 0 ULPs): 128 words equal"),
        "{stdout}"
    );
    assert!(
        stdout.contains("buffer 3 (integers, exact): 128 words equal"),
        "{stdout}"
    );
    let out = words(std::fs::read(dir.join("out.bin")).expect("--out written"));
    let expected = [11.0f32, 23.0, -34.0, 6.625];
    assert_eq!(out.len(), 128);
    assert_eq!(&out[..4], &expected.map(f32::to_bits)[..]);
    assert!(out[4..].iter().all(|&w| w == 0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn float_ulps_without_reference_is_a_usage_error() {
    let o = spvsass(&[
        "run",
        "tests/shaders/ref_add.comp.spv",
        "--groups",
        "1,1,1",
        "--float-ulps",
        "2=1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--float-ulps"));
}

#[test]
fn simulator_agrees_with_the_driver_on_c_subgroup_quads() {
    simulator_agrees_with_the_driver("c_subgroup_quads");
}

#[test]
fn simulator_agrees_with_the_driver_on_c_float_atomic_olds() {
    simulator_agrees_with_the_driver("c_float_atomic_olds");
}

/// The Math family against the driver. Integers are compared word for
/// word, except `y % 7` of bit_operations.comp for negative y: OpSMod
/// takes the divisor's sign, and Mesa 22.3's lavapipe returns the
/// dividend's (OpSRem's) there, so those words are left to
/// tests/math_shaders.rs, which checks them against the SPIR-V definition.
/// Floats are compared within an absolute 2e-6 (relative above 1): the
/// sums of geometric.comp cancel, so a value near 0 may be many ulps from
/// the driver's while its error is that of its terms (docs/ISA.md "Float
/// functions").
/// Buffers 0 and 1 of a run: simulator's, then driver's.
type BufferPairs = (Vec<u32>, Vec<u32>, Vec<u32>, Vec<u32>);

fn simulated_and_driver(name: &str) -> Option<BufferPairs> {
    use spvsass::simulate_run::{SimulateOptions, simulate_run_file};
    let driver = compute(name)?;
    let sim = simulate_run_file(&run_path(name), &SimulateOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let get = |c: &Capture, b: u32| c.buffer(b).map(<[u32]>::to_vec).unwrap_or_default();
    Some((
        get(&sim.capture, 0),
        get(&driver, 0),
        get(&sim.capture, 1),
        get(&driver, 1),
    ))
}

#[test]
fn simulator_agrees_with_the_driver_on_math_bits() {
    let desc = description("math_bits");
    let Some((u_sim, u_drv, s_sim, s_drv)) = simulated_and_driver("math_bits") else {
        return;
    };
    assert_eq!(u_sim.len(), 32);
    assert_eq!(u_sim, u_drv, "u[]");
    let ys = input(&desc, 1);
    let mut compared = 0;
    for (i, &y) in ys.iter().enumerate() {
        if (y as i32) >= 0 {
            assert_eq!(s_sim[i], s_drv[i], "s[{i}] for y = {}", y as i32);
            compared += 1;
        }
    }
    assert!(compared >= 16, "only {compared} non-negative inputs");
}

#[test]
fn simulator_agrees_with_the_driver_on_math_geometric() {
    let Some((sim, drv, _, _)) = simulated_and_driver("math_geometric") else {
        return;
    };
    assert_eq!(sim.len(), 128);
    for (i, (&a, &b)) in sim.iter().zip(&drv).enumerate() {
        let (a, b) = (f32::from_bits(a), f32::from_bits(b));
        assert!(
            (a - b).abs() <= 2e-6 * b.abs().max(1.0),
            "n[{}].{}: simulator {a}, driver {b}",
            i / 4,
            i % 4
        );
    }
}

// Control flow and memory instructions (tests/control_flow.rs and
// tests/memory_ops.rs check the values on the CPU).
#[test]
fn simulator_agrees_with_the_driver_on_ref_switch() {
    simulator_agrees_with_the_driver("ref_switch");
}

#[test]
fn simulator_agrees_with_the_driver_on_ref_uniform_branch() {
    simulator_agrees_with_the_driver("ref_uniform_branch");
}

#[test]
fn simulator_agrees_with_the_driver_on_ref_divergent_branch() {
    simulator_agrees_with_the_driver("ref_divergent_branch");
}

#[test]
fn simulator_agrees_with_the_driver_on_ref_private_globals() {
    simulator_agrees_with_the_driver("ref_private_globals");
}

#[test]
fn simulator_agrees_with_the_driver_on_ref_vector_dynamic() {
    simulator_agrees_with_the_driver("ref_vector_dynamic");
}
