//! In-shader primitive culling's decisions (`BackendOptions::shader_cull`,
//! docs/HARDWARE.md "In-shader culling"), made before instruction
//! selection, as the statistics are (`lower_statistics.rs`).
//!
//! Input: the shader (after `from_ir/var_ptrs.rs`) and whether culling is
//! compiled in. Output: a [`CullLowering`]: the plan (the culling as an
//! epilogue, or with deferred attribute shading) and, for each of the
//! shader's two selections (part one, before the culling code; part two,
//! after it, deferred plans only), what becomes of each instruction whose
//! selection the culling changes ([`CullRole`]). Selection maps each role
//! one to one (`from_ir/mesh_cull.rs`, `Isel::cull_inst`) and knows nothing
//! of why it was given; the culling code itself is the pass that runs
//! between the two selections (`insert_cull.rs`, `compile::select`).

use crate::error::BackendError;
use crate::from_ir::mesh_out::{OutputTarget, classify, written_outputs};
use crate::from_ir::places::{Step, comp_count, resolve};
use crate::isbe_layout::addr;
use cranelift_entity::SecondaryMap;
use spvsass_frontend::ir::{
    BuiltIn, Inst, InstData, MeshTopology, Op as IrOp, Shader, Stage, StorageClass, Value,
};

/// How the culling fits the shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CullPlan {
    /// Culling after the whole shader: every output is computed, culled
    /// vertices' outputs are dropped by the compaction.
    Epilogue,
    /// Positions first, culling, then the other vertex outputs for
    /// surviving vertices only (`insert_cull.rs`).
    Deferred,
}

/// Which selection of the shader an instruction is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// Everything but (when deferred) the per-vertex outputs other than
    /// position; OpReturn goes to the culling code.
    One,
    /// The per-vertex outputs other than position, for surviving vertices.
    Two,
}

/// What selection does with an instruction instead of selecting it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CullRole {
    /// Nothing: an output store of the other part, or part two's
    /// SetMeshOutputsEXT.
    Skip,
    /// Part one's OpReturn: a branch to the culling code.
    ToCulling,
    /// A part-two load of the local invocation index (`id_vector`: of the
    /// whole local invocation id, whose y and z are 0): the invocation the
    /// lane plays, which the culling code computed.
    PlayedInvocation { id_vector: bool },
}

/// The culling's decisions for one shader.
#[derive(Clone, Debug)]
pub struct CullLowering {
    pub plan: CullPlan,
    /// Part one's roles; `None`: selected as usual.
    pub part_one: SecondaryMap<Inst, Option<CullRole>>,
    /// Part two's roles (every entry `None` in an epilogue plan, which has
    /// no part two).
    pub part_two: SecondaryMap<Inst, Option<CullRole>>,
}

impl CullLowering {
    /// The role of `inst` in `part`.
    pub fn role(&self, part: Part, inst: Inst) -> Option<CullRole> {
        match part {
            Part::One => self.part_one[inst],
            Part::Two => self.part_two[inst],
        }
    }
}

fn refuse(what: impl Into<String>, opcode: &str, spirv_id: Option<u32>) -> BackendError {
    BackendError::Unsupported {
        what: format!("in-shader culling of {}", what.into()),
        opcode: opcode.into(),
        spirv_id,
    }
}

/// The culling's decisions for `sh`, when culling is compiled in
/// (`shader_cull`); an error names what cannot be culled.
pub(crate) fn lower_cull(
    sh: &Shader,
    shader_cull: bool,
) -> Result<Option<CullLowering>, BackendError> {
    if !shader_cull {
        return Ok(None);
    }
    let vertex_attrs = match sh.stage {
        Stage::Mesh => written_outputs(sh)?.vertex,
        _ => Vec::new(),
    };
    let plan = plan(sh, &vertex_attrs)?;
    let mut part_one = SecondaryMap::with_capacity(sh.insts.len());
    let mut part_two = SecondaryMap::with_capacity(sh.insts.len());
    for (id, inst) in sh.insts.iter() {
        part_one[id] = role(sh, inst, plan, Part::One)?;
        if plan == CullPlan::Deferred {
            part_two[id] = role(sh, inst, plan, Part::Two)?;
        }
    }
    Ok(Some(CullLowering {
        plan,
        part_one,
        part_two,
    }))
}

/// What becomes of `inst` in `part` of a `plan` shader.
fn role(
    sh: &Shader,
    inst: &InstData,
    plan: CullPlan,
    part: Part,
) -> Result<Option<CullRole>, BackendError> {
    Ok(match (&inst.op, part) {
        (IrOp::Return, Part::One) => Some(CullRole::ToCulling),
        (IrOp::SetMeshOutputs { .. }, Part::Two) => Some(CullRole::Skip),
        (IrOp::Store { ptr, value }, _) => {
            let place = resolve(sh, *ptr, inst.spirv_id)?;
            if sh.globals[place.var].class != StorageClass::Output {
                return Ok(None);
            }
            // As `written_outputs` counts them.
            let n = comp_count(sh, sh.values[*value].ty).unwrap_or(1);
            let target = classify(sh, &place, n, inst.spirv_id)?;
            (!store_in_part(&target, plan, part)).then_some(CullRole::Skip)
        }
        (IrOp::Load { ptr }, Part::Two) => {
            let place = resolve(sh, *ptr, inst.spirv_id)?;
            match (sh.globals[place.var].builtin, place.path.as_slice()) {
                (Some(BuiltIn::LocalInvocationIndex), [])
                | (Some(BuiltIn::LocalInvocationId), [Step::Const(0)]) => {
                    Some(CullRole::PlayedInvocation { id_vector: false })
                }
                (Some(BuiltIn::LocalInvocationId), []) => {
                    Some(CullRole::PlayedInvocation { id_vector: true })
                }
                _ => None,
            }
        }
        _ => None,
    })
}

/// Whether `v` is a scalar load of the local invocation index (or of the
/// x component of the local invocation id of an x-only workgroup).
fn is_invocation_index(sh: &Shader, v: Value) -> bool {
    let Some(InstData {
        op: IrOp::Load { ptr },
        spirv_id,
        ..
    }) = sh.def_inst(v)
    else {
        return false;
    };
    let Ok(place) = resolve(sh, *ptr, *spirv_id) else {
        return false;
    };
    match (sh.globals[place.var].builtin, place.path.as_slice()) {
        (Some(BuiltIn::LocalInvocationIndex), []) => true,
        (Some(BuiltIn::LocalInvocationId), [Step::Const(0)]) => {
            sh.workgroup_size[1] == 1 && sh.workgroup_size[2] == 1
        }
        _ => false,
    }
}

/// Checks a mesh shader can be culled and picks the plan. Culling needs
/// triangles, gl_Position, and one OpReturn that every invocation reaches
/// (so the culling code runs with the whole warp). A workgroup of up to
/// 128 invocations is one warp on this hardware (logical subgroups,
/// `crate::logical_subgroups`): its culling code runs once, after every
/// logical subgroup has written its outputs, and tests and compacts all
/// primitives and vertices of the workgroup, 32 per block, exactly as for
/// a one-warp workgroup; no exchange between warps is needed.
/// Deferred attribute shading further needs: at most 32 invocations and
/// 32 vertices; every
/// per-vertex output written by the invocation whose local index is the
/// vertex (`out[gl_LocalInvocationIndex] = ...`); no memory writes other
/// than outputs and function variables, no atomics, no subgroup
/// operations and no subgroup invocation id (part two runs each
/// invocation on another lane, and only some of them). Otherwise the
/// plan is [`CullPlan::Epilogue`].
pub fn plan(sh: &Shader, vertex_attrs: &[u16]) -> Result<CullPlan, BackendError> {
    let mesh = match (sh.stage, sh.mesh) {
        (Stage::Mesh, Some(m)) => m,
        _ => {
            return Err(refuse(
                "a shader that is not a mesh shader",
                "OpEntryPoint",
                None,
            ));
        }
    };
    if mesh.topology != MeshTopology::Triangles {
        return Err(refuse(
            "points or lines (only triangles are culled)",
            "OpExecutionMode",
            None,
        ));
    }
    if !(0..4).all(|c| vertex_attrs.contains(&(addr::POSITION + 4 * c))) {
        return Err(refuse(
            "a shader that does not write all of gl_Position",
            "OpEntryPoint",
            None,
        ));
    }
    let returns: Vec<&InstData> = sh
        .insts
        .values()
        .filter(|i| matches!(i.op, IrOp::Return | IrOp::Unreachable))
        .collect();
    if returns.len() != 1 || !matches!(returns[0].op, IrOp::Return) {
        let id = returns.get(1).and_then(|i| i.spirv_id);
        return Err(refuse(
            "a shader with an early return or OpUnreachable (the culling code runs at its \
             one OpReturn)",
            "OpReturn",
            id,
        ));
    }
    // The return must be at the top level: its block outside every
    // selection and loop, where all invocations meet.
    let ret_block = sh.layout.iter().copied().find(|&b| {
        sh.blocks[b]
            .insts
            .iter()
            .any(|&i| sh.insts[i].op == IrOp::Return)
    });
    if ret_block != sh.layout.last().copied() {
        return Err(refuse(
            "a shader whose OpReturn is not in its last block",
            "OpReturn",
            returns[0].spirv_id,
        ));
    }
    Ok(if deferrable(sh, mesh.max_vertices)? {
        CullPlan::Deferred
    } else {
        CullPlan::Epilogue
    })
}

fn deferrable(sh: &Shader, max_vertices: u32) -> Result<bool, BackendError> {
    // Part two plays one invocation per lane: a workgroup over 32
    // invocations (logical subgroups) takes the epilogue.
    if max_vertices > crate::isbe_layout::BLOCK_ELEMS
        || sh.invocations() > crate::isbe_layout::BLOCK_ELEMS
    {
        return Ok(false);
    }
    for inst in sh.insts.values() {
        match &inst.op {
            IrOp::Atomic { .. } | IrOp::Subgroup(..) => return Ok(false),
            IrOp::Load { ptr } => {
                let place = resolve(sh, *ptr, inst.spirv_id)?;
                if sh.globals[place.var].builtin == Some(BuiltIn::SubgroupLocalInvocationId) {
                    return Ok(false);
                }
            }
            IrOp::Store { ptr, value } => {
                let place = resolve(sh, *ptr, inst.spirv_id)?;
                match sh.globals[place.var].class {
                    StorageClass::Function | StorageClass::Private => {}
                    StorageClass::Output => {
                        let n = comp_count(sh, sh.values[*value].ty).unwrap_or(1);
                        if let OutputTarget::Attr {
                            elem,
                            per_primitive: false,
                            ..
                        } = classify(sh, &place, n, inst.spirv_id)?
                        {
                            let own = matches!(elem, Step::Dyn(v) if is_invocation_index(sh, v));
                            if !own {
                                return Ok(false);
                            }
                        }
                    }
                    _ => return Ok(false),
                }
            }
            _ => {}
        }
    }
    Ok(true)
}

/// Whether an output store belongs to `part` of a `plan` shader.
fn store_in_part(target: &OutputTarget, plan: CullPlan, part: Part) -> bool {
    let vertex_attr = match target {
        OutputTarget::Attr {
            addrs,
            per_primitive: false,
            ..
        } => Some(
            addrs
                .iter()
                .all(|a| (addr::POSITION..addr::GENERIC).contains(a)),
        ),
        _ => None,
    };
    match (plan, part, vertex_attr) {
        (CullPlan::Epilogue, _, _) => true,
        // Part one: positions, indices, per-primitive outputs.
        (CullPlan::Deferred, Part::One, position) => position != Some(false),
        // Part two: the other per-vertex outputs.
        (CullPlan::Deferred, Part::Two, position) => position == Some(false),
    }
}
