//! Task and mesh workgroups of more than 32 invocations on one warp.
//!
//! The hardware runs a task or mesh workgroup on a single warp of 32 lanes
//! (docs/HARDWARE.md, "Workgroups": one hardware invocation runs up to
//! four API invocations). An API workgroup of N invocations (33..=128) therefore
//! runs as `ceil(N / 32)` logical subgroups on that warp: logical subgroup
//! `i` is lanes 0..32 with `local_invocation_index = i * 32 + lane`.
//!
//! The code between region boundaries (OpControlBarrier, SetMeshOutputsEXT,
//! EmitMeshTasksEXT) is repeated once per logical subgroup, in order, so
//! that every logical subgroup finishes a region before any starts the
//! next: that is what a workgroup barrier promises. The repetition is
//! **unrolled** at instruction selection (at most 4 copies) rather than a
//! runtime loop over `i`: every SSA value then simply has one register per
//! copy, so values live across a boundary need no indexed storage (the ISA
//! has no indexed register access, and local memory is not modelled), at
//! the price of code size and register pressure growing with the copies.
//!
//! This module is the analysis; `from_ir::subgroups` emits the code. It
//! splits the structured control flow into:
//! - the *spine*: blocks outside any construct, and blocks of constructs
//!   that contain a boundary. Their branches are dynamically uniform by
//!   Vulkan's rules (a barrier, SetMeshOutputsEXT or EmitMeshTasksEXT in
//!   control flow that is not is undefined behaviour), so they are assumed
//!   so: a branch this analysis proves uniform (constants, uniform
//!   built-ins, the task payload) uses copy 0's condition; any other (a
//!   value loaded from a buffer or shared memory, say) is *voted*
//!   (`Plan::voted`): evaluated once per workgroup, taken when any
//!   invocation still running takes it (ARCHITECTURE.md, "Wide task/mesh
//!   workgroups"). A switch is decided the same way, case group by case
//!   group (`from_ir::spine_switch`). Spine blocks are emitted once; each instruction in them
//!   once per copy; boundaries once.
//! - *regions*: maximal constructs (header to merge, exclusive) without a
//!   boundary. Each is emitted as a whole once per copy, one copy after the
//!   other, whatever its control flow.
//!
//! A construct is the layout range from its header to its merge block (the
//! frontend keeps SPIR-V's structured block order, as `plan_barriers` also
//! assumes). A selection header's instructions before its branch belong to
//! the enclosing construct (a boundary there does not make the selection a
//! spine construct); a loop header's belong to the loop.
//!
//! When N is not a multiple of 32, lanes `N % 32..32` of the last logical
//! subgroup are no invocations: they start out *returned* (below), so they
//! skip every region copy and every run of spine instructions of that
//! copy, and every ISBE write of that copy is guarded as well
//! (`Isel::logical_guard`).
//!
//! A `return` inside a region cannot be an EXIT: the lane is shared by
//! every logical subgroup, and only one of its invocations returns. Each
//! copy therefore keeps a *returned* predicate (decided by
//! `lower_returns.rs`, emitted by `from_ir::returns`), one
//! SSA value per copy threaded through the spine's block parameters: a
//! return sets it and branches to the copy's end of the region; a returned
//! lane branches over every later region copy and every later run of spine
//! instructions of its copy, so it neither writes nor takes part in
//! subgroup operations. A `return` in the spine is uniform (the spine's
//! branches are) and stays an EXIT.

use crate::error::BackendError;
use cranelift_entity::{EntitySet, SecondaryMap};
use spvsass_frontend::ir::{Block, BuiltIn, Merge, Op, Shader, Stage, StorageClass, Value};

/// Lanes of the warp a task or mesh workgroup runs on.
pub use crate::limits::WARP_LANES;

/// How a wide workgroup's control flow is split.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Logical subgroups: `ceil(N / 32)`.
    pub copies: u32,
    /// The merge block of each region header.
    pub regions: SecondaryMap<Block, Option<Block>>,
    /// Region headers of selections: their instructions before the branch
    /// belong to the spine.
    pub selections: EntitySet<Block>,
    /// The region's header of each block inside a region.
    pub region_of: SecondaryMap<Block, Option<Block>>,
    /// Some region returns (or ends in OpUnreachable): the copies keep
    /// returned predicates.
    pub returns: bool,
    /// Spine blocks ending in a conditional branch or a switch whose
    /// condition or selector is not provably uniform: the branch is
    /// evaluated once for the workgroup
    /// (`from_ir::subgroups`, a vote over every copy's invocations still
    /// running), so every lane of the warp goes the same way.
    pub voted: EntitySet<Block>,
}

impl Plan {
    pub fn is_spine(&self, b: Block) -> bool {
        self.region_of[b].is_none()
    }
}

/// Whether the op ends a region: every logical subgroup must have run the
/// code before it before any runs the code after it.
pub fn is_boundary(op: &Op) -> bool {
    matches!(
        op,
        Op::ControlBarrier | Op::SetMeshOutputs { .. } | Op::EmitMeshTasks { .. }
    )
}

fn divergent(what: String, spirv_id: Option<u32>) -> BackendError {
    BackendError::Invalid {
        what: format!(
            "{what}: a workgroup barrier, SetMeshOutputsEXT or EmitMeshTasksEXT in control \
             flow that is not structured uniformly (a workgroup of more than 32 invocations \
             runs its logical subgroups in turn between them)"
        ),
        spirv_id,
    }
}

/// The plan for a task or mesh shader of more than 32 invocations; `None`
/// when the workgroup fits one warp (or the shader is a compute shader).
pub fn plan(sh: &Shader) -> Result<Option<Plan>, BackendError> {
    let n = sh.invocations();
    if sh.stage == Stage::Compute || n <= WARP_LANES {
        return Ok(None);
    }
    // Each block's position in the layout.
    let mut pos: SecondaryMap<Block, Option<usize>> = SecondaryMap::with_capacity(sh.blocks.len());
    for (i, &b) in sh.layout.iter().enumerate() {
        pos[b] = Some(i);
    }
    let has_boundary: Vec<bool> = sh
        .layout
        .iter()
        .map(|&b| {
            sh.blocks[b]
                .insts
                .iter()
                .any(|&i| is_boundary(&sh.insts[i].op))
        })
        .collect();
    let label = |b: Block| sh.blocks[b].spirv_label;
    let mut plan = Plan {
        copies: n.div_ceil(WARP_LANES),
        regions: SecondaryMap::with_capacity(sh.blocks.len()),
        selections: EntitySet::new(),
        region_of: SecondaryMap::with_capacity(sh.blocks.len()),
        returns: false,
        voted: EntitySet::new(),
    };
    let mut i = 0;
    while i < sh.layout.len() {
        let h = sh.layout[i];
        // A selection header's own instructions run before the branch, in
        // the parent construct (they are emitted with the spine); a loop
        // header's run on every iteration, inside the construct.
        let (merge, first) = match sh.blocks[h].merge {
            Some(Merge::Selection { merge }) => (merge, i + 1),
            Some(Merge::Loop { merge, .. }) => (merge, i),
            None => {
                i += 1;
                continue;
            }
        };
        let Some(end) = pos[merge] else {
            return Err(BackendError::Invalid {
                what: format!("the merge block of header {h} is not in the layout"),
                spirv_id: label(h),
            });
        };
        if end <= i {
            return Err(BackendError::Invalid {
                what: format!("the merge block of header {h} comes before it in the layout"),
                spirv_id: label(h),
            });
        }
        if has_boundary[first.min(end)..end].iter().any(|&x| x) {
            i += 1;
            continue;
        }
        plan.regions[h] = Some(merge);
        if first > i {
            plan.selections.insert(h);
        }
        for &b in &sh.layout[i..end] {
            plan.region_of[b] = Some(h);
        }
        i = end;
    }
    check_edges(sh, &plan)?;
    plan.voted = voted_branches(sh, &plan)?;
    plan.returns = plan
        .region_of
        .iter()
        .any(|(b, h)| h.is_some() && ends_shader(sh, b));
    Ok(Some(plan))
}

/// Whether block `b` ends the invocation (OpReturn or OpUnreachable).
pub fn ends_shader(sh: &Shader, b: Block) -> bool {
    matches!(sh.terminator(b), Some(Op::Return | Op::Unreachable))
}

/// Regions are left only through their merge block or by a return (which
/// `from_ir::returns` turns into a branch to the merge); the spine enters
/// a region only through its header.
fn check_edges(sh: &Shader, plan: &Plan) -> Result<(), BackendError> {
    for &b in &sh.layout {
        let Some(term) = sh.blocks[b].insts.last().map(|&i| &sh.insts[i]) else {
            continue;
        };
        match (plan.region_of[b], &term.op) {
            (Some(_), Op::Return | Op::Unreachable) => {}
            (Some(h), _) => {
                let merge = plan.regions[h];
                for s in sh.successors(b) {
                    if plan.region_of[s] != Some(h) && Some(s) != merge {
                        return Err(divergent(
                            format!("block {b} branches out of its construct to block {s}"),
                            sh.blocks[b].spirv_label,
                        ));
                    }
                }
            }
            (None, _) => {
                for s in sh.successors(b) {
                    if !plan.is_spine(s) && plan.regions[s].is_none() {
                        return Err(BackendError::Invalid {
                            what: format!("block {b} enters a construct at block {s}"),
                            spirv_id: sh.blocks[b].spirv_label,
                        });
                    }
                }
            }
        }
    }
    Ok(())
}

/// Built-ins equal for every invocation of a workgroup.
fn uniform_builtin(b: BuiltIn) -> bool {
    matches!(
        b,
        BuiltIn::WorkgroupId
            | BuiltIn::NumWorkgroups
            | BuiltIn::WorkgroupSize
            | BuiltIn::SubgroupSize
            | BuiltIn::NumSubgroups
            | BuiltIn::DrawIndex
            | BuiltIn::ViewIndex
    )
}

/// The spine's branches that cannot be proven uniform, to be voted. A
/// branch is proven uniform when its condition is computed from constants,
/// uniform built-ins and (in a mesh shader) the task payload, through pure
/// operations and block parameters whose incoming values are all uniform
/// (a greatest fixed point, so loop counters qualify). A spine switch is
/// voted the same way when its selector is not proven uniform
/// (`from_ir::spine_switch`).
fn voted_branches(sh: &Shader, plan: &Plan) -> Result<EntitySet<Block>, BackendError> {
    // Incoming arguments of each block parameter.
    let mut incoming: SecondaryMap<Value, Vec<Value>> =
        SecondaryMap::with_capacity(sh.values.len());
    let mut switched: EntitySet<Block> = EntitySet::new();
    for &b in &sh.layout {
        let Some(&last) = sh.blocks[b].insts.last() else {
            continue;
        };
        let calls = match &sh.insts[last].op {
            Op::Jump(c) => vec![c],
            Op::Branch {
                then_dest,
                else_dest,
                ..
            } => vec![then_dest, else_dest],
            // A spine switch is decided once per workgroup, like a spine
            // branch; a switch inside a region may diverge.
            Op::Switch { default, cases, .. } if plan.is_spine(b) => std::iter::once(default)
                .chain(cases.iter().map(|c| &c.1))
                .collect(),
            Op::Switch { default, cases, .. } => {
                switched
                    .extend(std::iter::once(default.block).chain(cases.iter().map(|c| c.1.block)));
                continue;
            }
            _ => continue,
        };
        for c in calls {
            for (&p, &a) in sh.blocks[c.block].params.iter().zip(&c.args) {
                incoming[p].push(a);
            }
        }
    }
    // The greatest fixed point: start from everything uniform and remove
    // until stable, so that a loop counter fed by itself stays uniform.
    let mut uniform: EntitySet<Value> = EntitySet::with_capacity(sh.values.len());
    uniform.extend(sh.values.keys());
    loop {
        let mut changed = false;
        let mut set = |v: Value, u: bool, uniform: &mut EntitySet<Value>| {
            if u != uniform.contains(v) {
                changed = true;
                if u {
                    uniform.insert(v);
                } else {
                    uniform.remove(v);
                }
            }
        };
        for &b in &sh.layout {
            for &p in &sh.blocks[b].params {
                let args = &incoming[p];
                let u = plan.is_spine(b)
                    && !switched.contains(b)
                    && !args.is_empty()
                    && args.iter().all(|&a| uniform.contains(a));
                set(p, u, &mut uniform);
            }
            for &i in &sh.blocks[b].insts {
                let inst = &sh.insts[i];
                let Some(r) = inst.result else { continue };
                let u = inst_uniform(sh, &inst.op, &uniform);
                set(r, u, &mut uniform);
            }
        }
        if !changed {
            break;
        }
    }
    let mut voted = EntitySet::new();
    for &b in &sh.layout {
        if !plan.is_spine(b) {
            continue;
        }
        let Some(&last) = sh.blocks[b].insts.last() else {
            continue;
        };
        let inst = &sh.insts[last];
        match &inst.op {
            Op::Branch { cond, .. } if !uniform.contains(*cond) => {
                voted.insert(b);
            }
            Op::Switch { selector, .. } if !uniform.contains(*selector) => {
                voted.insert(b);
            }
            _ => {}
        }
    }
    Ok(voted)
}

fn inst_uniform(sh: &Shader, op: &Op, uniform: &EntitySet<Value>) -> bool {
    let all_args = || {
        let mut all = true;
        op.for_each_arg(|a| all &= uniform.contains(a));
        all
    };
    match op {
        Op::Const(_) | Op::Undef => true,
        Op::VarAddr(g) => {
            let var = &sh.globals[*g];
            match var.class {
                StorageClass::Input => var.builtin.is_some_and(uniform_builtin),
                StorageClass::TaskPayload => sh.stage == Stage::Mesh,
                _ => false,
            }
        }
        Op::AccessChain { .. }
        | Op::Load { .. }
        | Op::Unary(..)
        | Op::Binary(..)
        | Op::Cmp(..)
        | Op::Convert(..)
        | Op::Select { .. }
        | Op::CompositeConstruct(_)
        | Op::CompositeExtract { .. }
        | Op::CompositeInsert { .. }
        | Op::VectorShuffle { .. }
        | Op::ExtractDynamic { .. }
        | Op::InsertDynamic { .. }
        | Op::CopyLogical(_)
        | Op::Math(..) => all_args(),
        _ => false,
    }
}
