//! The long tail of issue 19: SPIR-V forms that real toolchains emit and
//! test suites exercise (BufferBlock storage buffers, matrix columns in
//! buffers, spec-constant operations, decoration groups, debug
//! information, ...). Each shader (tests/shaders/lt_*, spec_*) is compiled
//! for sm75 and sm86, dispatched in the simulator, and its output checked
//! against the same computation done here.

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::frontend::SpecValue;
use spvsass::sim::ComputeInputs;

fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn bytes_of_words(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn bytes_of_floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Compiles `name` for `arch` with the given specialization constants and
/// dispatches one workgroup with storage buffer 0 (set 0) holding
/// `buffer`; returns buffer 0 afterwards.
fn run_on(arch: Arch, name: &str, spec: &[(u32, SpecValue)], buffer: Vec<u8>) -> Vec<u8> {
    let options = spvsass::Options {
        arch: Some(arch),
        spec_constants: spec.to_vec(),
        ..Default::default()
    };
    let compiled = spvsass::compile(&common::shader_words(name), &options)
        .unwrap_or_else(|e| panic!("{name} on {arch}: {e}"));
    let inputs = ComputeInputs {
        buffers: [(0, buffer)].into_iter().collect(),
        ..Default::default()
    };
    let run = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{name} on {arch}: {e}"));
    run.buffers[&0].clone()
}

/// `run_on` for both targets, which must agree; returns the words.
fn run_words(name: &str, spec: &[(u32, SpecValue)], buffer: Vec<u8>) -> Vec<u32> {
    let sm75 = run_on(Arch::Sm75, name, spec, buffer.clone());
    let sm86 = run_on(Arch::Sm86, name, spec, buffer);
    assert_eq!(sm75, sm86, "{name}: sm75 and sm86 differ");
    words_of(&sm86)
}

/// Uniform + BufferBlock (SPIR-V 1.0): a writable storage buffer with
/// atomics and a runtime array length.
#[test]
fn buffer_block_is_a_storage_buffer() {
    // The module is in the old form: OpDecorate %struct BufferBlock (3).
    let words = common::shader_words("lt_buffer_block.comp");
    let op_decorate = 3 << 16 | 71;
    assert!(words.windows(3).any(|w| w[0] == op_decorate && w[2] == 3));
    let mut input = vec![5u32];
    input.extend((0..32).map(|i| i * 7 + 1));
    let out = run_words("lt_buffer_block.comp", &[], bytes_of_words(&input));
    assert_eq!(out[0], 5 + 32, "32 atomic increments");
    for i in 0..32u32 {
        assert_eq!(out[1 + i as usize], (i * 7 + 1) * 3 + 32, "vals[{i}]");
    }
}

/// `m[i]` on a row-major and a column-major mat4 in a buffer: loads,
/// a whole-column store and a store of one element `m[i][i]`.
#[test]
fn matrix_columns_in_a_buffer() {
    let r: Vec<f32> = (0..16).map(|k| k as f32 + 0.5).collect();
    let c: Vec<f32> = (0..16).map(|k| 100.0 + k as f32).collect();
    let mut input = r.clone();
    input.extend(&c);
    input.extend([0.0; 32]);
    let out = run_on(
        Arch::Sm86,
        "lt_matrix_column.comp",
        &[],
        bytes_of_floats(&input),
    );
    assert_eq!(
        out,
        run_on(
            Arch::Sm75,
            "lt_matrix_column.comp",
            &[],
            bytes_of_floats(&input)
        )
    );
    let out: Vec<f32> = words_of(&out).into_iter().map(f32::from_bits).collect();
    // Row-major: element (column i, row j) at word 4j + i.
    let r_col = |i: usize| [r[i], r[4 + i], r[8 + i], r[12 + i]];
    for i in 0..4 {
        assert_eq!(out[32 + 4 * i..36 + 4 * i], r_col(i), "outr[{i}]");
        assert_eq!(
            out[48 + 4 * i..52 + 4 * i],
            c[4 * i..4 * i + 4],
            "outc[{i}]"
        );
        let twice = r_col(i).map(|x| x * 2.0);
        assert_eq!(out[16 + 4 * i..20 + 4 * i], twice, "c[{i}] = r[{i}] * 2");
        for j in 0..4 {
            let expected = if i == j { 7.0 } else { r[4 * j + i] };
            assert_eq!(out[4 * j + i], expected, "r[{i}][{j}]");
        }
    }
}

/// OpSpecConstantOp VectorShuffle and a vector IMul (glslang's
/// `gl_WorkGroupSize.xy * 2u` with local_size_x_id/local_size_y_id).
#[test]
fn spec_constant_vector_shuffle() {
    let spec = [(0, SpecValue::Int(3)), (1, SpecValue::Int(2))];
    let out = run_words("spec_workgroup_xy.comp", &spec, vec![0; 64]);
    for i in 0..6u32 {
        let (x, y) = (i % 3, i / 3);
        assert_eq!(
            out[2 * i as usize..2 * i as usize + 2],
            [6 + x, 4 + y],
            "o[{i}]"
        );
    }
    assert_eq!(out[12..], [0; 4], "six invocations");
}

/// Arrays sized by OpSpecConstantOp (IMul, IAdd of a spec constant), at
/// the default and at overridden values.
#[test]
fn spec_sized_arrays() {
    for (n, k) in [(4u32, 3u32), (6, 5)] {
        let spec = [(0, SpecValue::Int(n.into())), (1, SpecValue::Int(k.into()))];
        let out = run_words("spec_sized_arrays.comp", &spec, vec![0; 64]);
        let m = n * 2 + 1;
        for i in 0..16u32 {
            let expected = if i < m { (m - 1 - i) * k } else { m };
            assert_eq!(out[i as usize], expected, "N={n} K={k}: o[{i}]");
        }
    }
}

/// A dynamic index into a private array of structs, and into an array
/// member of one.
#[test]
fn dynamic_index_into_array_of_structs() {
    let out = run_words("lt_struct_array_index.comp", &[], vec![0; 128]);
    for i in 0..32u32 {
        let j = i % 4;
        let c = [j * 10, 1, 2];
        let expected = j + j + c[(i % 3) as usize] + ((i + 1) % 4) * 10;
        assert_eq!(out[i as usize], expected, "o[{i}]");
    }
}

/// NonSemantic.Shader.DebugInfo.100 (glslang -gV) is ignored.
#[test]
fn debug_info_is_ignored() {
    let out = run_words("lt_debug_info.comp", &[], vec![0; 128]);
    for i in 0..32u32 {
        assert_eq!(out[i as usize], 2 * i + 1, "o[{i}]");
    }
}

/// Atomics through a buffer device address: the counters live in buffer 1
/// (set 0), reached only through the address in the push constants.
#[test]
fn atomics_through_buffer_device_addresses() {
    for arch in [Arch::Sm75, Arch::Sm86] {
        let compiled = spvsass::compile(
            &common::shader_words("lt_bda_atomics.comp"),
            &spvsass::Options {
                arch: Some(arch),
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("{arch}: {e}"));
        // Binding b of set 0 is at (b + 1) * BUFFER_STRIDE (docs/ABI.md).
        let counters = 2 * spvsass::sim::BUFFER_STRIDE;
        let inputs = ComputeInputs {
            buffers: [(0, vec![0xff; 64 * 4]), (1, vec![0; 24])]
                .into_iter()
                .collect(),
            push_constants: counters.to_le_bytes().to_vec(),
            ..Default::default()
        };
        let run = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
            .inputs(inputs)
            .run()
            .unwrap_or_else(|e| panic!("{arch}: {e}"));
        let old = words_of(&run.buffers[&0]);
        let c = words_of(&run.buffers[&1]);
        let mut adds = old[..32].to_vec();
        adds.sort_unstable();
        assert_eq!(
            adds,
            (0..32).collect::<Vec<u32>>(),
            "{arch}: atomicAdd olds"
        );
        assert_eq!(c[0], 32, "{arch}: n");
        assert_eq!(c[1], 31 * 3, "{arch}: m");
        let wide = u64::from(c[2]) | u64::from(c[3]) << 32;
        assert_eq!(wide, (32 << 32) + (0..32).sum::<u64>(), "{arch}: wide");
        // Exactly one compare-exchange found 0 and stored 100 + its index.
        let winners: Vec<u32> = (0..32).filter(|&i| old[32 + i as usize] == 0).collect();
        assert_eq!(winners.len(), 1, "{arch}: one compare-exchange wins");
        assert_eq!(c[4], 100 + winners[0], "{arch}: cas");
        for i in 0..32 {
            if i != winners[0] as usize {
                assert_eq!(old[32 + i], c[4], "{arch}: cas old of {i}");
            }
        }
        assert_eq!(c[5], 31 * 3 + 1, "{arch}: atomic load and store");
    }
}

/// OpDecorationGroup / OpGroupDecorate / OpGroupMemberDecorate: the
/// bindings and the member offset come through the groups.
#[test]
fn decoration_groups() {
    for arch in [Arch::Sm75, Arch::Sm86] {
        let compiled = spvsass::compile(
            &common::shader_words("lt_decoration_group.comp"),
            &spvsass::Options {
                arch: Some(arch),
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("{arch}: {e}"));
        let input: Vec<u32> = (0..32).map(|i| i * 11 + 3).collect();
        let inputs = ComputeInputs {
            buffers: [(0, bytes_of_words(&input)), (1, vec![0; 128])]
                .into_iter()
                .collect(),
            ..Default::default()
        };
        let run = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
            .inputs(inputs)
            .run()
            .unwrap_or_else(|e| panic!("{arch}: {e}"));
        let out = words_of(&run.buffers[&1]);
        for i in 0..32 {
            assert_eq!(out[i], input[i] * 2 + 1, "{arch}: out[{i}]");
        }
    }
}

/// f16 dot and cos, u32 <-> u8vec4 bitcasts, u64 and i64 to f32 (each
/// correctly rounded: the values need more than 24 bits and sit near
/// rounding ties).
#[test]
fn small_type_holes() {
    let halves: Vec<[f32; 4]> = (0..32)
        .map(|i| {
            let x = i as f32 * 0.25 - 3.0;
            [x, 1.5 - x * 0.5, 0.125 * i as f32, -2.0 + (i % 5) as f32]
        })
        .collect();
    let packed: Vec<u32> = (0..32u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9) ^ 0xff00_80ff)
        .collect();
    let wide: Vec<u64> = (0..32u64)
        .map(|i| match i {
            0 => 0,
            1 => u64::MAX,
            2 => (1 << 40) + (1 << 16),     // a tie: to even
            3 => (1 << 40) + (1 << 16) + 1, // just above the tie
            4 => (1 << 40) + (3 << 16),     // a tie: up to even
            5 => 0xffff_ff80_0000_0000,     // rounds up to 2^64
            _ => i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (i % 40),
        })
        .collect();
    let swide: Vec<i64> = wide
        .iter()
        .enumerate()
        .map(|(i, &w)| match i {
            6 => i64::MIN,
            7 => -1,
            _ if i % 2 == 1 => (w as i64).wrapping_neg(),
            _ => w as i64 >> 1,
        })
        .collect();
    let mut input = Vec::new();
    for h in &halves {
        for &x in h {
            input.extend(half::f16::from_f32(x).to_le_bytes());
        }
    }
    input.extend(bytes_of_words(&packed));
    for w in &wide {
        input.extend(w.to_le_bytes());
    }
    for s in &swide {
        input.extend(s.to_le_bytes());
    }
    input.extend(vec![0; 5 * 128]);
    let out = run_words("lt_small_types.comp", &[], input);
    let (dot, cos, repacked, wide_out, swide_out) = (
        &out[224..256],
        &out[256..288],
        &out[288..320],
        &out[320..352],
        &out[352..384],
    );
    for i in 0..32 {
        let h = halves[i].map(|x| half::f16::from_f32(x).to_f32());
        let exact = h[0] * h[3] + h[1] * h[2] + h[2] * h[1] + h[3] * h[0];
        let got = f32::from_bits(dot[i]);
        // Computed in f32, rounded once to f16.
        assert_eq!(got, half::f16::from_f32(exact).to_f32(), "dot[{i}]");
        let got = f32::from_bits(cos[i]);
        assert!(
            (got - h[0].cos()).abs() <= 2e-3,
            "cos[{i}]: {got} vs {}",
            h[0].cos()
        );
        let b = packed[i].to_le_bytes();
        let want = u32::from_le_bytes([3, 2, 1, 0].map(|k| b[k].wrapping_add(1)));
        assert_eq!(repacked[i], want, "repacked[{i}]");
        assert_eq!(
            f32::from_bits(wide_out[i]),
            wide[i] as f32,
            "u64 {:#x}",
            wide[i]
        );
        assert_eq!(
            f32::from_bits(swide_out[i]),
            swide[i] as f32,
            "i64 {}",
            swide[i]
        );
    }
}

/// OpenCL.DebugInfo.100 (DXC's rich debug information) is ignored too.
#[test]
fn opencl_debug_info_is_ignored() {
    let out = run_words("lt_opencl_debug_info.comp", &[], vec![0; 128]);
    for i in 0..32u32 {
        assert_eq!(out[i as usize], 3 * i, "o[{i}]");
    }
}

/// Null initialisers on compute shared variables: every invocation stores
/// the initial value, then the workgroup waits at a barrier, so the second
/// warp's initial stores cannot wipe out the first warp's atomics (the
/// simulator runs a warp until it blocks).
#[test]
fn shared_variable_initialisers() {
    let out = run_words("lt_shared_init.comp", &[], vec![0xee; 256]);
    for (i, &o) in out[..64].iter().enumerate() {
        assert_eq!(o, 64 + 0xffff, "o[{i}]");
    }
}

/// A 256-byte push-constant block: blocks over 128 bytes are read from the
/// root table's whole copy (docs/ABI.md), at constant and dynamic indices.
#[test]
fn push_constants_of_256_bytes() {
    let push: Vec<u32> = (0..64u32).map(|k| 3 * k + 1).collect();
    let push = bytes_of_words(&push);
    for arch in [Arch::Sm75, Arch::Sm86] {
        let options = spvsass::Options {
            arch: Some(arch),
            ..Default::default()
        };
        let compiled = spvsass::compile(&common::shader_words("lt_push256.comp"), &options)
            .unwrap_or_else(|e| panic!("{arch}: {e}"));
        let inputs = ComputeInputs {
            buffers: [(0, vec![0; 256])].into_iter().collect(),
            push_constants: push.clone(),
            ..Default::default()
        };
        let run = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
            .inputs(inputs)
            .run()
            .unwrap_or_else(|e| panic!("{arch}: {e}"));
        let out = words_of(&run.buffers[&0]);
        let w = |k: u32| 3 * k + 1;
        for i in 0..64u32 {
            let expected = w(i % 60)
                .wrapping_add(1000 * w(60 + i % 4))
                .wrapping_add(w(59).wrapping_mul(1_000_000));
            assert_eq!(out[i as usize], expected, "{arch}: o[{i}]");
        }
    }
}

/// Dynamic indices into arrays of structs inside buffers
/// (lt_buffer_struct_index.comp): struct S { uint a; vec2 b; uint c[3]; }
/// is 32 bytes (a at 0, b at 8, c at 16); buffer 0 holds s[32], buffer 1
/// t[8] then o[].
#[test]
fn dynamic_index_into_structs_in_buffers() {
    // Buffer 0: s[k].a = 100k + 1, s[k].b = (0.5k, 0.25k), s[k].c[j] = 10k + j.
    let mut s = vec![0u32; 32 * 8];
    for k in 0..32u32 {
        let w = &mut s[8 * k as usize..8 * k as usize + 8];
        w[0] = 100 * k + 1;
        w[2] = (0.5 * k as f32).to_bits();
        w[3] = (0.25 * k as f32).to_bits();
        w[4..7].copy_from_slice(&[10 * k, 10 * k + 1, 10 * k + 2]);
    }
    // Buffer 1: t[k] = (1000k, (k, 3k + 0.5), (7k, 7k + 1, 7k + 2)), o[32].
    let mut u = vec![0u32; 8 * 8 + 32];
    for k in 0..8u32 {
        let w = &mut u[8 * k as usize..8 * k as usize + 8];
        w[0] = 1000 * k;
        w[2] = (k as f32).to_bits();
        w[3] = (3.0 * k as f32 + 0.5).to_bits();
        w[4..7].copy_from_slice(&[7 * k, 7 * k + 1, 7 * k + 2]);
    }
    for arch in [Arch::Sm75, Arch::Sm86] {
        let compiled = spvsass::compile(
            &common::shader_words("lt_buffer_struct_index.comp"),
            &spvsass::Options {
                arch: Some(arch),
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("{arch}: {e}"));
        let inputs = ComputeInputs {
            buffers: [(0, bytes_of_words(&s)), (1, bytes_of_words(&u))]
                .into_iter()
                .collect(),
            ..Default::default()
        };
        let run = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
            .inputs(inputs)
            .run()
            .unwrap_or_else(|e| panic!("{arch}: {e}"));
        let (s_out, u_out) = (words_of(&run.buffers[&0]), words_of(&run.buffers[&1]));
        for i in 0..32u32 {
            let v = 8 * (i % 5) as usize;
            let t = 8 * (i % 8) as usize;
            let t1 = 8 * ((i + 1) % 8) as usize;
            let expected = s[v]
                + s[v + 4 + (i % 3) as usize]
                + f32::from_bits(u[t + 3]) as u32
                + u[t1 + 4 + (i % 3) as usize];
            assert_eq!(u_out[64 + i as usize], expected, "{arch}: o[{i}]");
            // s[i].c[(i + 2) % 3] = i; the rest of s[i] unchanged.
            for w in 0..8usize {
                let want = if w == 4 + ((i + 2) % 3) as usize {
                    i
                } else {
                    s[8 * i as usize + w]
                };
                assert_eq!(s_out[8 * i as usize + w], want, "{arch}: s[{i}] word {w}");
            }
        }
        // t[k].b[j] = 8j + k for invocation 8j + k < 16; a and c unchanged.
        for k in 0..8usize {
            for j in 0..2usize {
                let want = ((8 * j + k) as f32).to_bits();
                assert_eq!(u_out[8 * k + 2 + j], want, "{arch}: t[{k}].b[{j}]");
            }
            assert_eq!(u_out[8 * k], u[8 * k], "{arch}: t[{k}].a");
            assert_eq!(u_out[8 * k + 4..8 * k + 7], u[8 * k + 4..8 * k + 7]);
        }
    }
}

/// Array lengths that are spec-constant expressions over the workgroup
/// size composite (lt_spec_array_lengths.comp): x * y invocations, a
/// private array of x + 2, a shared one of x * y + K.
#[test]
fn spec_constant_composite_array_lengths() {
    for (x, y, k) in [(8u32, 4u32, 5u32), (6, 2, 3)] {
        let spec = [
            (0, SpecValue::Int(x.into())),
            (1, SpecValue::Int(y.into())),
            (2, SpecValue::Int(k.into())),
        ];
        let n = x * y;
        let out = run_words("lt_spec_array_lengths.comp", &spec, vec![0; 4 * n as usize]);
        let len = x + 2;
        let s = |j: u32| (j % len) * j;
        for i in 0..n {
            let expected = s((i + 1) % n) + 1000 + (k - 1) + len * 100_000;
            assert_eq!(out[i as usize], expected, "x={x} y={y} K={k}: o[{i}]");
        }
    }
}

/// WorkgroupMemoryExplicitLayoutKHR (lt_workgroup_explicit_layout.comp):
/// three shared blocks alias from byte 0, so word i written through one is
/// read through the others at their Offset layouts.
#[test]
fn explicit_workgroup_layout_blocks_alias() {
    let out = run_words("lt_workgroup_explicit_layout.comp", &[], vec![0; 256]);
    for i in 0..64u32 {
        let a = 3 * i + 1;
        let b = if i >= 4 { 3 * i + 1 } else { 1 };
        assert_eq!(out[i as usize], a * 1000 + b + 777, "o[{i}]");
    }
}

/// Subgroup arithmetic on 64-bit integers, doubles and halves
/// (lt_subgroup_wide.comp): reductions, scans, a clustered reduction and
/// reductions over the invocations of a divergent branch, against the
/// same folds here in ascending lane order (the order the compiled loop
/// combines in; halves rounded to f16 after each step).
#[test]
fn subgroup_arithmetic_on_64_and_16_bit_types() {
    use half::f16;
    let a: Vec<u64> = (0..32u64)
        .map(|i| 0xffff_fff0 + i * 0x1_0000_0001)
        .collect();
    let s: Vec<i64> = (0..32i64).map(|i| (i - 16) * 0x1_0000_0007).collect();
    let d: Vec<f64> = (0..32)
        .map(|i| 1.0 + f64::from(i) * 0.37 - f64::from(i % 5) * 1.3)
        .collect();
    let h: Vec<f16> = (0..32)
        .map(|i| f16::from_f32(i as f32 * 0.5 - 4.0))
        .collect();
    let mut input = Vec::new();
    input.extend(a.iter().flat_map(|v| v.to_le_bytes()));
    input.extend(s.iter().flat_map(|v| v.to_le_bytes()));
    input.extend(d.iter().flat_map(|v| v.to_le_bytes()));
    input.extend(h.iter().flat_map(|v| v.to_le_bytes()));
    for arch in [Arch::Sm75, Arch::Sm86] {
        let compiled = spvsass::compile(
            &common::shader_words("lt_subgroup_wide.comp"),
            &spvsass::Options {
                arch: Some(arch),
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("{arch}: {e}"));
        let inputs = ComputeInputs {
            buffers: [(0, input.clone()), (1, vec![0; 4608])]
                .into_iter()
                .collect(),
            ..Default::default()
        };
        let run = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
            .inputs(inputs)
            .run()
            .unwrap_or_else(|e| panic!("{arch}: {e}"));
        let out = &run.buffers[&1];
        let u64_at = |off: usize| u64::from_le_bytes(out[off..off + 8].try_into().unwrap());
        let f16_at = |off: usize| f16::from_le_bytes(out[off..off + 2].try_into().unwrap());
        let all = 0..32usize;
        for i in 0..32usize {
            let oa = |k: usize| u64_at(256 * k + 8 * i);
            let os = |k: usize| u64_at(2048 + 256 * k + 8 * i) as i64;
            let od = |k: usize| f64::from_bits(u64_at(3072 + 256 * k + 8 * i));
            let oh = |k: usize| f16_at(4352 + 64 * k + 2 * i);
            let sum = |r: std::ops::Range<usize>| r.fold(0u64, |x, j| x.wrapping_add(a[j]));
            assert_eq!(oa(0), sum(all.clone()), "{arch}: add, lane {i}");
            let product = a.iter().fold(1u64, |x, &y| x.wrapping_mul(y));
            assert_eq!(oa(1), product, "{arch}: mul, lane {i}");
            assert_eq!(oa(2), *a.iter().min().unwrap(), "{arch}: min");
            assert_eq!(oa(3), *a.iter().max().unwrap(), "{arch}: max");
            assert_eq!(oa(4), sum(0..i + 1), "{arch}: inclusive add, lane {i}");
            assert_eq!(oa(5), sum(0..i), "{arch}: exclusive add, lane {i}");
            let and = a.iter().fold(u64::MAX, |x, &y| x & y);
            let or = a.iter().fold(0, |x, &y| x | y);
            let xor = a.iter().fold(0, |x, &y| x ^ y);
            assert_eq!(oa(6), and ^ or ^ xor, "{arch}: and ^ or ^ xor");
            let active = |j: usize| !j.is_multiple_of(3);
            let expected7 = if active(i) {
                let total = all
                    .clone()
                    .filter(|&j| active(j))
                    .fold(0u64, |x, j| x.wrapping_add(a[j]));
                let cluster = (i & !3..(i & !3) + 4)
                    .filter(|&j| active(j))
                    .map(|j| a[j])
                    .max()
                    .unwrap();
                total.wrapping_add(cluster)
            } else {
                0
            };
            assert_eq!(
                oa(7),
                expected7,
                "{arch}: divergent add + clustered max, lane {i}"
            );
            assert_eq!(os(0), *s.iter().min().unwrap(), "{arch}: signed min");
            assert_eq!(os(1), *s.iter().max().unwrap(), "{arch}: signed max");
            assert_eq!(
                os(2),
                *s[..=i].iter().min().unwrap(),
                "{arch}: inclusive min, lane {i}"
            );
            let exmax = s[..i].iter().fold(i64::MIN, |x, &y| x.max(y));
            assert_eq!(os(3), exmax, "{arch}: exclusive max, lane {i}");
            let dsum = |n: usize| d[..n].iter().fold(0.0f64, |x, &y| x + y);
            assert_eq!(od(0).to_bits(), dsum(32).to_bits(), "{arch}: double add");
            assert_eq!(od(1), d.iter().copied().fold(f64::INFINITY, f64::min));
            assert_eq!(od(2), d.iter().copied().fold(f64::NEG_INFINITY, f64::max));
            let dmul = d[..=i].iter().fold(1.0f64, |x, &y| x * y);
            assert_eq!(
                od(3).to_bits(),
                dmul.to_bits(),
                "{arch}: inclusive mul, lane {i}"
            );
            assert_eq!(
                od(4).to_bits(),
                dsum(i).to_bits(),
                "{arch}: exclusive add, lane {i}"
            );
            let hsum = |n: usize| {
                h[..n]
                    .iter()
                    .fold(f16::ZERO, |x, &y| f16::from_f32(x.to_f32() + y.to_f32()))
            };
            assert_eq!(oh(0), hsum(32), "{arch}: half add");
            assert_eq!(oh(1), f16::from_f32(-4.0), "{arch}: half min");
            assert_eq!(oh(2), f16::from_f32(11.5), "{arch}: half max");
            assert_eq!(oh(3), hsum(i + 1), "{arch}: half inclusive add, lane {i}");
        }
    }
}
