//! The early returns' decisions of wide task and mesh workgroups
//! (`lower_returns.rs`) on test shaders: which copies may have returned
//! where, how each run of spine instructions is selected and which of its
//! results the block after it receives, what becomes of the boundaries and
//! of the returns inside regions, each region's live-out values, and which
//! constructs a return leaves past their merge.

use crate::compile::{BackendOptions, compile, lower};
use crate::error::BackendError;
use crate::frontend::ir::{Block, Inst, Merge, Op, Shader};
use crate::frontend::{FrontendOptions, translate, words_from_bytes};
use crate::logical_subgroups::{Plan, ends_shader, plan};
use crate::lower_returns::{
    MayHaveReturned, Once, Piece, ReturnLowering, Run, RunForm, lower_returns,
};

/// The IR of test shader `name` (tests/shaders/NAME.spv).
fn shader(name: &str) -> Shader {
    let path = format!("{}/../tests/shaders/{name}.spv", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let words = words_from_bytes(&bytes).expect("test shader is SPIR-V");
    translate(&words, &FrontendOptions::default()).expect("translates")
}

/// The plan of a wide workgroup and its return lowering.
fn lowered(sh: &Shader) -> (Plan, ReturnLowering) {
    let plan = plan(sh).expect("plans").expect("a wide workgroup");
    let returns = lower_returns(sh, &plan);
    (plan, returns)
}

/// Every spine piece, in layout order.
fn all_pieces<'l>(sh: &Shader, l: &'l ReturnLowering) -> Vec<&'l Piece> {
    sh.layout.iter().flat_map(|&b| &l.pieces[b]).collect()
}

/// The role of the one spine instruction selected once whose op `is`.
fn once_of(sh: &Shader, l: &ReturnLowering, is: fn(&Op) -> bool) -> (Inst, Once) {
    let found: Vec<(Inst, Once)> = all_pieces(sh, l)
        .into_iter()
        .filter_map(|p| match p {
            Piece::Once(i, once) if is(&sh.insts[*i].op) => Some((*i, once.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(found.len(), 1, "one such instruction in the spine");
    found[0].clone()
}

/// The one spine run holding an instruction whose op `is`.
fn run_with<'l>(sh: &Shader, l: &'l ReturnLowering, is: fn(&Op) -> bool) -> &'l Run {
    let runs: Vec<&Run> = all_pieces(sh, l)
        .into_iter()
        .filter_map(|p| match p {
            Piece::Run(r) if r.insts.iter().any(|&i| is(&sh.insts[i].op)) => Some(r),
            _ => None,
        })
        .collect();
    assert_eq!(runs.len(), 1, "one run holds such an instruction");
    runs[0]
}

/// The results of `run` that some instruction outside it uses, in run
/// order (the run holds no access chain used after it).
fn used_outside(sh: &Shader, run: &Run) -> Vec<crate::frontend::ir::Value> {
    let mut outside = Vec::new();
    for (id, inst) in sh.insts.iter() {
        if !run.insts.contains(&id) {
            inst.op.for_each_arg(|a| outside.push(a));
        }
    }
    run.insts
        .iter()
        .filter_map(|&i| sh.insts[i].result)
        .filter(|v| outside.contains(v))
        .collect()
}

/// The blocks ending in OpReturn and the region, if any, of each.
fn return_blocks(sh: &Shader, plan: &Plan) -> Vec<(Block, Option<Block>)> {
    sh.layout
        .iter()
        .filter(|&&b| ends_shader(sh, b))
        .map(|&b| (b, plan.region_of[b]))
        .collect()
}

/// w_return.task (64 invocations): a return in a region before the barrier
/// and one after it. The copies keep returned predicates; nothing has
/// returned in the entry block, anything may have in every later spine
/// block and region; both returns branch to their merge; the runs of the entry block are
/// interleaved, those after it guarded (the second region's condition
/// handed on to its branch); the barrier selects to nothing and
/// EmitMeshTasksEXT takes the after-return form with its own counts.
#[test]
fn returns_before_and_after_a_barrier_of_a_task_workgroup() {
    let sh = shader("w_return.task");
    let (plan, l) = lowered(&sh);
    assert!(l.tracked);
    assert_eq!(l.partial_lanes, None);
    let entry = sh.entry_block();
    for &b in &sh.layout {
        let starts = plan.region_of[b].is_none() || plan.regions[b].is_some();
        let expected = match (starts, b == entry) {
            (false, _) => MayHaveReturned::Nobody,
            (true, true) => MayHaveReturned::Nobody,
            (true, false) => MayHaveReturned::Any,
        };
        assert_eq!(l.returned[b], expected, "block {b}");
    }
    // The shader ends in EmitMeshTasksEXT (a terminator): both of its
    // returns are inside regions.
    let returns = return_blocks(&sh, &plan);
    assert_eq!(returns.len(), 2);
    for (b, region) in returns {
        assert!(region.is_some(), "block {b}");
        let ret = *sh.blocks[b].insts.last().expect("a terminator");
        assert!(l.to_merge.contains(ret), "block {b}");
    }
    assert_eq!(l.to_merge.iter().count(), 2);
    for piece in &l.pieces[entry] {
        if let Piece::Run(run) = piece {
            assert_eq!(run.form, RunForm::Interleaved);
        }
    }
    let header = sh
        .layout
        .iter()
        .copied()
        .filter(|&b| plan.regions[b].is_some())
        .nth(1)
        .expect("a second region");
    let Some(Op::Branch { cond, .. }) = sh.terminator(header) else {
        panic!("the second region's header branches");
    };
    match l.pieces[header].as_slice() {
        [
            Piece::Once(_, Once::Barrier),
            Piece::Run(Run {
                form:
                    RunForm::Guarded {
                        returned: MayHaveReturned::Any,
                        live_after,
                    },
                ..
            }),
        ] => assert_eq!(live_after, &vec![*cond]),
        other => panic!("the second region's header: {other:?}"),
    }
    let store = run_with(&sh, &l, |op| matches!(op, Op::Store { .. }));
    let RunForm::Guarded {
        returned: MayHaveReturned::Any,
        live_after,
    } = &store.form
    else {
        panic!("the last store's run is guarded: {:?}", store.form);
    };
    assert_eq!(live_after, &used_outside(&sh, store));
    let (emit, role) = once_of(&sh, &l, |op| matches!(op, Op::EmitMeshTasks { .. }));
    let Op::EmitMeshTasks { x, y, z } = sh.insts[emit].op else {
        unreachable!("found as EmitMeshTasksEXT")
    };
    assert_eq!(role, Once::MeshTasksAfterReturn([x, y, z]));
    assert!(l.returns_past.is_empty());
}

/// w_partial48.task (48 invocations, no return): the second copy's lanes
/// 16..31 start out returned, so the copies keep returned predicates; in
/// the entry block (the only one) only the last copy may have returned,
/// so its run is guarded for that copy alone and hands on what
/// EmitMeshTasksEXT reads (a constant count); EmitMeshTasksEXT, after no
/// return, is uniform.
#[test]
fn lanes_past_a_partial_workgroup_start_out_returned() {
    let sh = shader("w_partial48.task");
    let (plan, l) = lowered(&sh);
    assert!(!plan.returns);
    assert!(l.tracked);
    assert_eq!(l.partial_lanes, Some(16));
    let entry = sh.entry_block();
    assert_eq!(l.returned[entry], MayHaveReturned::LastCopy);
    assert!(!MayHaveReturned::LastCopy.copy(0, 2) && MayHaveReturned::LastCopy.copy(1, 2));
    assert!(l.to_merge.is_empty());
    match l.pieces[entry].as_slice() {
        // EmitMeshTasksEXT ends the block.
        [Piece::Run(run), Piece::Once(_, Once::Uniform)] => match &run.form {
            RunForm::Guarded {
                returned: MayHaveReturned::LastCopy,
                live_after,
            } => {
                assert!(!live_after.is_empty());
                assert_eq!(live_after, &used_outside(&sh, run));
            }
            other => panic!("the entry's run: {other:?}"),
        },
        other => panic!("the entry block's pieces: {other:?}"),
    }
}

/// w_return_late.mesh (96 invocations): a region that only returns, then
/// a ballot in the spine, then a loop region returning from inside an
/// `if`. The first region hands its merge nothing, the loop region its
/// accumulator (a parameter of the loop header); the ballot's run is
/// guarded and hands on exactly its results used after it; the `if`
/// around the inner return (inside the loop region) is left past its
/// merge, the loop region's own header is not; SetMeshOutputsEXT, before
/// any return, is uniform.
#[test]
fn live_outs_and_constructs_left_past_their_merge() {
    let sh = shader("w_return_late.mesh");
    let (plan, l) = lowered(&sh);
    assert!(l.tracked && l.partial_lanes.is_none());
    let regions: Vec<Block> = sh
        .layout
        .iter()
        .copied()
        .filter(|&b| plan.regions[b].is_some())
        .collect();
    let [first, looped] = regions[..] else {
        panic!("two regions: {regions:?}");
    };
    assert_eq!(l.live_out[first].as_deref(), Some(&[][..]));
    assert!(matches!(sh.blocks[looped].merge, Some(Merge::Loop { .. })));
    let live = l.live_out[looped].as_ref().expect("tracked");
    assert!(
        live.iter().any(|v| sh.blocks[looped].params.contains(v)),
        "the accumulator: {live:?}"
    );
    let ballot = run_with(&sh, &l, |op| matches!(op, Op::Subgroup(..)));
    let RunForm::Guarded {
        returned: MayHaveReturned::Any,
        live_after,
    } = &ballot.form
    else {
        panic!("the ballot's run is guarded: {:?}", ballot.form);
    };
    assert!(!live_after.is_empty());
    assert_eq!(live_after, &used_outside(&sh, ballot));
    // The inner return's block and the selection header branching to it.
    let inner: Vec<Block> = return_blocks(&sh, &plan)
        .into_iter()
        .filter(|&(_, r)| r == Some(looped))
        .map(|(b, _)| b)
        .collect();
    let [ret] = inner[..] else {
        panic!("one return inside the loop: {inner:?}");
    };
    let branching: Vec<Block> = sh
        .layout
        .iter()
        .copied()
        .filter(|&b| sh.successors(b).contains(&ret))
        .collect();
    assert!(!l.returns_past.contains(looped));
    assert!(!branching.is_empty());
    for b in branching {
        assert!(l.returns_past.contains(b), "header {b} of the inner return");
    }
    for h in l.returns_past.iter() {
        assert_eq!(plan.region_of[h], Some(looped), "construct {h}");
    }
    let (_, role) = once_of(&sh, &l, |op| matches!(op, Op::SetMeshOutputs { .. }));
    assert_eq!(role, Once::Uniform);
}

/// w_return_in_branch.mesh with its SetMeshOutputsEXT moved after the
/// region that returns: the lowering refuses it with an error naming
/// OpSetMeshOutputsEXT and the instruction's id, and the compile reports
/// that error. Where the shader has it, before the return, it is uniform,
/// and the spine after the region is guarded.
#[test]
fn set_mesh_outputs_after_a_return_is_refused() {
    let mut sh = shader("w_return_in_branch.mesh");
    let (plan, l) = lowered(&sh);
    let (set, role) = once_of(&sh, &l, |op| matches!(op, Op::SetMeshOutputs { .. }));
    assert_eq!(role, Once::Uniform);
    let header = sh
        .layout
        .iter()
        .copied()
        .find(|&b| plan.regions[b].is_some())
        .expect("the region of the return");
    let merge = plan.regions[header].expect("a region header");
    assert!(l.pieces[merge].iter().all(|p| match p {
        Piece::Run(run) => matches!(
            run.form,
            RunForm::Guarded {
                returned: MayHaveReturned::Any,
                ..
            }
        ),
        Piece::Once(..) => true,
    }));
    for &b in &sh.layout.clone() {
        sh.blocks[b].insts.retain(|&i| i != set);
    }
    sh.blocks[merge].insts.insert(0, set);
    let (_, l) = lowered(&sh);
    let (_, role) = once_of(&sh, &l, |op| matches!(op, Op::SetMeshOutputs { .. }));
    let expected = BackendError::Unsupported {
        what: "SetMeshOutputsEXT after a return of some invocations of a workgroup over 32 \
               invocations (the API requires it in uniform control flow)"
            .into(),
        opcode: "OpSetMeshOutputsEXT".into(),
        spirv_id: sh.insts[set].spirv_id,
    };
    assert!(sh.insts[set].spirv_id.is_some());
    assert_eq!(role, Once::Refused(expected.clone()));
    let err = compile(&sh, &BackendOptions::default()).expect_err("refused");
    assert_eq!(err, expected);
}

/// w_loop.mesh (64 invocations, no return): the copies keep no returned
/// predicates; every run is interleaved, no region hands on live-outs and
/// no return or construct is marked. A workgroup of one warp has no plan
/// and no lowering.
#[test]
fn nothing_is_tracked_without_returns() {
    let sh = shader("w_loop.mesh");
    let (_, l) = lowered(&sh);
    assert!(!l.tracked && l.partial_lanes.is_none());
    for &b in &sh.layout {
        assert_eq!(l.returned[b], MayHaveReturned::Nobody);
        assert!(l.live_out[b].is_none());
    }
    for piece in all_pieces(&sh, &l) {
        if let Piece::Run(run) = piece {
            assert_eq!(run.form, RunForm::Interleaved);
        }
    }
    assert!(l.to_merge.is_empty() && l.returns_past.is_empty());
    let narrow = shader("triangle.mesh");
    let lowered = lower(&narrow, true, false).expect("lowers");
    assert!(lowered.wide.expect("no refusal").is_none());
}
