//! The oracle: a shader compiled for sm75 and sm86, run in the simulator,
//! and interpreted from its IR (`spvsass-interp`), with the same inputs;
//! the storage buffers must agree (integers exactly, floats within the
//! bounds the interpreter's documentation gives). A disagreement, a panic
//! or an error of one side is a [`Failure`] with a signature: the kind and
//! the message with its numbers removed, so that failures of one cause
//! share it while a reducer shrinks the program.

use spvsass::backend::target::Arch;
use spvsass::frontend::ir::{Shader, StorageClass, Type};
use spvsass_interp::{Inputs, Options as InterpOptions};
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// One run to check.
#[derive(Clone, Debug)]
pub struct Case {
    pub words: Vec<u32>,
    pub groups: [u32; 3],
    pub inputs: Inputs,
    /// How far 32-bit words read as f32 may differ in these bindings
    /// (other bindings compare exactly).
    pub float_tolerance: BTreeMap<u32, Tolerance>,
}

/// A float comparison's allowance: words agree when they are equal, both
/// NaN, within `ulps` units in the last place, or within
/// `rel` × max(1, |a|, |b|) of each other (sums that cancel lose relative
/// precision: their error is bounded by the terms, not the result).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    pub ulps: u32,
    pub rel: f32,
}

/// Why a case failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// What failed, without numbers: `sm86 compile panic: trying to get a
    /// VReg before observing its class`.
    pub signature: String,
    /// The full message.
    pub detail: String,
}

/// The targets every case is compiled for.
pub const ARCHES: [Arch; 2] = [Arch::Sm75, Arch::Sm86];

/// The signature of a message: digits and `%name`s removed, whitespace
/// collapsed, at most 160 characters of its first line.
pub fn signature_of(kind: &str, msg: &str) -> String {
    let line = msg.lines().next().unwrap_or("");
    let mut s = String::new();
    let mut last_digit = false;
    for c in line.chars() {
        if c.is_ascii_digit() {
            if !last_digit {
                s.push('N');
            }
            last_digit = true;
        } else {
            last_digit = false;
            s.push(c);
        }
    }
    let s: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let s: String = s.chars().take(160).collect();
    format!("{kind}: {s}")
}

fn fail(kind: &str, msg: String) -> Failure {
    Failure {
        signature: signature_of(kind, &msg),
        detail: msg,
    }
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".into()
    }
}

/// Translates, interprets, compiles and simulates `case`; `Ok` when every
/// target agrees with the interpreter.
pub fn check(case: &Case, sim_steps: u64, interp: &InterpOptions) -> Result<(), Failure> {
    // PROGFUZZ_TIMING=1 prints each stage's wall time to stderr.
    let timing = std::env::var_os("PROGFUZZ_TIMING").is_some();
    let mut clock = std::time::Instant::now();
    let mut lap = |what: &str| {
        if timing {
            eprintln!("{what}: {:.1} ms", clock.elapsed().as_secs_f64() * 1e3);
        }
        clock = std::time::Instant::now();
    };
    let shader = catch_unwind(|| {
        spvsass::frontend::translate(&case.words, &spvsass::frontend::FrontendOptions::default())
    })
    .map_err(|p| fail("frontend panic", panic_text(&*p)))?
    .map_err(|e| fail("frontend error", e.to_string()))?;
    let expected = catch_unwind(AssertUnwindSafe(|| {
        spvsass_interp::run_compute(&shader, case.groups, &case.inputs, interp)
    }))
    .map_err(|p| fail("interpreter panic", panic_text(&*p)))?
    .map_err(|e| fail("interpreter error", e.to_string()))?;
    lap("translate + interpret");
    for arch in ARCHES {
        let options = spvsass::Options {
            arch: Some(arch),
            ..Default::default()
        };
        let compiled = catch_unwind(|| spvsass::compile(&case.words, &options))
            .map_err(|p| fail(&format!("{arch} compile panic"), panic_text(&*p)))?
            .map_err(|e| fail(&format!("{arch} compile error"), e.to_string()))?;
        lap("compile");
        let inputs = spvsass::sim::ComputeInputs {
            buffers: case.inputs.buffers.clone(),
            uniforms: case.inputs.uniforms.clone(),
            push_constants: case.inputs.push_constants.clone(),
            ..Default::default()
        };
        let sim_options = spvsass::sim::SimOptions {
            max_steps: sim_steps,
            ..Default::default()
        };
        let run = catch_unwind(|| {
            spvsass::Dispatch::new(&compiled.binary, case.groups)
                .inputs(inputs)
                .options(sim_options)
                .run()
        })
        .map_err(|p| fail(&format!("{arch} simulator panic"), panic_text(&*p)))?
        .map_err(|e| fail(&format!("{arch} simulator error"), e.to_string()))?;
        lap("simulate");
        compare(arch, &expected, &run.buffers, &case.float_tolerance)?;
    }
    Ok(())
}

/// Whether two f32 bit patterns agree within `tol` (NaNs agree with
/// NaNs, whatever their payloads).
fn close(a: u32, b: u32, tol: Tolerance) -> bool {
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    if x.is_nan() || y.is_nan() {
        return x.is_nan() && y.is_nan();
    }
    if (x - y).abs() <= tol.rel * x.abs().max(y.abs()).max(1.0) {
        return true;
    }
    let ulps = tol.ulps;
    let key = |v: u32| -> i64 {
        if v & 0x8000_0000 != 0 {
            -i64::from(v & 0x7fff_ffff)
        } else {
            i64::from(v)
        }
    };
    (key(a) - key(b)).unsigned_abs() <= u64::from(ulps)
}

fn compare(
    arch: Arch,
    expected: &BTreeMap<u32, Vec<u8>>,
    got: &BTreeMap<u32, Vec<u8>>,
    float_tolerance: &BTreeMap<u32, Tolerance>,
) -> Result<(), Failure> {
    for (binding, want) in expected {
        let have = got.get(binding).map(Vec::as_slice).unwrap_or(&[]);
        let tol = float_tolerance.get(binding).copied();
        let words = |b: &[u8]| -> Vec<u32> {
            b.chunks(4)
                .map(|c| {
                    c.iter()
                        .rev()
                        .fold(0u32, |acc, &x| (acc << 8) | u32::from(x))
                })
                .collect()
        };
        let (w, h) = (words(want), words(have));
        let mut bad = Vec::new();
        for (i, (&a, &b)) in w.iter().zip(&h).enumerate() {
            let ok = a == b || tol.is_some_and(|t| close(a, b, t));
            if !ok {
                bad.push((i, a, b));
            }
        }
        if w.len() != h.len() {
            return Err(fail(
                &format!("{arch} mismatch"),
                format!(
                    "binding {binding}: {} words expected, {} read back",
                    w.len(),
                    h.len()
                ),
            ));
        }
        if let Some(&(i, a, b)) = bad.first() {
            return Err(Failure {
                signature: format!("{arch} mismatch: binding {binding}"),
                detail: format!(
                    "binding {binding}: {} words differ; first at word {i}: interpreter {a:#010x}, simulator {b:#010x}",
                    bad.len()
                ),
            });
        }
    }
    Ok(())
}

/// Inputs for a shader from its resources: each storage buffer of set 0
/// sized to its fixed part plus `runtime_len` elements of a runtime
/// array, uniform buffers and push constants sized to their types, all
/// filled by `fill(binding, word index)` (push constants: binding
/// `u32::MAX`).
pub fn inputs_for(shader: &Shader, runtime_len: u64, fill: &dyn Fn(u32, usize) -> u32) -> Inputs {
    let mut inputs = Inputs::default();
    for g in shader.globals.values() {
        let size = |ty| {
            let (fixed, stride) = resource_size(shader, ty);
            (fixed + stride * runtime_len).div_ceil(16) * 16
        };
        let filled = |binding: u32, bytes: u64| -> Vec<u8> {
            (0..bytes as usize / 4)
                .flat_map(|i| fill(binding, i).to_le_bytes())
                .collect()
        };
        let binding = g.binding.unwrap_or(0);
        match g.class {
            StorageClass::StorageBuffer => {
                let bytes = size(g.ty).max(16);
                inputs.buffers.insert(binding, filled(binding, bytes));
            }
            StorageClass::Uniform => {
                let bytes = size(g.ty).max(16);
                inputs.uniforms.insert(binding, filled(binding, bytes));
            }
            StorageClass::PushConstant => {
                inputs.push_constants = filled(u32::MAX, size(g.ty));
            }
            StorageClass::Function
            | StorageClass::Private
            | StorageClass::Workgroup
            | StorageClass::Input
            | StorageClass::Output
            | StorageClass::TaskPayload
            | StorageClass::PhysicalStorageBuffer
            // Generated programs use no images.
            | StorageClass::UniformConstant
            | StorageClass::Image => {}
        }
    }
    inputs
}

/// A block type's fixed size and its runtime array's stride (0 if none).
fn resource_size(shader: &Shader, ty: spvsass::frontend::ir::TypeId) -> (u64, u64) {
    match &shader.types[ty] {
        Type::Struct { members, .. } => {
            let mut fixed = 0;
            let mut stride = 0;
            for m in members {
                let off = u64::from(m.offset.unwrap_or(0));
                match &shader.types[m.ty] {
                    Type::Array {
                        len: None,
                        stride: s,
                        ..
                    } => {
                        fixed = fixed.max(off);
                        stride = u64::from(s.unwrap_or(4));
                    }
                    _ => fixed = fixed.max(off + spvsass_interp::size_of(shader, m.ty)),
                }
            }
            (fixed, stride)
        }
        Type::Array {
            len: None, stride, ..
        } => (0, u64::from(stride.unwrap_or(4))),
        _ => (spvsass_interp::size_of(shader, ty), 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_drop_numbers() {
        assert_eq!(
            signature_of(
                "sm86 simulator error",
                "lanes 1-31 wait at BSYNC B0 (pc 0x1a0)"
            ),
            "sm86 simulator error: lanes N-N wait at BSYNC BN (pc NxNaN)"
        );
    }

    #[test]
    fn a_differing_word_is_a_mismatch_and_floats_use_their_tolerance() {
        let want: BTreeMap<u32, Vec<u8>> = [(1, 1.0f32.to_bits().to_le_bytes().to_vec())].into();
        let near: BTreeMap<u32, Vec<u8>> =
            [(1, (1.0f32.to_bits() + 1).to_le_bytes().to_vec())].into();
        let err = compare(Arch::Sm86, &want, &near, &BTreeMap::new()).expect_err("exact");
        assert_eq!(err.signature, "sm86 mismatch: binding 1");
        assert!(
            err.detail
                .contains("interpreter 0x3f800000, simulator 0x3f800001")
        );
        let one_ulp: BTreeMap<u32, Tolerance> = [(1, Tolerance { ulps: 1, rel: 0.0 })].into();
        assert!(compare(Arch::Sm86, &want, &near, &one_ulp).is_ok());
        let nan =
            |bits: u32| -> BTreeMap<u32, Vec<u8>> { [(1, bits.to_le_bytes().to_vec())].into() };
        assert!(compare(Arch::Sm86, &nan(0x7fc0_0000), &nan(0x7fff_ffff), &one_ulp).is_ok());
    }
}
