//! Regressions from issue 18's random and mutated programs: each shader in
//! tests/shaders/r_*.glsl is a reduced program that the compiler once
//! refused, panicked on, deadlocked or miscompiled. Every test simulates it
//! and checks each output word against the same computation on the CPU.

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::sim::ComputeInputs;

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Dispatches compute shader `name` (one workgroup) with `data` in
/// binding 0 and returns that buffer after.
fn run_compute(name: &str, data: &[u32]) -> Vec<u32> {
    run_compute_on(name, data, Arch::Sm86)
}

/// As [`run_compute`], compiled for `arch`.
fn run_compute_on(name: &str, data: &[u32], arch: Arch) -> Vec<u32> {
    let compiled = common::compile(name, arch);
    let mut inputs = ComputeInputs::default();
    inputs.buffers.insert(0, bytes_of(data));
    let run = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    words_of(&run.buffers[&0])
}

fn inputs32() -> Vec<u32> {
    (0..32u32).map(|i| (i * 7) % 11).collect()
}

#[test]
fn s1_control_flow_inside_a_branch_folded_to_false() {
    // if (false) { if (v == 3u) v = 1u; } o[i] = v + 1u;
    let data = inputs32();
    let out = run_compute("r_dead_nested_if.comp", &data);
    for (i, (&v, &r)) in data.iter().zip(&out).enumerate() {
        assert_eq!(r, v + 1, "o[{i}]");
    }
}

#[test]
fn s1_loop_inside_a_branch_the_compiler_folds_to_false() {
    // uint z = 0u; if (z > 0u) { for (...) v += k; } o[i] = v * 2u;
    let data = inputs32();
    let out = run_compute("r_dead_loop.comp", &data);
    for (i, (&v, &r)) in data.iter().zip(&out).enumerate() {
        assert_eq!(r, v * 2, "o[{i}]");
    }
}

#[test]
fn s2_early_return_from_a_loop_of_an_inlined_function_before_a_barrier() {
    // f(x): for k in 0..4 { if x + k >= 0 return k } return 9; the lanes
    // leave the loop at different iterations, some by the return.
    let data: Vec<u32> = (0..32i32).map(|i| ((i % 9) - 6) as u32).collect();
    let out = run_compute("r_return_in_loop.comp", &data);
    let f = |x: i32| (0..4).find(|k| x + k >= 0).unwrap_or(9);
    for i in 0..32 {
        let mine = f(data[i] as i32);
        let mirror = f(data[31 - i] as i32);
        assert_eq!(out[i] as i32, mirror + mine * 10, "o[{i}]");
    }
}

fn spvsass(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_spvsass"))
        .args(args)
        .output()
        .expect("spvsass runs")
}

/// A file of its own in a temporary directory (tests run in parallel).
fn tmp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("spvsass-random-finds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name).to_string_lossy().into_owned()
}

/// Draws one workgroup of mesh shader `name` (behind `task` if given) with
/// `data` bound at `input`, and returns buffer `output` after, and stdout.
fn run_mesh(
    name: &str,
    task: Option<&str>,
    input: (u32, &[u32]),
    output: (u32, usize),
) -> (Vec<u32>, String) {
    let shader = common::shader_path(name).to_string_lossy().into_owned();
    let input_file = tmp(&format!("{name}.in"));
    std::fs::write(&input_file, bytes_of(input.1)).expect("write input");
    let out_file = tmp(&format!("{name}.out"));
    let mut args = vec!["run".to_string(), shader];
    if let Some(t) = task {
        args.push("--task".into());
        args.push(common::shader_path(t).to_string_lossy().into_owned());
    }
    args.extend(["--groups".into(), "1".into()]);
    args.extend(["--buffer".into(), format!("{}={input_file}", input.0)]);
    if output.0 != input.0 {
        args.extend(["--buffer".into(), format!("{}={}", output.0, output.1)]);
    }
    args.extend(["--out".into(), format!("{}={out_file}", output.0)]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = spvsass(&args);
    assert!(
        o.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let words = words_of(&std::fs::read(&out_file).expect("output written"));
    (words, String::from_utf8_lossy(&o.stdout).into_owned())
}

#[test]
fn s4_lanes_past_a_40_invocation_mesh_workgroup_neither_store_nor_count() {
    let fill = vec![0xdead_beefu32; 64];
    let (out, stdout) = run_mesh("r_wide40.mesh", None, (0, &fill), (0, 256));
    for (i, &w) in out.iter().enumerate().take(40) {
        assert_eq!(w, i as u32 * 3 + 1, "o[{i}]");
    }
    for (i, &w) in out.iter().enumerate().take(63).skip(40) {
        assert_eq!(w, 0xdead_beef, "o[{i}] written by no invocation");
    }
    assert_eq!(out[63], 0xdead_beef + 40, "one atomic add per invocation");
    assert!(stdout.contains("40 mesh invocations"), "{stdout}");
}

#[test]
fn local_invocation_id_of_a_6x4x2_mesh_workgroup() {
    let (out, _) = run_mesh("r_wide_local_id48.mesh", None, (0, &[0; 64]), (0, 256));
    for (i, &w) in out.iter().enumerate() {
        let i = i as u32;
        let expected = if i < 48 {
            (i % 6) | ((i / 6 % 4) << 8) | ((i / 24) << 16)
        } else {
            0
        };
        assert_eq!(w, expected, "o[{i}]");
    }
}

#[test]
fn s5_shared_memory_atomic_and_load_at_a_folded_constant_index() {
    // s[i] = 3i for i < 8; atomicMax(s[3], 5i) over 32 invocations: 155.
    let (out, _) = run_mesh("r_isbe_const_index.mesh", None, (0, &[0; 32]), (0, 128));
    for (i, &w) in out.iter().enumerate() {
        assert_eq!(w, 6 + 155 * 100, "o[{i}]");
    }
}

#[test]
fn s5_payload_store_under_a_branch_at_a_folded_constant_index() {
    // Only invocation 13 sees a 9: it writes p.b[1] = 9 + 13.
    let data: Vec<u32> = (0..32).map(|i| if i == 13 { 9 } else { i % 5 }).collect();
    let (out, _) = run_mesh(
        "r_payload_const_index.mesh",
        Some("r_payload_const_index.task"),
        (0, &data),
        (1, 8),
    );
    assert_eq!(out, vec![7, 22]);
}

#[test]
fn sign_and_step_of_doubles() {
    // d[i] = sign(x) + step(0.5, x) * 10.
    let xs = [-2.5f64, -0.0, 0.0, 0.25, 0.5, 3.0, -1e-300, 1e300];
    let data: Vec<u32> = xs
        .iter()
        .flat_map(|x| {
            let b = x.to_bits();
            [b as u32, (b >> 32) as u32]
        })
        .collect();
    let out = run_compute("r_double_sign_step.comp", &data);
    for (i, &x) in xs.iter().enumerate() {
        let got = f64::from_bits(u64::from(out[2 * i]) | u64::from(out[2 * i + 1]) << 32);
        let sign = if x > 0.0 {
            1.0
        } else if x < 0.0 {
            -1.0
        } else {
            x
        };
        let step = if x < 0.5 { 0.0 } else { 1.0 };
        let expected = sign + step * 10.0;
        assert_eq!(got.to_bits(), expected.to_bits(), "x = {x}: {got}");
    }
}

#[test]
fn a_workgroup_size_whose_product_wraps_is_refused() {
    // LocalSize 65536 65536 1: 2^32 invocations, 0 in 32-bit arithmetic.
    let options = spvsass::Options {
        arch: Some(Arch::Sm86),
        ..Default::default()
    };
    let Err(err) = spvsass::compile(&common::shader_words("r_workgroup_wrap.comp"), &options)
    else {
        panic!("a workgroup of 2^32 invocations compiled");
    };
    let text = err.to_string();
    assert!(
        text.contains("65536 x 65536 x 1 invocations (at most 1024)"),
        "{text}"
    );
}

#[test]
fn min_max_and_clamp_order_minus_zero_below_plus_zero() {
    // progfuzz seed 300: max(0.0, x * 0.0) for x < 0 is max(+0, -0). Per
    // invocation: f32 max both orders, min both orders, clamp to [0, 1];
    // the same in f64 (high words).
    let xs: Vec<f32> = (0..32).map(|i| (i as f32 - 15.5) / 4.0).collect();
    for arch in [Arch::Sm75, Arch::Sm86] {
        let mut data = vec![0u32; 320];
        for (i, x) in xs.iter().enumerate() {
            data[i * 10] = x.to_bits();
        }
        let out = run_compute_on("r_fmax_signed_zero.comp", &data, arch);
        for (i, x) in xs.iter().enumerate() {
            let o = &out[i * 10..i * 10 + 10];
            let minus = if *x < 0.0 { 0x8000_0000 } else { 0 };
            let expected = [0, 0, minus, minus, 0, 0, 0, minus, minus, 0];
            assert_eq!(o, expected, "{arch:?}, x = {x}");
        }
    }
}

#[test]
fn a_branch_only_the_backend_folds_inside_a_divergent_branch_opens_its_barrier() {
    // progfuzz seed 837: the folded inner `if` kept its BSYNC B1 without a
    // BSSY and waited for the lanes an earlier `if` had left in B1.
    let data = inputs32();
    for arch in [Arch::Sm75, Arch::Sm86] {
        let out = run_compute_on("r_folded_branch_barrier.comp", &data, arch);
        for (i, (&x, &r)) in data.iter().zip(&out).enumerate() {
            let mut v = x;
            if v > 2 && i % 2 == 0 {
                v += 5 * (i as u32 & 3);
            }
            if v < 7 {
                v += 1;
            }
            assert_eq!(r, v * 2, "{arch:?} o[{i}]");
        }
    }
}

#[test]
fn s3_a_double_chosen_by_a_branch_whose_low_words_agree() {
    // for k in 0..3: d = v != k ? 60.25 : 0.0; if 0 >= d continue; n += 1 + k.
    let data = inputs32();
    for arch in [Arch::Sm75, Arch::Sm86] {
        let out = run_compute_on("r_double_branch_pair.comp", &data, arch);
        for (i, (&v, &r)) in data.iter().zip(&out).enumerate() {
            let n: u32 = (0..3).filter(|&k| v != k).map(|k| 1 + k).sum();
            assert_eq!(r, n, "{arch:?} o[{i}]");
        }
    }
}

#[test]
fn abs_sign_clamp_and_float_conversions_of_64_bit_integers() {
    // r_wide_conversions.comp: per invocation ten results from x[i] (i64),
    // f[i] (f32) and d[i] (f64); see the shader.
    let xs: [i64; 32] = [
        0,
        1,
        -1,
        5,
        -5,
        i64::MIN,
        i64::MAX,
        65519,
        65520,
        -65520,
        2047,
        2049,
        4097,
        1 << 40,
        (1 << 40) + 1,
        -(1 << 41),
        123_456_789,
        -987_654_321,
        0x1234_5678_9abc_def0,
        255,
        256,
        -32768,
        32767,
        70000,
        -70000,
        1_000_000_000_000_000,
        3,
        4,
        6,
        7,
        1000,
        1_000_000,
    ];
    let fs: Vec<f32> = (0..32)
        .map(|i| (i as f32 - 15.3) * 3.1 * 10f32.powi(i % 7))
        .collect();
    let ds: Vec<f64> = (0..32).map(|i| (f64::from(i) - 16.4) * 1900.7).collect();
    let mut data: Vec<u32> = Vec::new();
    data.extend(xs.iter().flat_map(|x| [*x as u32, (*x >> 32) as u32]));
    data.extend(fs.iter().map(|f| f.to_bits()));
    data.extend(
        ds.iter()
            .flat_map(|d| [d.to_bits() as u32, (d.to_bits() >> 32) as u32]),
    );
    data.extend(std::iter::repeat_n(0, 640));
    let f16_bits = |v: f64| i64::from(half::f16::from_f64(v).to_bits());
    for arch in [Arch::Sm75, Arch::Sm86] {
        let out = run_compute_on("r_wide_conversions.comp", &data, arch);
        let r = |k: usize| {
            let at = 160 + 2 * k;
            i64::from(out[at]) | i64::from(out[at + 1]) << 32
        };
        for i in 0..32 {
            let (v, f, d) = (xs[i], fs[i], ds[i]);
            let u = v as u64;
            let half_of_f = half::f16::from_f32(f * 0.001).to_f32() as i64;
            let expected = [
                v.wrapping_abs(),
                v.signum(),
                v.clamp(-1000, 1_000_000),
                u.clamp(5, 1 << 40) as i64,
                f as i64,
                f.abs() as u64 as i64,
                i64::from(d as i16),
                (f64::from(v as i16) + f64::from(v as u8)).to_bits() as i64,
                // Exact in f64 below 2^53; every larger magnitude is
                // infinite in f16 either way.
                f16_bits(v as f64),
                half_of_f + f16_bits(u as f64),
            ];
            for (k, e) in expected.iter().enumerate() {
                assert_eq!(
                    r(i * 10 + k),
                    *e,
                    "{arch:?} x = {v}, f = {f}, d = {d}: r[{k}]"
                );
            }
        }
    }
}

/// The compile error of `name` for sm86.
fn compile_error(name: &str) -> String {
    let options = spvsass::Options {
        arch: Some(Arch::Sm86),
        ..Default::default()
    };
    match spvsass::compile(&common::shader_words(name), &options) {
        Ok(_) => panic!("{name} compiled"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_variable_initialised_with_itself_is_malformed_not_a_stack_overflow() {
    let text = compile_error("r_self_init.comp");
    assert!(
        text.contains("malformed OpVariable %16: the variable's initializer contains itself"),
        "{text}"
    );
}

#[test]
fn a_local_array_past_4_gib_is_refused_not_an_overflow() {
    let text = compile_error("r_huge_local_array.comp");
    assert!(
        text.contains("[f32; 2147483647]") && text.contains("OpVariable, result %28"),
        "{text}"
    );
}

#[test]
fn struct_with_bools_returned_through_an_early_return() {
    // r_struct_bool_phi.comp: decode(a) returns S { x: 3a, f: a > 5,
    // g: a == 4, y: a == 4 ? 7 : a + 11 }; the inlined return value is a
    // block parameter holding two bools.
    let data: Vec<u32> = (0..32u32).map(|i| (i * 5) % 13).collect();
    for arch in [Arch::Sm75, Arch::Sm86] {
        let out = run_compute_on("r_struct_bool_phi.comp", &data, arch);
        for (i, (&a, &r)) in data.iter().zip(&out).enumerate() {
            let (x, f, g) = (a * 3, a > 5, a == 4);
            let y = if g { 7 } else { a + 11 };
            let want = if f { x + y } else { x * 100 + y } + if g { 5000 } else { 0 };
            assert_eq!(r, want, "{arch}: v[{i}] from {a}");
        }
    }
}
