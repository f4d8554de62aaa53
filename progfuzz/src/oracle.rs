//! The oracle: a shader (compute; mesh; task with its mesh shader) compiled
//! for sm75 and sm86, run in the simulator (a dispatch or a draw), and
//! interpreted from its IR (`spvsass-interp`), with the same inputs; the
//! storage buffers and a draw's launches, primitive indices and vertex and
//! primitive outputs must agree (integers exactly, floats within the
//! bounds the interpreter's documentation gives). A disagreement, a panic
//! or an error of one side is a [`Failure`] with a signature: the kind and
//! the message with its numbers removed, so that failures of one cause
//! share it while a reducer shrinks the program.

use crate::adapter;
use spvsass::backend::target::Arch;
use spvsass::frontend::ir::{Shader, Stage, StorageClass, Type};
use spvsass_interp::{Attributes, Inputs, Options as InterpOptions};
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// One run to check.
#[derive(Clone, Debug)]
pub struct Case {
    /// The compute, mesh or task shader.
    pub words: Vec<u32>,
    /// With a task shader in `words`: the mesh shader it launches.
    pub mesh_words: Option<Vec<u32>>,
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

/// A failure of `kind` with message `msg`.
pub fn failure(kind: &str, msg: String) -> Failure {
    fail(kind, msg)
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
    let shader = translate(&case.words)?;
    let mesh_shader = case.mesh_words.as_deref().map(translate).transpose()?;
    let expected = catch_unwind(AssertUnwindSafe(|| {
        expect(&shader, mesh_shader.as_ref(), case, interp)
    }))
    .map_err(|p| fail("interpreter panic", panic_text(&*p)))?
    .map_err(|e| fail("interpreter error", e.to_string()))?;
    lap("translate + interpret");
    for arch in ARCHES {
        let compile = |words: &[u32], task_present: bool| {
            catch_unwind(|| adapter::compile(words, arch, task_present))
                .map_err(|p| fail(&format!("{arch} compile panic"), panic_text(&*p)))?
                .map_err(|e| fail(&format!("{arch} compile error"), e))
        };
        let compiled = compile(&case.words, false)?;
        let compiled_mesh = case
            .mesh_words
            .as_deref()
            .map(|w| compile(w, true))
            .transpose()?;
        lap("compile");
        let sim_fail = |p: Box<dyn std::any::Any + Send>| {
            fail(&format!("{arch} simulator panic"), panic_text(&*p))
        };
        let sim_err = |e: String| fail(&format!("{arch} simulator error"), e);
        match &expected {
            Expected::Compute(buffers) => {
                let run = catch_unwind(|| {
                    adapter::dispatch(&compiled, case.groups, &case.inputs, sim_steps)
                })
                .map_err(sim_fail)?
                .map_err(sim_err)?;
                lap("simulate");
                compare(arch, buffers, &run, &case.float_tolerance)?;
            }
            Expected::Draw(want) => {
                let (task, mesh) = match &compiled_mesh {
                    Some(m) => (Some(&compiled), m),
                    None => (None, &compiled),
                };
                let run = catch_unwind(|| {
                    adapter::draw(task, mesh, case.groups, &case.inputs, sim_steps)
                })
                .map_err(sim_fail)?
                .map_err(sim_err)?;
                lap("simulate");
                compare(arch, &want.buffers, &run.buffers, &case.float_tolerance)?;
                compare_draw(arch, want, &run)?;
            }
        }
    }
    Ok(())
}

fn translate(words: &[u32]) -> Result<Shader, Failure> {
    catch_unwind(|| {
        spvsass::frontend::translate(words, &spvsass::frontend::FrontendOptions::default())
    })
    .map_err(|p| fail("frontend panic", panic_text(&*p)))?
    .map_err(|e| fail("frontend error", e.to_string()))
}

/// What the interpreter says a case computes.
enum Expected {
    Compute(BTreeMap<u32, Vec<u8>>),
    Draw(spvsass_interp::MeshRun),
}

fn expect(
    shader: &Shader,
    mesh: Option<&Shader>,
    case: &Case,
    interp: &InterpOptions,
) -> Result<Expected, spvsass_interp::InterpError> {
    match (shader.stage, mesh) {
        (Stage::Compute, _) => {
            spvsass_interp::run_compute(shader, case.groups, &case.inputs, interp)
                .map(Expected::Compute)
        }
        (Stage::Task, Some(m)) => {
            spvsass_interp::run_draw(Some(shader), m, case.groups, &case.inputs, interp)
                .map(Expected::Draw)
        }
        (Stage::Mesh | Stage::Task, _) => {
            spvsass_interp::run_draw(None, shader, case.groups, &case.inputs, interp)
                .map(Expected::Draw)
        }
    }
}

fn draw_mismatch(arch: Arch, what: &str, detail: String) -> Failure {
    Failure {
        signature: format!("{arch} mesh mismatch: {what}"),
        detail,
    }
}

/// Whether the simulator's attributes hold every component the
/// interpreter's do, with the same bits.
fn same_attributes(want: &Attributes, got: &Attributes) -> bool {
    if want.position.is_some() && want.position != got.position {
        return false;
    }
    want.generic.iter().all(|(loc, comps)| {
        let have = got.generic.get(loc);
        comps.iter().enumerate().all(|(i, c)| match c {
            None => true,
            Some(bits) => have.and_then(|h| h[i]) == Some(*bits),
        })
    })
}

/// Compares a simulated draw's workgroups, launches and outputs with the
/// interpreter's.
fn compare_draw(
    arch: Arch,
    want: &spvsass_interp::MeshRun,
    got: &adapter::Draw,
) -> Result<(), Failure> {
    let launches: Vec<[u32; 3]> = want.tasks.iter().map(|t| t.mesh_groups).collect();
    if launches != got.tasks {
        return Err(draw_mismatch(
            arch,
            "task launches",
            format!("interpreter {launches:?}, simulator {:?}", got.tasks),
        ));
    }
    if want.workgroups.len() != got.workgroups.len() {
        return Err(draw_mismatch(
            arch,
            "workgroup count",
            format!(
                "interpreter {}, simulator {}",
                want.workgroups.len(),
                got.workgroups.len()
            ),
        ));
    }
    for (i, (w, g)) in want.workgroups.iter().zip(&got.workgroups).enumerate() {
        let at = format!("workgroup {i} (id {:?})", w.id);
        if w.id != g.id || w.task_workgroup != g.task_workgroup {
            return Err(draw_mismatch(
                arch,
                "workgroup id",
                format!(
                    "{at}: interpreter {:?} of task {:?}, simulator {:?} of task {:?}",
                    w.id, w.task_workgroup, g.id, g.task_workgroup
                ),
            ));
        }
        if w.primitive_count != g.primitive_count || w.indices != g.indices {
            return Err(draw_mismatch(
                arch,
                "primitive indices",
                format!(
                    "{at}: interpreter {} primitives {:?}, simulator {} primitives {:?}",
                    w.primitive_count, w.indices, g.primitive_count, g.indices
                ),
            ));
        }
        if g.vertices.len() > w.vertices.len() {
            return Err(draw_mismatch(
                arch,
                "vertex count",
                format!(
                    "{at}: simulator shows {} vertices of {} declared",
                    g.vertices.len(),
                    w.vertex_count
                ),
            ));
        }
        for (v, (a, b)) in w.vertices.iter().zip(&g.vertices).enumerate() {
            if !same_attributes(a, b) {
                return Err(draw_mismatch(
                    arch,
                    "vertex output",
                    format!("{at} vertex {v}: interpreter {a:?}, simulator {b:?}"),
                ));
            }
        }
        let per_primitive = w.primitives.iter().any(|a| !a.generic.is_empty());
        if per_primitive && g.primitives.len() != w.primitives.len() {
            return Err(draw_mismatch(
                arch,
                "primitive count",
                format!(
                    "{at}: interpreter {} primitives with outputs, simulator {}",
                    w.primitives.len(),
                    g.primitives.len()
                ),
            ));
        }
        for (p, (a, b)) in w.primitives.iter().zip(&g.primitives).enumerate() {
            if !same_attributes(a, b) {
                return Err(draw_mismatch(
                    arch,
                    "primitive output",
                    format!("{at} primitive {p}: interpreter {a:?}, simulator {b:?}"),
                ));
            }
        }
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
    compare_named(&arch.to_string(), expected, got, float_tolerance)
}

/// Compares `got`'s buffers with the interpreter's `expected`; `who` names
/// the other side in the failure.
pub fn compare_named(
    arch: &str,
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

    fn one_group(position: [u32; 4], bits: u32) -> spvsass_interp::MeshRun {
        let mut v = Attributes {
            position: Some(position),
            ..Default::default()
        };
        v.generic.insert(0, [Some(bits), None, None, None]);
        spvsass_interp::MeshRun {
            tasks: Vec::new(),
            workgroups: vec![spvsass_interp::MeshGroup {
                id: [0, 0, 0],
                task_workgroup: None,
                vertex_count: 1,
                primitive_count: 1,
                indices: vec![vec![0]],
                vertices: vec![v],
                primitives: vec![Attributes::default()],
            }],
            buffers: BTreeMap::new(),
        }
    }

    fn as_draw(run: &spvsass_interp::MeshRun) -> adapter::Draw {
        adapter::Draw {
            tasks: Vec::new(),
            workgroups: run
                .workgroups
                .iter()
                .map(|w| adapter::DrawGroup {
                    id: w.id,
                    task_workgroup: w.task_workgroup,
                    primitive_count: w.primitive_count,
                    indices: w.indices.clone(),
                    vertices: w.vertices.clone(),
                    primitives: Vec::new(),
                })
                .collect(),
            buffers: BTreeMap::new(),
        }
    }

    #[test]
    fn draws_compare_indices_positions_and_generic_components_by_bits() {
        let want = one_group([1, 2, 3, 4], 7);
        assert!(compare_draw(Arch::Sm86, &want, &as_draw(&want)).is_ok());
        let moved = as_draw(&one_group([1, 2, 3, 5], 7));
        let err = compare_draw(Arch::Sm86, &want, &moved).expect_err("position");
        assert_eq!(err.signature, "sm86 mesh mismatch: vertex output");
        let other = as_draw(&one_group([1, 2, 3, 4], 8));
        assert!(compare_draw(Arch::Sm75, &want, &other).is_err());
        let mut reindexed = as_draw(&want);
        reindexed.workgroups[0].indices = vec![vec![1]];
        let err = compare_draw(Arch::Sm75, &want, &reindexed).expect_err("indices");
        assert_eq!(err.signature, "sm75 mesh mismatch: primitive indices");
        let mut launched = as_draw(&want);
        launched.tasks = vec![[1, 1, 1]];
        assert!(compare_draw(Arch::Sm75, &want, &launched).is_err());
    }

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
