//! The simulator against the real captures from an NVIDIA H100 (and H200)
//! (tests/reference/NAME, made from tests/runs/NAME.json): one test per
//! capture. Where the simulator runs the description, coverage must be
//! identical away from edge pixels, colours within 1e-5, read-back
//! buffers equal word for word and statistics equal (a multiview run's
//! mesh statistics may count each view: `compare::PER_VIEW`).

use spvsass::compare::{PER_VIEW, StatisticVerdict, Tolerances, compare};
use spvsass::reference::{Capture, Data, RunDescription};
use spvsass::simulate_run::{SimulateOptions, simulate_run_file};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Simulates the run and compares it with its capture; panics with the
/// report on any mismatch.
fn agrees(name: &str) {
    let run = root().join(format!("tests/runs/{name}.json"));
    let sim =
        simulate_run_file(&run, &SimulateOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let reference = Capture::read(&root().join(format!("tests/reference/{name}")))
        .unwrap_or_else(|e| panic!("{e}"));
    let c = compare(&sim, &reference, &Tolerances::default());
    assert!(c.matches(), "{c}");
    // What a match means here, spelt out: the image was compared and the
    // counts the simulator models are equal.
    let image = c.image.as_ref().ok().and_then(Option::as_ref);
    if reference.result.image.is_some() {
        assert!(image.is_some_and(|i| i.only_simulator.is_empty() && i.only_reference.is_empty()));
    }
    assert!(
        c.buffers
            .iter()
            .all(|b| b.simulator_words == Some(b.reference_words))
    );
    for s in &c.statistics {
        let modelled = [
            "compute_shader_invocations",
            "task_shader_invocations",
            "mesh_shader_invocations",
            "clipping_invocations",
            "fragment_shader_invocations",
            "mesh_primitives_generated",
        ];
        if modelled.contains(&s.name) && s.reference.is_some() {
            // A multiview run's per-view statistics may count each view
            // (the simulator's per-view loop); nothing else may differ.
            let per_view = matches!(s.verdict(), StatisticVerdict::PerView { .. })
                && PER_VIEW.contains(&s.name);
            assert!(s.verdict() == StatisticVerdict::Equal || per_view, "{c}");
        }
    }
}

macro_rules! captures {
    (agree: [$($agree:ident),* $(,)?] $(,)?) => {
        const CAPTURES: &[&str] = &[$(stringify!($agree),)*];
        $(
            #[test]
            fn $agree() {
                agrees(stringify!($agree));
            }
        )*
    };
}

captures! {
    agree: [
        point,
        triangle,
        triangle_cull_front,
        ref_quads,
        ref_add,
        ref_reduce,
        ref_atomic,
        triangle_multiview,
        ref_views,
        meshlet_fan,
        point_cloud,
        c_subgroup_quads,
        ref_divergent_branch,
        ref_private_globals,
        ref_switch,
        ref_uniform_branch,
        ref_vector_dynamic,
        res_sets,
        res_dynamic,
        image_ops,
        tex_sample,
        tex_misc,
        tex_cube_corner,
        tex_formats,
        tex_srgb,
        tex_snorm8,
        tex_texel_offset,
        tex_grad,
        tex_grad3d,
        tex_grad3d_rho,
        tex_grad_quad,
        tex_grad_sweep,
        tex_multisample,
        tex_multisample_storage,
        tex_multisample_counts,
        mesh_texel_vertices,
        line_strip,
        line_angles,
        line_diagonals,
    ],
}

/// Captures where the H100 and the simulator differ in a known way; each
/// has its own test below saying how.
const KNOWN_DIFFERENCES: &[&str] = &["math_bits", "math_geometric", "tex_grad_pair"];

/// The simulator's and the H100's words of one buffer of a capture.
fn buffer_pair(name: &str, binding: u32) -> (Vec<u32>, Vec<u32>) {
    let run = root().join(format!("tests/runs/{name}.json"));
    let sim =
        simulate_run_file(&run, &SimulateOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let reference = Capture::read(&root().join(format!("tests/reference/{name}")))
        .unwrap_or_else(|e| panic!("{e}"));
    let get = |c: &Capture| c.buffer(binding).map(<[u32]>::to_vec).unwrap_or_default();
    (get(&sim.capture), get(&reference))
}

/// bit_operations.comp: every unsigned word is equal, and every signed
/// word whose input y is not negative. Where y < 0 the signed word differs
/// in its `y % 7` term only: glslang emits OpSMod, which the project
/// computes as SPIR-V defines it (the divisor's sign), while the H100
/// returns the unsigned remainder `(y as u32) % 7` there (GLSL leaves `%`
/// of negative operands undefined; lavapipe returns OpSRem's value
/// instead). The test swaps that one term and expects equality.
#[test]
fn math_bits_differs_only_in_the_remainder_of_negative_dividends() {
    let (u_sim, u_ref) = buffer_pair("math_bits", 0);
    assert_eq!(u_sim.len(), 32);
    assert_eq!(u_sim, u_ref);
    let (s_sim, s_ref) = buffer_pair("math_bits", 1);
    let desc = RunDescription::load(&root().join("tests/runs/math_bits.json"))
        .unwrap_or_else(|e| panic!("{e}"));
    let Data::U32(ys) = &desc.buffers[1].contents[0] else {
        panic!("math_bits: binding 1 is given as u32 words")
    };
    let mut negative = 0;
    for (i, &y) in ys.iter().enumerate() {
        let signed = y as i32;
        if signed >= 0 {
            assert_eq!(s_sim[i], s_ref[i], "s[{i}], y = {signed}");
            continue;
        }
        negative += 1;
        let smod = signed.rem_euclid(7) as u32;
        let h100 = y % 7;
        assert_eq!(s_sim[i] ^ smod ^ h100, s_ref[i], "s[{i}], y = {signed}");
    }
    assert!(negative >= 8, "only {negative} negative dividends");
}

/// The line captures (a zigzag strip; 32 lines at many angles, on pixel
/// centres, on pixel edges and at sub-pixel offsets; 32 lines near 45
/// degrees a tenth of a pixel apart in offset): coverage is the
/// H100's pixel for pixel, edge pixels included, as the strict-line rule
/// draws them (sim/src/raster/line.rs; docs/HARDWARE.md, "Lines").
#[test]
fn lines_cover_the_h100_pixels_exactly() {
    for name in ["line_strip", "line_angles", "line_diagonals"] {
        let run = root().join(format!("tests/runs/{name}.json"));
        let sim =
            simulate_run_file(&run, &SimulateOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let reference = Capture::read(&root().join(format!("tests/reference/{name}")))
            .unwrap_or_else(|e| panic!("{e}"));
        let exact = Tolerances {
            edge_distance: 0.0,
            ..Tolerances::default()
        };
        let c = compare(&sim, &reference, &exact);
        let image = c
            .image
            .as_ref()
            .ok()
            .and_then(Option::as_ref)
            .expect("an image on both sides");
        assert!(
            image.only_simulator.is_empty()
                && image.only_reference.is_empty()
                && image.edge_only_simulator.is_empty()
                && image.edge_only_reference.is_empty(),
            "{name}: {c}"
        );
        assert!(c.matches(), "{name}: {c}");
    }
}

/// geometric.comp: 124 of 128 words within 8 ULPs of the H100 (whose
/// MUFU-based functions round differently from the simulator's); the four
/// others are sums that cancel to near zero, within an absolute 2e-6 of
/// the H100's (their error is that of their terms).
#[test]
fn math_geometric_is_within_its_error_bounds() {
    let (sim, h100) = buffer_pair("math_geometric", 0);
    assert_eq!(sim.len(), 128);
    let mut beyond_ulps = 0;
    for (i, (&a, &b)) in sim.iter().zip(&h100).enumerate() {
        if spvsass::compare::ulp_distance(a, b) <= 8 {
            continue;
        }
        beyond_ulps += 1;
        let (a, b) = (f32::from_bits(a), f32::from_bits(b));
        assert!((a - b).abs() <= 2e-6, "word {i}: simulator {a}, H100 {b}");
    }
    assert!(beyond_ulps <= 4, "{beyond_ulps} words beyond 8 ULPs");
}

/// tex_grad_pair.comp (H200; every level L of its R32F images holds 64·L,
/// so a word is 64·λ to the 1/256 step; docs/TEXTURES.md, "Gradient
/// sweeps" and "3D and cube gradients"): the 2D pairs at every angle
/// (slots 0–2) are equal; the cube slots (3–7: the texture unit's 2D λ of
/// the face derivatives of the quad NVIDIA's driver builds, each taken on
/// the face its moved direction selects, computed in our code; derivatives
/// that shrink the major axis, cross the centre or leave the face) differ
/// in 2 words, by one step: slot 5 of invocations 146 and 194, pairs whose
/// moved directions leave the face.
#[test]
fn tex_grad_pair_differs_in_two_cube_words() {
    let (sim, h200) = buffer_pair("tex_grad_pair", 2);
    assert_eq!(sim.len(), 256 * 8);
    let mut differ = vec![];
    for (w, (&a, &b)) in sim.iter().zip(&h200).enumerate() {
        if a != b {
            differ.push((w / 8, w % 8, lod_steps(a) - lod_steps(b)));
        }
    }
    assert_eq!(differ, [(146, 5, 1), (194, 5, 1)]);
}

#[test]
fn every_capture_has_a_test() {
    let mut on_disk: Vec<String> = std::fs::read_dir(root().join("tests/reference"))
        .unwrap_or_else(|e| panic!("{e}"))
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        // Captures of our own cubins have their own test files
        // (tests/reference_cuda.rs, tests/op_truth.rs).
        .filter(|name| name != "cuda" && name != "cuda_ops")
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = CAPTURES
        .iter()
        .chain(KNOWN_DIFFERENCES)
        .map(|s| s.to_string())
        .collect();
    listed.sort();
    assert_eq!(listed, on_disk);
}

/// The comparison catches what it is meant to: a capture with one pixel
/// cleared away from the edges, and one with a colour off by 1e-4.
#[test]
fn a_changed_capture_is_a_mismatch() {
    let run = root().join("tests/runs/triangle.json");
    let sim =
        simulate_run_file(&run, &SimulateOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let capture =
        Capture::read(&root().join("tests/reference/triangle")).unwrap_or_else(|e| panic!("{e}"));
    // Pixel (32, 32) is inside the triangle, far from its edges.
    let at = (32 * 64 + 32) * 4;
    let mut cleared = capture.clone();
    cleared.pixels[at..at + 4].fill(0.0);
    let c = compare(&sim, &cleared, &Tolerances::default());
    let image = c.image.as_ref().ok().and_then(Option::as_ref);
    assert_eq!(
        image.map(|i| i
            .only_simulator
            .iter()
            .map(|p| (p.x, p.y))
            .collect::<Vec<_>>()),
        Some(vec![(32, 32)])
    );
    assert!(!c.matches());
    assert!(
        c.to_string()
            .contains("covered by the simulator only: 1: (32, 32)"),
        "{c}"
    );

    let mut tinted = capture;
    tinted.pixels[at] += 1e-4;
    let c = compare(&sim, &tinted, &Tolerances::default());
    assert!(!c.matches(), "{c}");
}

fn spvsass(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_spvsass"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_compare_command_exits_1_on_a_mismatch() {
    let ok = spvsass(&[
        "compare",
        "tests/runs/ref_quads.json",
        "--against",
        "tests/reference/ref_quads",
    ]);
    let out = String::from_utf8_lossy(&ok.stdout);
    assert_eq!(ok.status.code(), Some(0), "{out}");
    assert!(
        out.starts_with(
            "ref_quads: simulator vs NVIDIA H100 80GB HBM3 (NVIDIA 580.159.04): match\n"
        )
    );
    // The triangle against the point's capture: same image size, other
    // coverage and statistics.
    let bad = spvsass(&[
        "compare",
        "tests/runs/triangle.json",
        "--against",
        "tests/reference/point",
    ]);
    let out = String::from_utf8_lossy(&bad.stdout);
    assert_eq!(bad.status.code(), Some(1), "{out}");
    assert!(out.contains("MISMATCH"), "{out}");
    assert!(
        out.contains("fragment_shader_invocations: simulator 512, reference 4096  DIFFERS"),
        "{out}"
    );
    assert_eq!(
        String::from_utf8_lossy(&bad.stderr),
        "error: point: the simulator does not match the reference\n"
    );
}

/// A multiview run matches, its report naming the statistics counted once
/// per view by the simulator and once in all on the H100.
#[test]
fn the_compare_report_names_per_view_counts() {
    let out = spvsass(&[
        "compare",
        "tests/runs/ref_views.json",
        "--against",
        "tests/reference/ref_views",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains(
            "mesh_shader_invocations: simulator 64, reference 32  (counted once per view: 2 views)\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("fragment_shader_invocations: simulator 1024, reference 1024\n"),
        "{text}"
    );
}

/// NVIDIA's own code for tex_grad_pair.comp, read from the driver's shader
/// cache on the H100 (`scripts/driver-sass.py`; docs/TEXTURES.md, "What
/// NVIDIA's driver emits for a cube textureGrad"): its three 2D
/// textureGrads are TXDs, and each of its five cube textureGrads is four
/// implicit-derivative cube TEXs, one per quad lane, over directions the
/// two FSWZADD patterns build (lane 1 adds dPdx, lane 2 dPdy, lane 3 both).
#[test]
fn the_driver_builds_a_quad_for_a_cube_gradient() {
    let path = root().join("tests/reference/tex_grad_pair/driver.sass");
    let sass = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let count = |what: &str| sass.lines().filter(|l| l.contains(what)).count();
    assert_eq!(count("TXD "), 3);
    assert_eq!(count(" 2D, "), 3);
    assert_eq!(count("TEX.SCR.NDV"), 20);
    assert_eq!(count(", CUBE, "), 20);
    assert_eq!(count("BMOV.32.PQUAD MACTIVE"), 20);
    // Per cube lookup, quad lane and component: dPdx into lanes 1 and 3,
    // then dPdy into lanes 2 and 3.
    assert_eq!(count("ZPPPZPPP"), 60);
    assert_eq!(count("ZPZPPPPP"), 60);
    assert_eq!(count("MUFU.RCP"), 20);
}

/// Level steps (1/256) of a word of the gradient captures, whose level L
/// holds 64·L: the word is 64·λ.
fn lod_steps(word: u32) -> i64 {
    (f64::from(f32::from_bits(word)) * 4.0).round() as i64
}

/// tex_grad_quad.comp (H100): for 695 of tex_grad_pair's cube lookups, a
/// cube textureGrad along the face that gives the driver's quad the same
/// face coordinates, and a 2D textureGrad with the same face derivatives.
/// On the H100 all three are the same word (docs/TEXTURES.md, "What
/// NVIDIA's driver emits for a cube textureGrad"): the unit's cube λ is its
/// 2D gradient λ of the face derivatives, which is why the simulator's
/// cube rule is the 2D one (the simulator's words are compared with the
/// capture's as the other captures are, above).
#[test]
fn tex_grad_quad_cube_words_are_their_2d_words() {
    let (_, h100) = buffer_pair("tex_grad_quad", 2);
    let (_, pair) = buffer_pair("tex_grad_pair", 2);
    let desc = RunDescription::load(&root().join("tests/runs/tex_grad_quad.json"))
        .unwrap_or_else(|e| panic!("{e}"));
    let Data::F32(rows) = &desc.buffers[1].contents[0] else {
        panic!("tex_grad_quad's rows are not f32 words");
    };
    assert_eq!(rows.len(), 695 * 16);
    assert_eq!(h100.len(), 695 * 2);
    for (i, row) in rows.chunks(16).enumerate() {
        let key = row[3] as usize;
        assert_eq!(h100[2 * i], h100[2 * i + 1], "row {i}: cube and 2D words");
        assert_eq!(h100[2 * i], pair[key], "row {i}: tex_grad_pair word {key}");
    }
}

/// tex_grad_sweep.comp (H100; docs/TEXTURES.md, "Gradient sweeps"; the
/// simulator's words are compared with the capture's above): λ of the
/// shorter component j/16384 beside a longer one of 1 changes only where
/// the shorter component's top 9 mantissa bits do, so the unit truncates it
/// to 9 bits, and the part it adds is (11·m + 4)/32 of those bits m.
#[test]
fn tex_grad_sweep_counts_the_shorter_component_by_its_top_9_bits() {
    let (_, h100) = buffer_pair("tex_grad_sweep", 2);
    assert_eq!(h100.len(), 45056);
    // λ's step is T[k] of k = ⌊256·part⌋ (ρ = 1 + part, below 2), the part
    // (11·m + 4)/32 of the shorter component's top 10 significant bits m.
    let table = |k: u32| {
        if k == 0 {
            0
        } else {
            ((256.0 * (1.0 + (f64::from(k) + 0.5) / 256.0).log2() + 0.47).floor() as i64).min(255)
        }
    };
    for j in 1..16384u32 {
        // j/16384 = m·2^s/16384 + the truncated rest, m of 10 bits.
        let bits = 32 - j.leading_zeros() as i32;
        let s = bits - 10;
        let m = if s >= 0 { j >> s } else { j << -s };
        let num = 11 * m + 4;
        // k = ⌊256·(11·m + 4)/32·2^s/16384⌋ = ⌊(11·m + 4)·2^s/2048⌋.
        let k = if s >= 0 {
            (num << s) / 2048
        } else {
            num / (2048 << -s)
        };
        let w = 4096 + j as usize;
        assert_eq!(lod_steps(h100[w]), table(k), "shorter component {j}/16384");
    }
}
