//! The compilation pipeline, written as plain lists of passes: the
//! lowerings over the IR before instruction selection (`lower`), then the
//! machine-IR passes (`optimisations` and the fixed steps after them).
//! With `print_passes` set, the machine IR is captured after each pass.

use crate::advice::{Warning, advise};
use crate::assign_regs::assign_regs;
use crate::binary::{Binary, ComputeState, MeshState, TaskState};
use crate::block_order::order_blocks;
use crate::calc_instr_deps::calc_instr_deps;
use crate::error::BackendError;
use crate::from_ir::dce::eliminate_dead_code;
use crate::from_ir::task_out::payload_bytes;
use crate::from_ir::{Selected, Selection, lower_var_ptrs};
use crate::insert_cull::insert_cull;
use crate::intrinsics::Intrinsics;
use crate::isa::Instr;
use crate::layout::layout;
use crate::limits;
use crate::logical_subgroups::{Plan, plan};
use crate::lower_cull::{CullLowering, lower_cull};
use crate::lower_returns::{ReturnLowering, lower_returns};
use crate::lower_statistics::lower_statistics;
use crate::mir::MFunc;
use crate::opt_const_fold::const_fold;
use crate::opt_copy_prop::copy_prop;
use crate::opt_cse::cse;
use crate::opt_ffma::form_ffma;
use crate::opt_imad::form_imad;
use crate::opt_licm::hoist_invariants;
use crate::opt_lop3::fuse_lop3;
use crate::opt_predicate::predicate;
use crate::program;
use crate::sph::{ShaderType, Sph};
use crate::target::Arch;
use crate::verify::Form;
use spvsass_frontend::ir::{MeshTopology, Shader, Stage};
use std::borrow::Cow;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackendOptions {
    pub arch: Arch,
    /// A task shader feeds this mesh shader (its SPH type is TESSELLATION
    /// instead of VERTEX, docs/HARDWARE.md, "Shader program header").
    pub task_present: bool,
    /// Capture the machine IR after every pass.
    pub print_passes: bool,
    /// Fuse FMUL + FADD into FFMA (one rounding instead of two:
    /// `opt_ffma.rs` says why this is not the default).
    pub fp_contract: bool,
    /// Compile in-shader primitive culling (mesh shaders; switched at run
    /// time by the root table's culling word, `insert_cull.rs`).
    pub shader_cull: bool,
    /// Read set 0's uniform buffers below binding 16 (declared at most
    /// 64 KiB) from constant banks 1..=16, as the simulator's driver
    /// provides them (docs/ABI.md). Off for a cubin: CUDA keeps those
    /// banks, so they are read like storage buffers (docs/CUBIN.md).
    pub bank_uniforms: bool,
    /// Reduce a warp's integers with REDUX where the architecture has it.
    /// Off for a cubin: the hardware's REDUX writes a uniform register,
    /// which this ISA does not model, so the reduction is the SHFL ladder
    /// there (docs/CUBIN.md).
    pub redux: bool,
    /// Count task and mesh invocations and mesh primitives in the shader
    /// (`lower_statistics`, docs/ABI.md); off (`--statistics off`)
    /// compiles the counting out, and a pipeline-statistics query then
    /// counts nothing of this shader.
    pub statistics: bool,
}

impl Default for BackendOptions {
    fn default() -> Self {
        BackendOptions {
            arch: Arch::DEFAULT,
            task_present: false,
            print_passes: false,
            fp_contract: false,
            shader_cull: false,
            bank_uniforms: true,
            redux: true,
            statistics: true,
        }
    }
}

/// A compiled shader: the binary, its instructions (decoded form) and the
/// pass dumps that were asked for.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub binary: Binary,
    /// Performance advice (`crate::advice`).
    pub warnings: Vec<Warning>,
    pub instrs: Vec<Instr>,
    pub pass_dumps: Vec<(&'static str, String)>,
}

/// The shader as instruction selection takes it: the IR the rewriting
/// lowerings left, the intrinsics the others attached to it, the logical
/// subgroups of a wide workgroup with their early returns' decisions, and
/// the in-shader culling's decisions.
pub(crate) struct Lowered<'a> {
    pub shader: Cow<'a, Shader>,
    pub intrinsics: Intrinsics,
    /// A task or mesh workgroup over 32 invocations: its logical-subgroup
    /// plan (`logical_subgroups.rs`) and its early returns' decisions
    /// (`lower_returns.rs`). The plan's refusal is kept for selection to
    /// report where it made the plan, after its check of the outputs.
    pub wide: Result<Option<LogicalSubgroups>, BackendError>,
    /// `lower_cull.rs`, when culling is compiled in (`shader_cull`). Its
    /// refusal is kept for selection to report after its own checks of
    /// the shader (the memory and logical-subgroup plans), so that a
    /// shader refused for several reasons names the same one as when
    /// selection made these decisions.
    pub cull: Result<Option<CullLowering>, BackendError>,
}

/// A wide workgroup's logical subgroups, as selection takes them.
pub(crate) struct LogicalSubgroups {
    pub plan: Plan,
    pub returns: ReturnLowering,
}

/// The lowerings before instruction selection, in order. Variable
/// pointers become 64-bit addresses (`from_ir/var_ptrs.rs`: a new IR, so
/// first); then the whole-feature lowerings attach their intrinsics
/// (`crate::intrinsics`) to that IR, which selection maps one to one:
/// statistics counting (`lower_statistics.rs`, unless compiled out); then
/// the logical subgroups of a workgroup over 32 invocations
/// (`logical_subgroups.rs`) and their early returns' decisions
/// (`lower_returns.rs`); then in-shader culling's per-instruction roles
/// (`lower_cull.rs`). Selection maps each decision one to one.
pub(crate) fn lower(
    sh: &Shader,
    statistics: bool,
    shader_cull: bool,
) -> Result<Lowered<'_>, BackendError> {
    let shader = match lower_var_ptrs(sh)? {
        Some(rewritten) => Cow::Owned(rewritten),
        None => Cow::Borrowed(sh),
    };
    let mut intrinsics = Intrinsics::default();
    if statistics {
        lower_statistics(&shader, &mut intrinsics);
    }
    let wide = plan(&shader).map(|plan| {
        plan.map(|plan| {
            let returns = lower_returns(&shader, &plan);
            LogicalSubgroups { plan, returns }
        })
    });
    let cull = lower_cull(&shader, shader_cull);
    Ok(Lowered {
        shader,
        intrinsics,
        wide,
        cull,
    })
}

/// Instruction selection and the pass that runs inside it, in order: the
/// shader selected (`from_ir`; with in-shader culling, its first
/// selection, "part one"); with in-shader culling, the culling code
/// appended after it (`insert_cull.rs`: in, the function part one left and
/// the block its OpReturn branches to; out, where part two starts when
/// attributes are deferred) and, when deferred, the shader selected a
/// second time from there ("part two"); then selection's last steps
/// (`Selection::finish`). Each step appends its blocks and registers after
/// the previous one's, in the order one selection made them when it
/// emitted the culling code itself, so the numbering is unchanged.
pub(crate) fn select(
    lowered: &Lowered,
    arch: Arch,
    task_present: bool,
    bank_uniforms: bool,
    redux: bool,
) -> Result<Selected, BackendError> {
    let mut selection = Selection::part_one(lowered, arch, task_present, bank_uniforms, redux)?;
    if let Some(culling) = selection.culling()
        && let Some(start) = insert_cull(culling)
    {
        selection.part_two(start)?;
    }
    selection.finish()
}

/// A machine-IR pass. None reports whether it changed anything: each runs
/// once at its place in the list (iterating to a fixed point would change
/// the output).
pub(crate) type Pass = fn(&mut MFunc);

/// The optimisations between instruction selection and register
/// allocation, in order. Folding exposes copies and copies expose folds,
/// hence the second copy propagation; CSE runs once operands are
/// canonical; predication measures arms after CSE has shrunk them and
/// joins them into their head block, where copy propagation then folds
/// constants into the new SELs and the fusions find producers; the
/// fusions need single-use producers, which CSE and copy propagation
/// leave; dead-code elimination removes what they orphaned.
pub(crate) fn optimisations(opts: &BackendOptions) -> Vec<(&'static str, Pass)> {
    let mut passes: Vec<(&'static str, Pass)> = vec![
        ("copy_prop", copy_prop),
        ("const_fold", const_fold),
        ("copy_prop", copy_prop),
        ("cse", cse),
        ("predicate", predicate),
        ("copy_prop", copy_prop),
        ("imad", form_imad),
    ];
    if opts.fp_contract {
        passes.push(("ffma", form_ffma));
    }
    passes.extend([
        ("lop3", fuse_lop3 as Pass),
        ("dce", eliminate_dead_code),
        ("licm", hoist_invariants),
    ]);
    passes
}

/// `SPVSASS_PRINT=after-each-pass` prints the IR after each pass to
/// standard error, for any caller (the CLI's `--print-passes` captures it
/// into `Compiled::pass_dumps` instead); a caller that would take a
/// compiled binary from a cache compiles instead while it is set.
pub fn print_env() -> bool {
    std::env::var("SPVSASS_PRINT").is_ok_and(|v| v == "after-each-pass")
}

pub fn compile(sh: &Shader, opts: &BackendOptions) -> Result<Compiled, BackendError> {
    let mut dumps = Vec::new();
    let to_stderr = print_env();
    let mut dump = |name: &'static str, text: &dyn Fn() -> String| {
        if opts.print_passes {
            dumps.push((name, text()));
        }
        if to_stderr {
            eprintln!("// ---- after {name} ----\n{}", text());
        }
    };
    if sh.stage == Stage::Compute {
        check_compute_size(sh)?;
    } else {
        limits::check_shader(sh)?;
    }

    // The pipeline.
    let lowered = lower(sh, opts.statistics, opts.shader_cull)?;
    let selected = select(
        &lowered,
        opts.arch,
        opts.task_present,
        opts.bank_uniforms,
        opts.redux,
    )?;
    let computed_offset_stores = selected.computed_offset_stores;
    let mut func = selected.func;
    dump("select", &|| func.to_string());
    verify(&func, "select", Form::Virtual)?;
    check_encodable(&func, "select");
    for (name, pass) in optimisations(opts) {
        pass(&mut func);
        dump(name, &|| func.to_string());
        verify(&func, name, Form::Virtual)?;
        check_encodable(&func, name);
    }
    order_blocks(&mut func);
    dump("order_blocks", &|| func.to_string());
    verify(&func, "order_blocks", Form::Virtual)?;
    let assigned = assign_regs(&mut func, selected.local_bytes)?;
    dump("assign_regs", &|| func.to_string());
    verify(&func, "assign_regs", Form::Allocated)?;
    let mut instrs = layout(&func);
    dump("layout", &|| program::listing(&instrs, false));
    calc_instr_deps(&mut instrs, opts.arch);
    dump("calc_instr_deps", &|| program::listing(&instrs, true));
    let code = program::encode(&instrs, opts.arch)?;

    let compute = (sh.stage == Stage::Compute).then_some(ComputeState {
        shared_bytes: selected.shared_bytes,
        local_bytes: assigned.local_bytes,
    });
    let (mesh, task, sph, gs_sph) = match sh.stage {
        Stage::Mesh => {
            let info = sh.mesh.ok_or_else(|| BackendError::Invalid {
                what: "a mesh shader without output modes".into(),
                spirv_id: None,
            })?;
            let mesh = MeshState {
                topology: binary_topology(info.topology),
                max_vertices: info.max_vertices,
                max_primitives: info.max_primitives,
                shared_mem_lines: crate::from_ir::shared::shared_lines(sh),
                vertex_attrs: selected.vertex_attrs,
                primitive_attrs: selected.primitive_attrs,
                clip_distances: crate::from_ir::clip_distance_count(sh),
            };
            limits::check_outputs(&mesh)?;
            // Bound as VERTEX alone, as TESSELLATION behind a task shader
            // (docs/HARDWARE.md, "Shader program header").
            let shader_type = if opts.task_present {
                ShaderType::Tessellation
            } else {
                ShaderType::Vertex
            };
            let sph = Sph::mesh(&mesh, shader_type);
            // Per-primitive outputs enable the geometry stage in
            // passthrough mode, with only its header (docs/HARDWARE.md).
            let gs = (!mesh.primitive_attrs.is_empty())
                .then(|| Sph::passthrough_gs(&mesh.primitive_attrs).0);
            (Some(mesh), None, Some(sph), gs)
        }
        // Compute launches are described by a QMD on the hardware, which
        // the simulator does not model: the binary carries the memory
        // sizes a dispatch allocates instead of an SPH.
        Stage::Compute => (None, None, None, None),
        // A task shader is always bound as a VERTEX shader
        // (docs/HARDWARE.md).
        _ => {
            let task = TaskState {
                payload_bytes: payload_bytes(sh),
                shared_lines: crate::from_ir::shared::shared_lines(sh),
            };
            (None, Some(task), Some(Sph::task()), None)
        }
    };
    // Local memory per invocation (the spill frame and local arrays) goes
    // in the SPH's SHADER_LOCAL_MEMORY_LOW_SIZE field, as Mesa NAK fills
    // it; the simulator sizes a task/mesh workgroup's local memory from it.
    let sph = sph.map(|mut s| {
        s.set_local_memory(assigned.local_bytes);
        s
    });
    let warnings = advise(sh.invocations(), mesh.as_ref(), &computed_offset_stores);
    let binary = Binary {
        arch: opts.arch,
        stage: binary_stage(sh.stage),
        workgroup_size: sh.workgroup_size,
        num_gprs: assigned.num_gprs,
        mesh,
        task,
        compute,
        sph: sph.map(|s| s.0),
        code,
        gs_sph,
        resources: crate::from_ir::interface(sh, opts.bank_uniforms),
    };
    // What a reader refuses (`Binary::check_limits`) is refused here too,
    // so every binary the compiler writes can be read back and run.
    binary.check_limits().map_err(limit_error)?;
    Ok(Compiled {
        warnings,
        binary,
        instrs,
        pass_dumps: dumps,
    })
}

/// Checks the machine IR after `pass` (`MFunc::verify`) in debug builds,
/// and so in every test; release builds trust the passes.
fn verify(func: &MFunc, pass: &'static str, form: Form) -> Result<(), BackendError> {
    if cfg!(debug_assertions) {
        func.verify(form)
            .map_err(|error| BackendError::Verify { pass, error })?;
    }
    Ok(())
}

/// A binary limit the compiled shader breaks, as a compile error.
fn limit_error(e: crate::binary::BinaryError) -> BackendError {
    match e {
        crate::binary::BinaryError::Limit {
            field,
            value,
            limit,
            property,
        } => BackendError::Limit {
            what: format!("the shader's {field}"),
            value: u32::try_from(value).unwrap_or(u32::MAX),
            limit: u32::try_from(limit).unwrap_or(u32::MAX),
            property,
        },
        other => BackendError::Invalid {
            what: other.to_string(),
            spirv_id: None,
        },
    }
}

use crate::limits::MAX_COMPUTE_INVOCATIONS;

/// With debug assertions on (every test build), the output of selection
/// and of each pass is checked against the encoder
/// (`mir_info::encodable`, the one rule for operand forms): a pass that
/// produces an operand the encoder refuses is named here, not later as an
/// encoding failure of the whole shader.
fn check_encodable(f: &crate::mir::MFunc, after: &str) {
    if !cfg!(debug_assertions) {
        return;
    }
    if let Some((b, ins, e)) = crate::mir_info::unencodable(f).into_iter().next() {
        panic!("after {after}: `{ins}` in block {b} cannot be encoded: {e}");
    }
}

fn check_compute_size(sh: &Shader) -> Result<(), BackendError> {
    if sh.invocations() > MAX_COMPUTE_INVOCATIONS {
        return Err(BackendError::Invalid {
            what: format!(
                "a workgroup of {} invocations (at most {MAX_COMPUTE_INVOCATIONS})",
                sh.workgroup_size.map(|s| s.to_string()).join(" x ")
            ),
            spirv_id: None,
        });
    }
    Ok(())
}

/// The binary's stage of an entry point's (the frontend and the target
/// crate each have their own enum; neither depends on the other).
fn binary_stage(s: Stage) -> crate::binary::Stage {
    match s {
        Stage::Task => crate::binary::Stage::Task,
        Stage::Mesh => crate::binary::Stage::Mesh,
        Stage::Compute => crate::binary::Stage::Compute,
    }
}

/// The binary's topology of a mesh shader's output mode.
fn binary_topology(t: MeshTopology) -> crate::binary::MeshTopology {
    match t {
        MeshTopology::Points => crate::binary::MeshTopology::Points,
        MeshTopology::Lines => crate::binary::MeshTopology::Lines,
        MeshTopology::Triangles => crate::binary::MeshTopology::Triangles,
    }
}
