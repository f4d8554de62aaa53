//! Early returns of logical subgroups' decisions (`crate::logical_subgroups`:
//! a task or mesh workgroup of more than 32 invocations), made before
//! instruction selection, as culling's are (`lower_cull.rs`).
//!
//! Input: the shader (after `from_ir/var_ptrs.rs`) and its logical-subgroup
//! [`Plan`]. Output: a [`ReturnLowering`]: whether each copy keeps a
//! *returned* predicate at all, which copies' invocations may have returned
//! where a spine block or region starts, the values each region's copies
//! hand their merge (`region live-outs`), the spine cut into the pieces
//! selection emits ([`Piece`]: runs of instructions selected once per
//! copy, how returned invocations skip each run and which of its results
//! the block after it receives; boundaries and terminators selected once,
//! with what becomes of a boundary after a possible return), the returns
//! that become branches to their region copy's merge, and the constructs
//! such a return leaves past their merge (no convergence barrier).
//! Selection (`from_ir/subgroups.rs`, `from_ir/returns.rs`) maps each
//! decision to code and threads the returned predicates through block
//! parameters; it decides nothing of this itself.

use crate::error::{BackendError, spirv_opcode};
use crate::from_ir::places::comp_count;
use crate::logical_subgroups::{Plan, WARP_LANES, ends_shader, is_boundary};
use cranelift_entity::{EntitySet, SecondaryMap};
use spvsass_frontend::ir::{Block, Inst, Merge, Op, Shader, Value};

/// Which logical subgroups' invocations may have returned at a point of
/// the spine (each copy's returned predicate may be true there).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MayHaveReturned {
    /// None: no region returns, or nothing ran yet.
    #[default]
    Nobody,
    /// Only the last copy's lanes past a workgroup whose size is not a
    /// multiple of 32 (no invocations, returned from the start): the
    /// entry block of such a workgroup.
    LastCopy,
    /// Any copy's: every spine block after the entry, which takes each
    /// copy's returned predicate as a parameter.
    Any,
}

impl MayHaveReturned {
    /// Whether copy `c` of `copies` may have returned.
    pub fn copy(self, c: usize, copies: usize) -> bool {
        match self {
            MayHaveReturned::Nobody => false,
            MayHaveReturned::LastCopy => c + 1 == copies,
            MayHaveReturned::Any => true,
        }
    }
}

/// How a run of spine instructions is selected once per copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunForm {
    /// Each instruction for every copy in turn: no invocation may have
    /// returned here, or the run is memory barriers only (nothing on one
    /// warp).
    Interleaved,
    /// The whole run for one copy after the other; each copy that may have
    /// returned (`returned`) skips it with its returned predicate, and the
    /// block after it receives the run's results that instructions
    /// outside the run use (`live_after`, in run order).
    Guarded {
        returned: MayHaveReturned,
        live_after: Vec<Value>,
    },
}

/// Spine instructions between two instructions selected once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub insts: Vec<Inst>,
    pub form: RunForm,
}

/// What selection does with an instruction of the spine selected once for
/// the workgroup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Once {
    /// OpControlBarrier: nothing, every copy ran the code before it.
    Barrier,
    /// SetMeshOutputsEXT or EmitMeshTasksEXT, uniform: selected once.
    Uniform,
    /// EmitMeshTasksEXT (its counts `x`, `y`, `z`) after a return inside a
    /// region: lane 0 writes a zero count (every invocation may have
    /// returned), then each copy's invocations still running write the
    /// counts; the shader ends.
    MeshTasksAfterReturn([Value; 3]),
    /// SetMeshOutputsEXT after a return inside a region: refused with this
    /// error when selection reaches it (the API requires it in uniform
    /// control flow, and the count must come from one invocation).
    Refused(BackendError),
    /// The block's terminator.
    Terminator,
}

/// One piece of a spine block, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    Run(Run),
    Once(Inst, Once),
}

/// The early returns' decisions for one wide workgroup.
#[derive(Clone, Debug)]
pub struct ReturnLowering {
    /// Each copy keeps a returned predicate: some region returns (or ends
    /// in OpUnreachable), or the workgroup's size is not a multiple of 32.
    /// Without, selection threads nothing and every run is interleaved.
    pub tracked: bool,
    /// The workgroup's size modulo 32 when not 0: the last copy's lanes
    /// from there on are no invocations and start out returned.
    pub partial_lanes: Option<u32>,
    /// Per spine block and region header, which copies may have returned
    /// when it starts (a region copy's entry is skipped by those).
    pub returned: SecondaryMap<Block, MayHaveReturned>,
    /// Per region header when `tracked`: the values the region defines
    /// that code after it uses, which each copy's merge block takes as
    /// parameters (the edges skipping a copy do not pass through their
    /// definitions). A pointer counts as used where it is, so its
    /// operands are live out instead.
    pub live_out: SecondaryMap<Block, Option<Vec<Value>>>,
    /// Per spine block, its pieces; per selection region header, those of
    /// its instructions before the branch (the rest of it is the region's).
    pub pieces: SecondaryMap<Block, Vec<Piece>>,
    /// OpReturn and OpUnreachable inside regions (when `tracked`): a branch
    /// to the region copy's merge with the copy's returned predicate true.
    /// One in the spine is uniform and stays an EXIT.
    pub to_merge: EntitySet<Inst>,
    /// Headers of constructs inside a region (not the region's own) that
    /// such a return leaves past their merge: they get no convergence
    /// barrier (`from_ir/control.rs`), as for a `break`.
    pub returns_past: EntitySet<Block>,
}

/// The early returns' decisions for `sh`, split as `plan` says.
pub(crate) fn lower_returns(sh: &Shader, plan: &Plan) -> ReturnLowering {
    let rest = sh.invocations() % WARP_LANES;
    let tracked = plan.returns || rest != 0;
    let partial_lanes = (rest != 0).then_some(rest);
    let entry = sh.entry_block();
    let mut lowering = ReturnLowering {
        tracked,
        partial_lanes,
        returned: SecondaryMap::with_capacity(sh.blocks.len()),
        live_out: SecondaryMap::with_capacity(sh.blocks.len()),
        pieces: SecondaryMap::with_capacity(sh.blocks.len()),
        to_merge: EntitySet::new(),
        returns_past: returns_past(sh, plan),
    };
    let mut counts = tracked.then(|| UseCounts::new(sh));
    // A return inside a region before (in selection order, which is the
    // layout's) the spine point being cut.
    let mut returned_before = false;
    for &b in &sh.layout {
        let state = match (tracked, b == entry, partial_lanes) {
            (false, _, _) | (true, true, None) => MayHaveReturned::Nobody,
            (true, true, Some(_)) => MayHaveReturned::LastCopy,
            (true, false, _) => MayHaveReturned::Any,
        };
        let insts = &sh.blocks[b].insts;
        let mut cut = |body: &[Inst]| pieces(sh, body, state, returned_before, counts.as_mut());
        match (plan.region_of[b], plan.regions[b]) {
            (None, _) => {
                lowering.returned[b] = state;
                lowering.pieces[b] = cut(insts);
            }
            (Some(h), Some(_)) if h == b => {
                lowering.returned[b] = state;
                if plan.selections.contains(b) {
                    lowering.pieces[b] = cut(&insts[..insts.len().saturating_sub(1)]);
                }
                if tracked {
                    lowering.live_out[b] = Some(region_live_out(sh, b, plan));
                }
            }
            (Some(_), _) => {}
        }
        if plan.region_of[b].is_some() && ends_shader(sh, b) && tracked {
            returned_before = true;
            if let Some(&last) = sh.blocks[b].insts.last() {
                lowering.to_merge.insert(last);
            }
        }
    }
    lowering
}

/// How many times each value is an operand: over the whole shader
/// (`all`), and scratch counts for one run (`run`, all 0 between runs).
struct UseCounts {
    all: SecondaryMap<Value, u32>,
    run: SecondaryMap<Value, u32>,
}

impl UseCounts {
    fn new(sh: &Shader) -> UseCounts {
        let mut all = SecondaryMap::with_capacity(sh.values.len());
        for (_, inst) in sh.insts.iter() {
            inst.op.for_each_arg(|a| all[a] += 1);
        }
        UseCounts {
            all,
            run: SecondaryMap::with_capacity(sh.values.len()),
        }
    }
}

/// The pieces of `body`, spine instructions of one block where `state`
/// says which copies may have returned; `returned_before`: a return
/// inside a region comes before them.
fn pieces(
    sh: &Shader,
    body: &[Inst],
    state: MayHaveReturned,
    returned_before: bool,
    mut counts: Option<&mut UseCounts>,
) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut run: Vec<Inst> = Vec::new();
    let mut end_run = |run: Vec<Inst>, out: &mut Vec<Piece>| {
        if run.is_empty() {
            return;
        }
        let barriers_only = run
            .iter()
            .all(|&i| matches!(sh.insts[i].op, Op::MemoryBarrier | Op::ControlBarrier));
        let form = match (state, counts.as_deref_mut()) {
            (MayHaveReturned::Nobody, _) | (_, None) => RunForm::Interleaved,
            _ if barriers_only => RunForm::Interleaved,
            (returned, Some(counts)) => RunForm::Guarded {
                returned,
                live_after: live_after(sh, &run, counts),
            },
        };
        out.push(Piece::Run(Run { insts: run, form }));
    };
    for &i in body {
        let inst = &sh.insts[i];
        let once = match &inst.op {
            Op::ControlBarrier => Once::Barrier,
            op @ (Op::SetMeshOutputs { .. } | Op::EmitMeshTasks { .. })
                if returned_before && state != MayHaveReturned::Nobody =>
            {
                match *op {
                    Op::EmitMeshTasks { x, y, z } => Once::MeshTasksAfterReturn([x, y, z]),
                    _ => Once::Refused(BackendError::Unsupported {
                        what: "SetMeshOutputsEXT after a return of some invocations of a \
                               workgroup over 32 invocations (the API requires it in uniform \
                               control flow)"
                            .into(),
                        opcode: spirv_opcode(op),
                        spirv_id: inst.spirv_id,
                    }),
                }
            }
            op if is_boundary(op) => Once::Uniform,
            Op::Return | Op::Unreachable | Op::Jump(_) | Op::Branch { .. } | Op::Switch { .. } => {
                Once::Terminator
            }
            _ => {
                run.push(i);
                continue;
            }
        };
        end_run(std::mem::take(&mut run), &mut out);
        out.push(Piece::Once(i, once));
    }
    end_run(run, &mut out);
    out
}

/// The results of `run` that instructions outside it use, in run order
/// (`counts.run` counts the run's own uses and is left all 0 again: a
/// value is used outside when the shader uses it more). Access chains are
/// selected where they are used, from their operands: a chain of the run
/// used after it keeps its operands (indices computed in the run) alive
/// too; in reverse, so chains of chains pass it on.
fn live_after(sh: &Shader, run: &[Inst], counts: &mut UseCounts) -> Vec<Value> {
    let UseCounts {
        all: uses,
        run: inner,
    } = counts;
    for &i in run {
        sh.insts[i].op.for_each_arg(|a| inner[a] += 1);
    }
    let mut kept: EntitySet<Value> = EntitySet::new();
    let used_after = |v: Value, inner: &SecondaryMap<Value, u32>, kept: &EntitySet<Value>| {
        uses[v] > inner[v] || kept.contains(v)
    };
    for inst in run.iter().rev().map(|&i| &sh.insts[i]) {
        if inst.result.is_some_and(|v| used_after(v, inner, &kept))
            && matches!(inst.op, Op::AccessChain { .. } | Op::PtrAccessChain { .. })
        {
            inst.op.for_each_arg(|a| {
                kept.insert(a);
            });
        }
    }
    let live = run
        .iter()
        .filter_map(|&i| sh.insts[i].result)
        .filter(|&v| used_after(v, inner, &kept))
        .collect();
    for &i in run {
        sh.insts[i].op.for_each_arg(|a| inner[a] = 0);
    }
    live
}

/// Values the region of `header` defines that code after it uses: in the
/// IR the blocks defining them dominate the merge, but the edges that skip
/// a region copy do not pass through them. A pointer's operands count as
/// used where the pointer is. Sorted.
fn region_live_out(sh: &Shader, header: Block, plan: &Plan) -> Vec<Value> {
    let inside = |b: Block| plan.region_of[b] == Some(header);
    let selection = plan.selections.contains(header);
    let mut defined: SecondaryMap<Value, Option<Inst>> = SecondaryMap::new();
    let mut params = EntitySet::new();
    for &b in sh.layout.iter().filter(|&&b| inside(b)) {
        if selection && b == header {
            continue;
        }
        params.extend(sh.blocks[b].params.iter().copied());
        for &i in &sh.blocks[b].insts {
            if let Some(r) = sh.insts[i].result {
                defined[r] = Some(i);
            }
        }
    }
    let mut used = Vec::new();
    for &b in sh.layout.iter().filter(|&&b| !inside(b)) {
        for &i in &sh.blocks[b].insts {
            sh.insts[i].op.for_each_arg(|a| used.push(a));
        }
    }
    let mut live: Vec<Value> = Vec::new();
    let mut seen = EntitySet::with_capacity(sh.values.len());
    while let Some(v) = used.pop() {
        if !seen.insert(v) {
            continue;
        }
        if params.contains(v) {
            live.push(v);
        } else if let Some(i) = defined[v] {
            if comp_count(sh, sh.values[v].ty).is_some() {
                live.push(v);
            } else {
                sh.insts[i].op.for_each_arg(|a| used.push(a));
            }
        }
    }
    live.sort();
    live
}

/// Headers of constructs inside a region, other than the region's own,
/// whose layout range holds a block that ends the invocation.
fn returns_past(sh: &Shader, plan: &Plan) -> EntitySet<Block> {
    let mut position: SecondaryMap<Block, usize> = SecondaryMap::with_capacity(sh.blocks.len());
    for (i, &b) in sh.layout.iter().enumerate() {
        position[b] = i;
    }
    let mut past = EntitySet::new();
    for &h in &sh.layout {
        let merge = match sh.blocks[h].merge {
            Some(Merge::Selection { merge } | Merge::Loop { merge, .. }) => merge,
            None => continue,
        };
        if plan.region_of[h].is_some_and(|r| r != h)
            && sh.layout[position[h]..position[merge].max(position[h])]
                .iter()
                .any(|&x| ends_shader(sh, x))
        {
            past.insert(h);
        }
    }
    past
}
