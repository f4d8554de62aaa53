//! The analyses and lowerings that instruction selection relies on, on the
//! test shaders (tests/shaders): divergence of branches and loops, uniform
//! values, the in-shader culling plan of a mesh shader, and the intrinsics
//! of statistics counting.

use crate::abi::query;
use crate::from_ir::places::resolve;
use crate::frontend::ir::{Block, Merge, Op, Shader};
use crate::frontend::ir::{BuiltIn, StorageClass};
use crate::frontend::{FrontendOptions, translate, words_from_bytes};
use crate::intrinsics::{Intrinsic, Intrinsics, Operand};
use crate::lower_cull::{CullPlan, CullRole, lower_cull, plan};
use crate::lower_statistics::lower_statistics;
use crate::uniformity::Divergence;

/// The IR of test shader `name` (tests/shaders/NAME.spv).
fn shader(name: &str) -> Shader {
    let path = format!("{}/../tests/shaders/{name}.spv", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let words = words_from_bytes(&bytes).expect("test shader is SPIR-V");
    translate(&words, &FrontendOptions::default()).expect("translates")
}

fn loop_headers(sh: &Shader) -> Vec<Block> {
    sh.layout
        .iter()
        .copied()
        .filter(|&b| matches!(sh.blocks[b].merge, Some(Merge::Loop { .. })))
        .collect()
}

#[test]
fn divergence_analysis_keeps_loop_counters_of_uniform_loops_uniform() {
    let sh = shader("c_uniform_branch.comp");
    let d = Divergence::analyse(&sh);
    assert!(sh.layout.iter().all(|&b| !d.divergent_branch(b)));
    let headers = loop_headers(&sh);
    assert_eq!(headers.len(), 1);
    assert!(!d.divergent_loop(headers[0]));
    // The counter `i` is a parameter of the loop header, fed 0 and i + 1:
    // uniform. The running value `v` (loaded per invocation) is not.
    let params = &sh.blocks[headers[0]].params;
    assert_eq!(
        params.iter().filter(|&&p| d.is_uniform(p)).count(),
        1,
        "{params:?}"
    );
}

#[test]
fn divergence_analysis_marks_a_loop_left_at_different_iterations() {
    let sh = shader("c_divergent_branch.comp");
    let d = Divergence::analyse(&sh);
    let headers = loop_headers(&sh);
    assert_eq!(headers.len(), 1);
    assert!(d.divergent_loop(headers[0]));
    // Invocations leave it at different iterations: its counter differs.
    assert!(
        sh.blocks[headers[0]]
            .params
            .iter()
            .all(|&p| !d.is_uniform(p))
    );
}

/// The uniformity analysis: the counter's address in s_compact.task is
/// uniform, the one indexed by invocation index / 32 in
/// s_compact_match.task is not (derived from the lane id).
#[test]
fn uniformity_of_atomic_addresses() {
    for (name, uniform) in [("s_compact.task", true), ("s_compact_match.task", false)] {
        let shader = shader(name);
        let d = Divergence::analyse(&shader);
        let ptrs: Vec<_> = shader
            .insts
            .values()
            .filter_map(|i| match &i.op {
                Op::Atomic { ptr, .. } => Some(*ptr),
                _ => None,
            })
            .collect();
        assert_eq!(ptrs.len(), 1, "{name}");
        assert_eq!(d.is_uniform(ptrs[0]), uniform, "{name}");
    }
}

fn plan_of(name: &str) -> CullPlan {
    let ir = shader(name);
    let attrs = [0x70, 0x74, 0x78, 0x7c];
    plan(&ir, &attrs).expect("cullable")
}

/// Own-vertex writes allow deferred attribute shading; a one-invocation
/// shader writing vertices at constant indices, or writes at computed
/// offsets, get the epilogue.
#[test]
fn plans() {
    assert_eq!(plan_of("dense_grid.mesh"), CullPlan::Deferred);
    assert_eq!(plan_of("triangle.mesh"), CullPlan::Deferred);
    assert_eq!(plan_of("ref_vec3_colour.mesh"), CullPlan::Epilogue);
    assert_eq!(plan_of("d_prims.mesh"), CullPlan::Epilogue);
}

/// A workgroup over 32 invocations takes the epilogue plan (part two
/// plays one invocation per lane).
#[test]
fn wide_workgroups_take_the_epilogue() {
    assert_eq!(plan_of("dense_grid_wide.mesh"), CullPlan::Epilogue);
}

/// The culling lowering of a deferred plan (triangle.mesh): part one
/// branches to the culling code at its OpReturn and skips the colour
/// store; part two skips SetMeshOutputsEXT, the position and index stores,
/// keeps the colour store and plays another invocation where the shader
/// loads its local invocation index.
#[test]
fn cull_lowering_roles_of_a_deferred_plan() {
    let sh = shader("triangle.mesh");
    assert!(lower_cull(&sh, false).expect("no culling").is_none());
    let lowering = lower_cull(&sh, true)
        .expect("cullable")
        .expect("compiled in");
    assert_eq!(lowering.plan, CullPlan::Deferred);
    let (mut returns, mut colours, mut others, mut indices) = (0, 0, 0, 0);
    for (id, inst) in sh.insts.iter() {
        let roles = (lowering.part_one[id], lowering.part_two[id]);
        match &inst.op {
            Op::Return => {
                returns += 1;
                assert_eq!(roles, (Some(CullRole::ToCulling), None));
            }
            Op::SetMeshOutputs { .. } => assert_eq!(roles, (None, Some(CullRole::Skip))),
            Op::Store { ptr, .. } => {
                let place = resolve(&sh, *ptr, inst.spirv_id).expect("resolves");
                let var = &sh.globals[place.var];
                assert_eq!(var.class, StorageClass::Output);
                // `colour` is the one output at a location.
                if var.location.is_some() {
                    colours += 1;
                    assert_eq!(roles, (Some(CullRole::Skip), None));
                } else {
                    others += 1;
                    assert_eq!(roles, (None, Some(CullRole::Skip)));
                }
            }
            Op::Load { ptr } => {
                let place = resolve(&sh, *ptr, inst.spirv_id).expect("resolves");
                if sh.globals[place.var].builtin == Some(BuiltIn::LocalInvocationIndex) {
                    indices += 1;
                    let played = CullRole::PlayedInvocation { id_vector: false };
                    assert_eq!(roles, (None, Some(played)));
                } else {
                    assert_eq!(roles, (None, None));
                }
            }
            _ => assert_eq!(roles, (None, None), "{:?}", inst.op),
        }
    }
    assert_eq!((returns, colours, others, indices), (1, 1, 2, 1));
}

/// An epilogue plan has no part two, and part one keeps every store.
#[test]
fn cull_lowering_roles_of_an_epilogue_plan() {
    let sh = shader("ref_vec3_colour.mesh");
    let lowering = lower_cull(&sh, true)
        .expect("cullable")
        .expect("compiled in");
    assert_eq!(lowering.plan, CullPlan::Epilogue);
    for (id, inst) in sh.insts.iter() {
        let expected = matches!(inst.op, Op::Return).then_some(CullRole::ToCulling);
        assert_eq!(lowering.part_one[id], expected, "{:?}", inst.op);
        assert_eq!(lowering.part_two[id], None);
    }
}

/// The statistics intrinsics of test shader `name`.
fn statistics(sh: &Shader) -> Intrinsics {
    let mut out = Intrinsics::default();
    lower_statistics(sh, &mut out);
    out
}

/// A mesh workgroup whose one SetMeshOutputsEXT is in its entry block adds
/// its invocation count and the primitive count right before it (one
/// guarded site); nothing else carries an intrinsic.
#[test]
fn statistics_lowering_counts_mesh_invocations_and_primitives_at_one_site() {
    let sh = shader("triangle.mesh");
    let out = statistics(&sh);
    assert!(out.prologue.is_empty());
    let mut set_outputs = 0;
    for (id, inst) in sh.insts.iter() {
        match inst.op {
            Op::SetMeshOutputs {
                primitive_count, ..
            } => {
                set_outputs += 1;
                assert_eq!(
                    out.before[id],
                    [
                        Intrinsic::AddToQuery {
                            offset: query::MESH_INVOCATIONS,
                            value: Operand::Const(sh.invocations()),
                        },
                        Intrinsic::AddToQuery {
                            offset: query::MESH_PRIMITIVES,
                            value: Operand::Value(primitive_count),
                        }
                    ]
                );
            }
            _ => assert!(out.before[id].is_empty(), "{:?}", inst.op),
        }
    }
    assert_eq!(set_outputs, 1);
}

/// A mesh shader with SetMeshOutputsEXT in the cases of a switch (none
/// of them runs for sure) counts its invocations in the prologue and each
/// primitive count before its own instruction.
#[test]
fn statistics_lowering_counts_mesh_invocations_in_the_prologue_without_one_sure_site() {
    let sh = shader("d_switch_outputs.mesh");
    let out = statistics(&sh);
    assert_eq!(
        out.prologue,
        [Intrinsic::AddToQuery {
            offset: query::MESH_INVOCATIONS,
            value: Operand::Const(sh.invocations()),
        }]
    );
    let mut set_outputs = 0;
    for (id, inst) in sh.insts.iter() {
        if let Op::SetMeshOutputs {
            primitive_count, ..
        } = inst.op
        {
            set_outputs += 1;
            assert_eq!(
                out.before[id],
                [Intrinsic::AddToQuery {
                    offset: query::MESH_PRIMITIVES,
                    value: Operand::Value(primitive_count),
                }]
            );
        }
    }
    assert_eq!(set_outputs, 3);
}

/// A task workgroup counts its invocations (all 32 of a workgroup of 32,
/// whatever lanes run), a compute shader nothing.
#[test]
fn statistics_lowering_counts_task_invocations_and_no_compute_ones() {
    let task = shader("d_payload.task");
    let out = statistics(&task);
    assert_eq!(
        out.prologue,
        [Intrinsic::AddToQuery {
            offset: query::TASK_INVOCATIONS,
            value: Operand::Const(task.invocations()),
        }]
    );
    assert!(task.insts.keys().all(|i| out.before[i].is_empty()));
    let compute = statistics(&shader("c_add_push.comp"));
    assert!(compute.prologue.is_empty());
    assert!(compute.before.values().all(Vec::is_empty));
}
