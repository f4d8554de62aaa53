//! In-shader primitive culling for mesh shaders (RADV's NGG culling,
//! docs/HARDWARE.md "In-shader culling", adapted to this hardware's mesh outputs), compiled in with
//! `BackendOptions::shader_cull`.
//!
//! The shader's own code runs first ("part one"); its OpReturn jumps to
//! the culling code instead of exiting. That code reads the root table's
//! culling word (docs/ABI.md); 0 skips it. Otherwise each lane takes the
//! primitives `lane + 32k`, reads their vertex indices from the output MAP
//! region and their vertices' positions from the output ATTR region, and
//! tests them (`mesh_cull_triangle`). Surviving primitives are compacted with
//! a ballot and a prefix count (VOTE, POPC of the lanes below), the
//! vertices they reference get new, dense indices (REDUX.OR of the
//! reference bits, prefix counts), and indices, per-primitive attributes,
//! vertices and the primitive count are rewritten in place. Each block of
//! 32 elements is read whole before any of it is written, and an element
//! only moves down, so no write clobbers an element not yet read.
//!
//! Deferred attribute shading: when the shader allows it ([`plan`]), part
//! one is the shader without its per-vertex outputs other than position,
//! and after the culling the shader runs again ("part two") for the
//! surviving vertices only: lane `L` plays the invocation whose vertex
//! became vertex `L` (its local invocation index is the `L`-th set bit of
//! the reference mask), writes only the per-vertex outputs other than
//! position, and lanes beyond the surviving vertex count exit at once.
//! Dead-code elimination then removes the attribute work from part one and
//! the position work from part two. With the culling switched off, part
//! two runs for every lane as itself.

use super::Isel;
use super::mesh_out::{OutputTarget, classify};
use super::places::{Place, Step, resolve};
use crate::abi;
use crate::error::BackendError;
use crate::isa::{Instr, Op, OpBra, OpWarpSync, PredSrc, RegFile, Src};
use crate::isbe_layout::addr;
use crate::mir::{BlockId, VReg};
use rustc_hash::FxHashMap;
use spvsass_frontend::ir::{
    BuiltIn, InstData, MeshTopology, Op as IrOp, Shader, Stage, StorageClass, Value,
};

/// How the culling fits the shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CullPlan {
    /// Culling after the whole shader: every output is computed, culled
    /// vertices' outputs are dropped by the compaction.
    Epilogue,
    /// Positions first, culling, then the other vertex outputs for
    /// surviving vertices only (module comment).
    Deferred,
}

/// Which copy of the shader is being selected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Part {
    /// Everything but (when deferred) the per-vertex outputs other than
    /// position; OpReturn goes to the culling code.
    One,
    /// The per-vertex outputs other than position, for surviving vertices.
    Two,
}

/// The culling state of an instruction selection.
pub(super) struct CullState {
    pub plan: CullPlan,
    pub part: Part,
    /// The MIR block part one's OpReturn jumps to.
    pub entry: BlockId,
    /// Part two's local invocation index (a register).
    pub source: Option<VReg>,
}

fn refuse(what: impl Into<String>, opcode: &str, spirv_id: Option<u32>) -> BackendError {
    BackendError::Unsupported {
        what: format!("in-shader culling of {}", what.into()),
        opcode: opcode.into(),
        spirv_id,
    }
}

/// Whether `v` is a scalar load of the local invocation index (or of the
/// x component of the local invocation id of an x-only workgroup).
fn is_invocation_index(sh: &Shader, defs: &FxHashMap<Value, &InstData>, v: Value) -> bool {
    let Some(InstData {
        op: IrOp::Load { ptr },
        spirv_id,
        ..
    }) = defs.get(&v)
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
    let defs: FxHashMap<Value, &InstData> = sh
        .insts
        .values()
        .filter_map(|i| Some((i.result?, i)))
        .collect();
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
                        let n = super::places::comp_count(sh, sh.values[*value].ty).unwrap_or(1);
                        if let OutputTarget::Attr {
                            elem,
                            per_primitive: false,
                            ..
                        } = classify(sh, &place, n, inst.spirv_id)?
                        {
                            let own =
                                matches!(elem, Step::Dyn(v) if is_invocation_index(sh, &defs, v));
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

impl Isel<'_> {
    /// The culling's hook into instruction selection: handles `inst` when
    /// the culling changes it (returns true), else leaves it (false).
    pub(super) fn cull_inst(&mut self, inst: &InstData) -> Result<bool, BackendError> {
        let Some(state) = &self.cull else {
            return Ok(false);
        };
        let (plan, part, entry, source) = (state.plan, state.part, state.entry, state.source);
        match &inst.op {
            IrOp::Return if part == Part::One => {
                let from = self.cur;
                self.emit(Instr::new(Op::Bra(OpBra {
                    target: entry.target(),
                })));
                self.f.add_edge(from, entry, Vec::new());
                Ok(true)
            }
            IrOp::SetMeshOutputs { .. } => Ok(part == Part::Two),
            IrOp::Store { ptr, value } => {
                let place = resolve(self.sh, *ptr, inst.spirv_id)?;
                if self.sh.globals[place.var].class != StorageClass::Output {
                    return Ok(false);
                }
                let n = self.value(*value)?.len() as u32;
                let target = classify(self.sh, &place, n, inst.spirv_id)?;
                Ok(!store_in_part(&target, plan, part))
            }
            IrOp::Load { ptr } if part == Part::Two => {
                let place: Place = resolve(self.sh, *ptr, inst.spirv_id)?;
                let index = match (self.sh.globals[place.var].builtin, place.path.as_slice()) {
                    (Some(BuiltIn::LocalInvocationIndex), []) => vec![],
                    (Some(BuiltIn::LocalInvocationId), []) => vec![0, 0],
                    (Some(BuiltIn::LocalInvocationId), [Step::Const(0)]) => vec![],
                    _ => return Ok(false),
                };
                let (Some(r), Some(src)) = (inst.result, source) else {
                    return Ok(false);
                };
                let mut comps = vec![super::Comp::Reg(src)];
                comps.extend(index.into_iter().map(super::Comp::Const));
                if comps.len() == 1 {
                    self.lane_ids.insert(r);
                }
                self.vals.insert(r, comps);
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// Creates the block part one returns to (after the shader's blocks).
    pub(super) fn begin_cull(&mut self, plan: CullPlan) {
        let entry = self.f.new_block();
        self.cull = Some(CullState {
            plan,
            part: Part::One,
            entry,
            source: None,
        });
    }

    /// Emits the culling code, and part two when deferred.
    pub(super) fn finish_cull(&mut self) -> Result<(), BackendError> {
        let Some(state) = &self.cull else {
            return Ok(());
        };
        let (plan, entry) = (state.plan, state.entry);
        self.cur = entry;
        // Every invocation reaches the one top-level OpReturn; the warp
        // is converged here.
        self.emit(Instr::new(Op::WarpSync(OpWarpSync {
            mask: Src::imm(u32::MAX),
        })));
        let control = self.root_word(abi::CULL_CONTROL);
        let control = self.src_of(control);
        let off = self.c_isetp(crate::isa::IntCmp::Eq, control, Src::ZERO);
        let enabled = self.f.new_block();
        let disabled = self.f.new_block();
        self.branch(off, disabled, enabled);

        self.cur = enabled;
        let survivors = self.cull_and_compact(control, plan)?;
        let lane = self.special_reg(crate::isa::SpecialReg::LaneId).src();
        match plan {
            CullPlan::Epilogue => {
                self.emit(Instr::new(Op::Exit));
                self.cur = disabled;
                self.emit(Instr::new(Op::Exit));
            }
            CullPlan::Deferred => {
                let join = self.f.new_block();
                let source = self.f.new_vreg(RegFile::Gpr);
                self.f.blocks[join].params = vec![source];
                // Lanes past the surviving vertices have nothing to do.
                let (count, mask) = survivors;
                let src = self.nth_set_bit(mask, lane);
                let done = self.c_isetp(crate::isa::IntCmp::Ge, lane, count);
                let exit = self.f.new_block();
                let go = self.f.new_block();
                self.branch(done, exit, go);
                self.cur = exit;
                self.emit(Instr::new(Op::Exit));
                self.cur = go;
                self.jump_with(join, vec![reg_of(src)]);
                // Switched off: every lane runs part two as itself.
                self.cur = disabled;
                self.jump_with(join, vec![reg_of(lane)]);
                self.begin_part_two(join, source)?;
            }
        }
        Ok(())
    }

    /// Selects the shader a second time, as part two, from `join`.
    fn begin_part_two(&mut self, join: BlockId, source: VReg) -> Result<(), BackendError> {
        if let Some(state) = &mut self.cull {
            state.part = Part::Two;
            state.source = Some(source);
        }
        let sh = self.sh;
        self.blocks.clear();
        for &b in &sh.layout {
            let mb = self.f.new_block();
            self.blocks.insert(b, mb);
        }
        self.cur = join;
        let first = self.blocks.at(sh.entry_block());
        self.jump_with(first, Vec::new());
        for &b in &sh.layout {
            self.block(b)?;
        }
        Ok(())
    }

    /// `@p BRA taken`, else on to `other`.
    fn branch(&mut self, p: PredSrc, taken: BlockId, other: BlockId) {
        let from = self.cur;
        self.emit(Instr::guarded(
            p,
            Op::Bra(OpBra {
                target: taken.target(),
            }),
        ));
        self.f.add_edge(from, taken, Vec::new());
        self.f.add_edge(from, other, Vec::new());
    }

    fn jump_with(&mut self, to: BlockId, args: Vec<VReg>) {
        let from = self.cur;
        self.emit(Instr::new(Op::Bra(OpBra {
            target: to.target(),
        })));
        self.f.add_edge(from, to, args);
    }
}

/// The virtual register of a register source.
pub(super) fn reg_of(s: Src) -> VReg {
    match s.as_reg().and_then(VReg::from_reg) {
        Some(r) => r,
        None => unreachable!("culling values are virtual registers"),
    }
}
