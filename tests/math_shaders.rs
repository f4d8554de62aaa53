//! Corpus shaders that use the Math family (geometric, bit, float builtin
//! and packing functions), compiled and run in the simulator, every output
//! checked against the same computation on the CPU (f64 for floats, within
//! the bounds of docs/ISA.md "Float functions").

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::frontend::SpecValue;
use spvsass::sim::{ComputeInputs, ComputeRun};
use std::collections::BTreeMap;

fn bytes_of_f32(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn bytes_of_u32(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn u32s(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn run_with(
    name: &str,
    spec: Vec<(u32, SpecValue)>,
    groups: [u32; 3],
    buffers: Vec<(u32, Vec<u8>)>,
) -> ComputeRun {
    let options = spvsass::Options {
        arch: Some(Arch::Sm86),
        spec_constants: spec,
        ..Default::default()
    };
    let compiled = spvsass::compile(&common::shader_words(name), &options)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let inputs = ComputeInputs {
        buffers: buffers.into_iter().collect::<BTreeMap<_, _>>(),
        ..Default::default()
    };
    spvsass::Dispatch::new(&compiled.binary, groups)
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn run(name: &str, groups: [u32; 3], buffers: Vec<(u32, Vec<u8>)>) -> ComputeRun {
    run_with(name, Vec::new(), groups, buffers)
}

fn close(got: f32, want: f64, tol: f64, what: &str) {
    assert!(
        (f64::from(got) - want).abs() <= tol * want.abs().max(1.0),
        "{what}: got {got}, want {want}"
    );
}

/// Pseudo-random floats in [lo, hi) from a fixed LCG.
fn noise(n: usize, seed: u32, lo: f32, hi: f32) -> Vec<f32> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            lo + (hi - lo) * (x >> 8) as f32 / (1 << 24) as f32
        })
        .collect()
}

type V3 = [f64; 3];

fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn scale(a: V3, k: f64) -> V3 {
    a.map(|x| x * k)
}

fn add(a: V3, b: V3) -> V3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn normalize(a: V3) -> V3 {
    scale(a, 1.0 / dot(a, a).sqrt())
}

#[test]
fn geometric_functions() {
    let n = noise(32 * 4, 1, -2.0, 2.0);
    let l = noise(32 * 4, 2, -2.0, 2.0);
    let run = run(
        "geometric.comp",
        [1, 1, 1],
        vec![(0, bytes_of_f32(&n)), (1, bytes_of_f32(&l))],
    );
    let out = f32s(&run.buffers[&0]);
    for i in 0..32 {
        let v3 = |b: &[f32]| [0, 1, 2].map(|k| f64::from(b[4 * i + k]));
        let nn = normalize(v3(&n));
        let ll = v3(&l);
        let ii = scale(ll, -1.0);
        let diffuse = dot(nn, normalize(ll)).max(0.0);
        let r = add(ii, scale(nn, -2.0 * dot(nn, ii)));
        let eta = f64::from(1.0f32 / 1.33);
        let d = dot(nn, ii);
        let k = 1.0 - eta * eta * (1.0 - d * d);
        let t = if k < 0.0 {
            [0.0; 3]
        } else {
            add(scale(ii, eta), scale(nn, -(eta * d + k.sqrt())))
        };
        let f = if dot(nn, ii) < 0.0 {
            nn
        } else {
            scale(nn, -1.0)
        };
        let tangent = [-nn[2], 0.0, nn[0]];
        let sum = add(add(add(r, t), f), scale(tangent, diffuse));
        let dist = dot(add(nn, scale(ll, -1.0)), add(nn, scale(ll, -1.0))).sqrt();
        let w = dot(ll, ll).sqrt() + dist;
        for (k, want) in sum.into_iter().chain([w]).enumerate() {
            close(out[4 * i + k], want, 1e-5, &format!("n[{i}].{k}"));
        }
    }
}

/// bit_operations.comp on the CPU.
fn bit_operations_reference(x: u32, y: i32) -> (u32, i32) {
    let insert = (x & !(0x7 << 4)) | (0x5 << 4);
    let mut r = insert ^ ((x >> 8) & 0x1f) ^ x.reverse_bits();
    let lsb = if x == 0 { u32::MAX } else { x.trailing_zeros() };
    let umsb = if x == 0 {
        u32::MAX
    } else {
        31 - x.leading_zeros()
    };
    let v = if y < 0 { !(y as u32) } else { y as u32 };
    let smsb = if v == 0 {
        u32::MAX
    } else {
        31 - v.leading_zeros()
    };
    r = r
        .wrapping_add(x.count_ones())
        .wrapping_add(lsb)
        .wrapping_add(umsb)
        .wrapping_add(smsb);
    let e = (y << (32 - 3 - 6)) >> (32 - 6);
    let (sum, carry) = x.overflowing_add(r);
    let (diff, borrow) = x.overflowing_sub(r);
    let wide = u64::from(x) * u64::from(r);
    let swide = i64::from(y) * i64::from(e);
    let u = [
        sum,
        diff,
        carry as u32,
        borrow as u32,
        (wide >> 32) as u32,
        wide as u32,
        x << 3,
        x >> 5,
        !x & 0xff,
        x | 1,
    ]
    .iter()
    .fold(0u32, |a, b| a.wrapping_add(*b));
    let s = ((swide >> 32) as i32)
        ^ (swide as i32)
        ^ (y >> 2)
        ^ y.rem_euclid(7)
        ^ y.wrapping_div(3)
        ^ y.wrapping_neg();
    (u, s)
}

#[test]
fn bit_operations() {
    let mut xs: Vec<u32> = vec![0, 1, 0xffff_ffff, 0x8000_0000, 0x1234_5678, 0xf0, 0x100];
    let mut ys: Vec<i32> = vec![0, -1, i32::MIN, i32::MAX, -7, 12345, -300];
    let mut seed = 7u32;
    while xs.len() < 32 {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        xs.push(seed);
        ys.push(seed.rotate_left(13) as i32);
    }
    let ys_bits: Vec<u32> = ys.iter().map(|&y| y as u32).collect();
    let run = run(
        "bit_operations.comp",
        [1, 1, 1],
        vec![(0, bytes_of_u32(&xs)), (1, bytes_of_u32(&ys_bits))],
    );
    let (u, s) = (u32s(&run.buffers[&0]), u32s(&run.buffers[&1]));
    for i in 0..32 {
        let (wu, ws) = bit_operations_reference(xs[i], ys[i]);
        assert_eq!(u[i], wu, "u[{i}] for x = {:#x}", xs[i]);
        assert_eq!(s[i] as i32, ws, "s[{i}] for y = {}", ys[i]);
    }
}

/// function_calls.comp on the CPU: the nearest of four unit spheres at
/// (2s, 0, 5) along a normalised direction.
fn ray_reference(d: [f32; 4]) -> [f64; 4] {
    let dir = normalize([0, 1, 2].map(|k| f64::from(d[k])));
    let (mut lo, mut hi) = (f64::from(d[3]), 1.0);
    if lo > hi {
        std::mem::swap(&mut lo, &mut hi);
    }
    let (mut t, mut which) = (1e30, -1);
    for s in 0..4 {
        let oc = [-2.0 * f64::from(s), 0.0, -5.0];
        let b = dot(oc, dir);
        let c = dot(oc, oc) - 1.0;
        let h = b * b - c;
        let hit = if h < 0.0 { -1.0 } else { -b - h.sqrt() };
        if hit > 0.0 && hit < t {
            t = hit;
            which = s;
        }
    }
    if which >= 0 {
        let p = scale(dir, t);
        [p[0], p[1], p[2], f64::from(which) + lo]
    } else {
        [hi; 4]
    }
}

fn check_function_calls(name: &str) {
    let mut data: Vec<[f32; 4]> = vec![
        [0.0, 0.0, 1.0, 0.5],
        [2.0, 0.0, 5.0, 3.0],
        [0.0, 1.0, 0.0, -2.0],
        [4.0, 0.1, 5.0, 0.25],
        [6.0, -0.2, 5.0, 2.0],
        [-1.0, 0.0, 0.0, 0.75],
    ];
    let extra = noise(26 * 4, 3, -1.0, 1.0);
    data.extend(extra.chunks(4).map(|c| [c[0] * 3.0, c[1] * 0.3, 5.0, c[3]]));
    let flat: Vec<f32> = data.iter().flatten().copied().collect();
    let run = run(name, [1, 1, 1], vec![(0, bytes_of_f32(&flat))]);
    let out = f32s(&run.buffers[&0]);
    for (i, d) in data.iter().enumerate() {
        let want = ray_reference(*d);
        for k in 0..4 {
            close(
                out[4 * i + k],
                want[k],
                1e-5,
                &format!("{name} data[{i}].{k}"),
            );
        }
    }
}

#[test]
fn function_calls() {
    check_function_calls("function_calls.comp");
}

#[test]
fn function_calls_spirv14() {
    check_function_calls("function_calls.comp.spirv14");
}

#[test]
fn shared_histogram_bins_clamped_values() {
    // Two workgroups of 256; values outside [0, 1) land in the end bins.
    let mut values = noise(512, 4, -0.25, 1.25);
    values[0] = 0.999_5;
    values[1] = f32::NAN;
    values[2] = -0.0;
    values[3] = 1.0 / 64.0;
    let init: Vec<u32> = (0..64).map(|b| b * 1000).collect();
    let run = run(
        "shared_histogram.comp",
        [2, 1, 1],
        vec![(0, bytes_of_f32(&values)), (1, bytes_of_u32(&init))],
    );
    let bins = u32s(&run.buffers[&1]);
    let mut want = init.clone();
    for &v in &values {
        // clamp(v, 0, 0.999) with minNum/maxNum: NaN becomes 0 (as
        // f32::max does; f32::clamp would keep the NaN).
        #[allow(clippy::manual_clamp)]
        let c = v.max(0.0).min(0.999);
        want[(c * 64.0) as usize] += 1;
    }
    assert_eq!(bins, want);
}

#[test]
fn spec_constant_ops_with_sqrt_enabled() {
    // 65 invocations fill the 65-entry tile; each reads its neighbour's
    // value, scaled by GAIN = 1.5, through sqrt(abs()).
    let data = noise(65, 5, -4.0, 4.0);
    let run = run_with(
        "spec_constant_ops.comp",
        vec![(0, SpecValue::Int(65)), (2, SpecValue::Bool(true))],
        [1, 1, 1],
        vec![(0, bytes_of_f32(&data))],
    );
    let out = f32s(&run.buffers[&0]);
    for i in 0..65 {
        let v = f64::from(data[(i + 1) % 65]) * 1.5;
        close(out[i], v.abs().sqrt(), 1e-6, &format!("data[{i}]"));
    }
}

/// float_builtins.comp's r for one component, in f64.
fn float_builtins_reference(x: f64) -> f64 {
    let sign = if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    };
    let fract = x - x.floor();
    let mut r = x.abs() + sign + x.floor() + x.ceil() + fract + x.trunc();
    r += 2.0 * x.round_ties_even();
    r += (x - 3.0 * (x / 3.0).floor()) + x.min(1.0) + x.max(-1.0) + x.clamp(-2.0, 2.0);
    let t = x.clamp(0.0, 1.0);
    r += (x * 0.75 + r * 0.25)
        + if x < 0.5 { 0.0 } else { 1.0 }
        + t * t * (3.0 - 2.0 * t)
        + x.mul_add(r, x);
    r += x.abs().powf(1.5) + x.exp() + (x.abs() + 1.0).ln() + x.exp2() + (x.abs() + 1.0).log2();
    r += x.abs().sqrt() + 1.0 / (x.abs() + 1.0).sqrt();
    let c = x.clamp(-1.0, 1.0);
    r += x.sin() + x.cos() + x.tan() + c.asin() + c.acos() + x.atan() + x.atan2(r);
    r += x.sinh() + x.cosh() + x.tanh() + x.asinh() + (x.abs() + 1.0).acosh();
    r += x.clamp(-0.5, 0.5).atanh();
    r += x.to_radians() + x.to_degrees();
    // ldexp(frexp(x)) is x; modf's parts sum to x.
    r += x + x;
    r
}

#[test]
fn float_builtins() {
    let v = noise(32 * 4, 6, -1.4, 1.4);
    let run = run(
        "float_builtins.comp",
        [1, 1, 1],
        vec![(0, bytes_of_f32(&v)), (1, vec![0; 32 * 16])],
    );
    let out = f32s(&run.buffers[&0]);
    let e = u32s(&run.buffers[&1]);
    for i in 0..32 * 4 {
        let x = v[i];
        let want = float_builtins_reference(f64::from(x));
        close(out[i], want, 2e-5, &format!("v[{i}] for x = {x}"));
        // |x| < 2, so ivec4(x) is 0 or ±1 and sign(ivec4(r)) is ±1 or 0.
        let (_, exp) = {
            let bits = x.to_bits();
            let field = (bits >> 23) & 0xff;
            (0, if x == 0.0 { 0 } else { field as i32 - 126 })
        };
        let xi = x as i32;
        let ri = want as f32 as i32;
        let want_e = exp + xi.abs() * ri.signum();
        assert_eq!(e[i] as i32, want_e, "e[{i}] for x = {x}");
    }
}

#[test]
fn meshlet_per_primitive_colour_positions_and_hashed_colours() {
    // Two workgroups: a fan of 30 triangles around a circle of 32 vertices
    // (cos/sin through MUFU), each with a colour hashed from its id / 255.
    let compiled = common::compile("meshlet_per_primitive_colour.mesh", Arch::Sm86);
    let draw = spvsass::Draw::new(None, &compiled.binary, [2, 1, 1])
        .run()
        .map(|r| r.draw)
        .unwrap_or_else(|e| panic!("{e}"));
    for (g, wg) in draw.workgroups.iter().enumerate() {
        assert_eq!(wg.primitive_count, 30);
        for (i, v) in wg.vertices.iter().enumerate() {
            let angle = f64::from(i as f32 * (std::f32::consts::TAU / 32.0));
            let p = v.position.expect("position written");
            close(p[0], angle.cos(), 2e-6, &format!("vertex {i} x"));
            close(p[1], angle.sin(), 2e-6, &format!("vertex {i} y"));
            assert_eq!((p[2], p[3]), (0.0, 1.0));
        }
        for (i, prim) in wg.primitives.iter().enumerate().take(30) {
            let id = g as u32 * 30 + i as u32;
            assert_eq!(prim.primitive_id, Some(id as i32));
            let h = id.wrapping_mul(2_654_435_761);
            let want = [h & 255, (h >> 8) & 255, (h >> 16) & 255].map(|c| c as f32 / 255.0);
            let colour = prim.generic[&0];
            for k in 0..3 {
                assert_eq!(colour[k], Some(want[k]), "primitive {id} colour {k}");
            }
            assert_eq!(colour[3], Some(1.0));
            assert_eq!(wg.indices[i], vec![0, i as u32 + 1, i as u32 + 2]);
        }
    }
}

/// Column-major n×n matrix (m[col][row]) inverse in f64 by Gauss-Jordan.
fn inverse_f64(m: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = m.len();
    // Row-major augmented [A | I] with A[r][c] = m[c][r].
    let mut a: Vec<Vec<f64>> = (0..n)
        .map(|r| {
            (0..2 * n)
                .map(|c| {
                    if c < n {
                        m[c][r]
                    } else {
                        f64::from(u8::from(c - n == r))
                    }
                })
                .collect()
        })
        .collect();
    for col in 0..n {
        let p = (col..n)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .expect("rows");
        a.swap(col, p);
        let d = a[col][col];
        a[col].iter_mut().for_each(|v| *v /= d);
        for r in 0..n {
            if r != col {
                let f = a[r][col];
                let pivot = a[col].clone();
                a[r].iter_mut().zip(&pivot).for_each(|(v, p)| *v -= f * p);
            }
        }
    }
    (0..n)
        .map(|c| (0..n).map(|r| a[r][n + c]).collect())
        .collect()
}

/// Determinant of a column-major n×n matrix by Laplace expansion.
fn det_f64(m: &[Vec<f64>]) -> f64 {
    let n = m.len();
    if n == 1 {
        return m[0][0];
    }
    (0..n)
        .map(|c| {
            let minor: Vec<Vec<f64>> = (0..n)
                .filter(|&k| k != c)
                .map(|k| m[k][1..].to_vec())
                .collect();
            let sign = if c % 2 == 0 { 1.0 } else { -1.0 };
            sign * m[c][0] * det_f64(&minor)
        })
        .sum()
}

fn upper_left(m: &[Vec<f64>], n: usize) -> Vec<Vec<f64>> {
    m[..n].iter().map(|c| c[..n].to_vec()).collect()
}

#[test]
fn matrix_inverses_determinants_and_products() {
    // Diagonally dominant (3·I + noise in [-1, 1)), so well conditioned.
    let noise = noise(32 * 16, 8, -1.0, 1.0);
    let mats: Vec<f32> = (0..32 * 16)
        .map(|k| noise[k] + if (k % 16) % 5 == 0 { 3.0 } else { 0.0 })
        .collect();
    let run = run(
        "c_matrix.comp",
        [1, 1, 1],
        vec![
            (0, bytes_of_f32(&mats)),
            (1, vec![0; 32 * 64]),
            (2, vec![0; 32 * 64]),
            (3, vec![0; 32 * 64]),
        ],
    );
    let (inv, prod, misc) = (
        f32s(&run.buffers[&1]),
        f32s(&run.buffers[&2]),
        f32s(&run.buffers[&3]),
    );
    let tol = 1e-5;
    for i in 0..32 {
        let m: Vec<Vec<f64>> = (0..4)
            .map(|c| {
                (0..4)
                    .map(|r| f64::from(mats[16 * i + 4 * c + r]))
                    .collect()
            })
            .collect();
        let want_inv = inverse_f64(&m);
        for c in 0..4 {
            for r in 0..4 {
                let what = format!("inverse {i} [{c}][{r}]");
                close(inv[16 * i + 4 * c + r], want_inv[c][r], tol, &what);
            }
        }
        let x: Vec<f64> = (0..4).map(|r| m[0][r] + m[3][r]).collect();
        for c in 0..4 {
            for r in 0..4 {
                let aat: f64 = (0..4).map(|k| m[k][r] * m[k][c]).sum();
                let want = aat + x[r] * m[1][c] * 0.5;
                close(
                    prod[16 * i + 4 * c + r],
                    want,
                    tol,
                    &format!("product {i} [{c}][{r}]"),
                );
            }
        }
        let misc_i = &misc[16 * i..16 * (i + 1)];
        let dets = [4, 3, 2].map(|n| det_f64(&upper_left(&m, n)));
        for (k, want) in dets.iter().enumerate() {
            close(misc_i[k], *want, tol, &format!("determinant {i} #{k}"));
        }
        for r in 0..4 {
            let ax: f64 = (0..4).map(|j| m[j][r] * x[j]).sum();
            let xa: f64 = (0..4).map(|k| x[k] * m[r][k]).sum();
            close(misc_i[4 + r], ax + xa, tol, &format!("a·x + x·a {i}.{r}"));
        }
        let i3 = inverse_f64(&upper_left(&m, 3));
        for r in 0..3 {
            let want: f64 = (0..3).map(|k| i3[k][r] * m[2][k]).sum();
            close(misc_i[8 + r], want, tol, &format!("inverse3 · v {i}.{r}"));
        }
        close(misc_i[11], i3[1][2], tol, &format!("inverse3 {i} [1][2]"));
        let i2 = inverse_f64(&upper_left(&m, 2));
        for c in 0..2 {
            let want: f64 = (0..2).map(|k| m[1][k] * i2[c][k]).sum();
            close(misc_i[12 + c], want, tol, &format!("v · inverse2 {i}.{c}"));
            close(
                misc_i[14 + c],
                i2[0][c],
                tol,
                &format!("inverse2 {i} [0][{c}]"),
            );
        }
    }
}

/// An f16 bit pattern as f32 (exact).
fn f16_to_f32(h: u32) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = (h >> 10) & 0x1f;
    let mant = (h & 0x3ff) as f32;
    sign * match exp {
        0 => mant * 2f32.powi(-24),
        31 if mant == 0.0 => f32::INFINITY,
        31 => f32::NAN,
        e => (1.0 + mant / 1024.0) * 2f32.powi(e as i32 - 15),
    }
}

/// A value exactly representable in f16 (|x| in [2^-14, 65504]) as bits.
fn f32_to_f16_exact(x: f32) -> u32 {
    if x == 0.0 {
        return if x.is_sign_negative() { 0x8000 } else { 0 };
    }
    let b = x.to_bits();
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    (b >> 16 & 0x8000) | (exp as u32) << 10 | (b & 0x7f_ffff) >> 13
}

#[test]
fn pack_and_unpack() {
    // x, y: multiples of 1/8 in [-4, 4) (exact in f16); z, w: noise in
    // [-1.5, 1.5), so the clamps matter; a few exact ties too.
    let raw = noise(32 * 4, 9, -1.5, 1.5);
    let mut c: Vec<f32> = raw
        .chunks(4)
        .flat_map(|v| {
            [
                (v[0] * 21.0).floor() / 8.0,
                (v[1] * 21.0).floor() / 8.0,
                v[2],
                v[3],
            ]
        })
        .collect();
    c[..4].copy_from_slice(&[0.5, -0.0, 0.5 / 255.0, -1.0]);
    c[4..8].copy_from_slice(&[1.0, 0.0, 2.5 / 127.0, 1.5]);
    let run = run(
        "c_pack.comp",
        [1, 1, 1],
        vec![
            (0, bytes_of_f32(&c)),
            (1, vec![0; 32 * 16]),
            (2, vec![0; 32 * 4]),
            (3, vec![0; 32 * 64]),
        ],
    );
    let (p, h, u) = (
        u32s(&run.buffers[&1]),
        u32s(&run.buffers[&2]),
        f32s(&run.buffers[&3]),
    );
    let field = |x: f32, lo: f32, scale: f32| (x.clamp(lo, 1.0) * scale).round_ties_even() as i32;
    for i in 0..32 {
        let v = &c[4 * i..4 * i + 4];
        let pack = |bits: u32, vals: &[f32], signed: bool| {
            let (lo, scale) = if signed {
                (-1.0, ((1u32 << (bits - 1)) - 1) as f32)
            } else {
                (0.0, ((1u32 << bits) - 1) as f32)
            };
            vals.iter().enumerate().fold(0u32, |acc, (k, &x)| {
                let f = field(x, lo, scale) as u32 & ((1u32 << bits) - 1);
                acc | f << (bits * k as u32)
            })
        };
        let want = [
            pack(8, v, false),
            pack(8, v, true),
            pack(16, &v[..2], false),
            pack(16, &v[2..], true),
        ];
        assert_eq!(&p[4 * i..4 * i + 4], &want, "packed {i} for {v:?}");
        let want_h = f32_to_f16_exact(v[0]) | f32_to_f16_exact(v[1]) << 16;
        assert_eq!(h[i], want_h, "packHalf2x16 {i} for {v:?}");
        let unorm = |w: u32, bits: u32, k: u32| ((w >> (bits * k)) & ((1 << bits) - 1)) as f32;
        let snorm = |w: u32, bits: u32, k: u32| {
            let shift = 32 - bits;
            (((w >> (bits * k)) << shift) as i32 >> shift) as f32
        };
        let mut want_u = Vec::new();
        want_u.extend((0..4).map(|k| unorm(want[0], 8, k) / 255.0));
        want_u.extend((0..4).map(|k| (snorm(want[1], 8, k) / 127.0).max(-1.0)));
        want_u.extend((0..2).map(|k| unorm(want[2], 16, k) / 65535.0));
        want_u.extend((0..2).map(|k| (snorm(want[3], 16, k) / 32767.0).max(-1.0)));
        want_u.extend([v[0], v[1]]);
        want_u.extend([f16_to_f32(want[1] & 0xffff), f16_to_f32(want[1] >> 16)]);
        for (k, (&got, &want)) in u[16 * i..16 * i + 16].iter().zip(&want_u).enumerate() {
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "unpacked {i}.{k}: got {got}, want {want} for {v:?}"
            );
        }
    }
}
