//! The test shaders translate into the IR they should.

use crate::common;

use common::*;
use spvsass_frontend::ir::{
    BinaryOp, BuiltIn, Merge, MeshInfo, MeshTopology, Op, Stage, StorageClass, Type, UnaryOp,
};

const POINT: &str = "tests/shaders/point.mesh.spv";
const TRIANGLE: &str = "tests/shaders/triangle.mesh.spv";
const LOOP: &str = "frontend/tests/data/loop.comp.spv";
const TASK: &str = "frontend/tests/data/payload.task.spv";

#[test]
fn point_mesh_stage_and_modes() {
    let shader = shader_of(POINT);
    assert_eq!(shader.stage, Stage::Mesh);
    assert_eq!(shader.entry_name, "main");
    assert_eq!(shader.workgroup_size, [1, 1, 1]);
    assert_eq!(
        shader.mesh,
        Some(MeshInfo {
            topology: MeshTopology::Points,
            max_vertices: 1,
            max_primitives: 1
        })
    );
}

#[test]
fn point_mesh_sets_outputs_to_one_and_one() {
    let shader = shader_of(POINT);
    let counts: Vec<_> = ops(&shader)
        .into_iter()
        .filter_map(|op| match op {
            Op::SetMeshOutputs {
                vertex_count,
                primitive_count,
            } => Some((
                shader.const_value(*vertex_count),
                shader.const_value(*primitive_count),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(counts, [(Some(1), Some(1))]);
}

#[test]
fn point_mesh_stores_point_size_position_and_index() {
    let shader = shader_of(POINT);
    let stores = stores(&shader);
    let builtins: Vec<_> = stores.iter().map(|&(_, _, b)| b).collect();
    assert_eq!(
        builtins,
        [
            Some(BuiltIn::PointSize),
            Some(BuiltIn::Position),
            Some(BuiltIn::PrimitivePointIndices)
        ]
    );
    for &(_, gv, _) in &stores {
        assert_eq!(shader.globals[gv].class, StorageClass::Output);
    }
    // gl_PointSize = 200.0
    assert_eq!(
        shader.const_value(stores[0].0),
        Some(u64::from(200.0f32.to_bits()))
    );
    // gl_Position = vec4(0, 0, 0, 1): a construct of scalar constants.
    let Some(Op::CompositeConstruct(parts)) = shader.def_inst(stores[1].0).map(|d| &d.op) else {
        panic!("the position is not a constant composite");
    };
    let parts: Vec<_> = parts.iter().map(|&p| shader.const_value(p)).collect();
    let [zero, one] = [0.0f32, 1.0].map(|f| Some(u64::from(f.to_bits())));
    assert_eq!(parts, [zero, zero, zero, one]);
}

#[test]
fn point_mesh_is_one_block() {
    let shader = shader_of(POINT);
    assert_eq!(shader.layout.len(), 1);
    assert_eq!(shader.terminator(shader.entry_block()), Some(&Op::Return));
}

#[test]
fn triangle_mesh_stage_and_modes() {
    let shader = shader_of(TRIANGLE);
    assert_eq!(shader.stage, Stage::Mesh);
    assert_eq!(shader.workgroup_size, [32, 1, 1]);
    assert_eq!(
        shader.mesh,
        Some(MeshInfo {
            topology: MeshTopology::Triangles,
            max_vertices: 3,
            max_primitives: 1
        })
    );
}

#[test]
fn triangle_mesh_reads_local_invocation_index() {
    let shader = shader_of(TRIANGLE);
    let gv = global_with_builtin(&shader, BuiltIn::LocalInvocationIndex)
        .expect("a LocalInvocationIndex global");
    assert_eq!(shader.globals[gv].class, StorageClass::Input);
    assert_eq!(
        shader.globals[gv].name.as_deref(),
        Some("gl_LocalInvocationIndex")
    );
    let loads_it = ops(&shader).into_iter().any(|op| match op {
        Op::Load { ptr } => pointer_target(&shader, *ptr).0 == gv,
        _ => false,
    });
    assert!(loads_it);
}

#[test]
fn triangle_mesh_promotes_local_variables() {
    let shader = shader_of(TRIANGLE);
    assert_eq!(
        function_globals(&shader),
        0,
        "i, x and y must all be promoted"
    );
    for op in ops(&shader) {
        if let Op::Load { ptr } | Op::Store { ptr, .. } = op {
            let Type::Pointer { class, .. } = shader.value_type(*ptr) else {
                panic!("{ptr} is not a pointer");
            };
            assert_ne!(*class, StorageClass::Function);
        }
    }
}

#[test]
fn triangle_mesh_branches_from_the_entry_block() {
    let shader = shader_of(TRIANGLE);
    let entry = shader.entry_block();
    assert!(matches!(shader.terminator(entry), Some(Op::Branch { .. })));
    assert!(matches!(
        shader.blocks[entry].merge,
        Some(Merge::Selection { .. })
    ));
}

#[test]
fn triangle_mesh_stores_position_colour_and_indices() {
    let shader = shader_of(TRIANGLE);
    let stores = stores(&shader);
    assert_eq!(stores.len(), 3);
    assert_eq!(stores[0].2, Some(BuiltIn::Position));
    let colour = &shader.globals[stores[1].1];
    assert_eq!((colour.location, colour.builtin), (Some(0), None));
    assert_eq!(colour.name.as_deref(), Some("colour"));
    assert_eq!(stores[2].2, Some(BuiltIn::PrimitiveTriangleIndices));
    for &(_, gv, _) in &stores {
        assert_eq!(shader.globals[gv].class, StorageClass::Output);
    }
}

#[test]
fn triangle_mesh_records_spirv_ids() {
    let shader = shader_of(TRIANGLE);
    for inst in insts(&shader) {
        assert!(
            shader.insts[inst].spirv_id.is_some(),
            "{inst} has no SPIR-V id"
        );
    }
}

#[test]
fn loop_translates_with_parameters_on_the_header() {
    let shader = shader_of(LOOP);
    assert_eq!(shader.stage, Stage::Compute);
    assert_eq!(shader.workgroup_size, [64, 1, 1]);
    assert_eq!(shader.mesh, None);
    assert_eq!(
        function_globals(&shader),
        0,
        "n, acc and k must all be promoted"
    );

    let headers: Vec<_> = shader
        .layout
        .iter()
        .filter(|&&b| matches!(shader.blocks[b].merge, Some(Merge::Loop { .. })))
        .collect();
    let [&header] = headers[..] else {
        panic!("one loop header expected, got {headers:?}")
    };
    // The counter k and the accumulator acc; n is loop-invariant.
    assert_eq!(shader.blocks[header].params.len(), 2, "{shader}");

    // The if/else merge joins the two values of acc.
    let joins = shader
        .layout
        .iter()
        .filter(|&&b| b != header && !shader.blocks[b].params.is_empty())
        .count();
    assert_eq!(joins, 1, "{shader}");
}

#[test]
fn loop_stores_the_accumulator_to_the_buffer() {
    let shader = shader_of(LOOP);
    let stores = stores(&shader);
    let [(value, gv, _)] = stores[..] else {
        panic!("one store expected: {shader}")
    };
    let buffer = &shader.globals[gv];
    assert_eq!(buffer.class, StorageClass::StorageBuffer);
    assert_eq!((buffer.descriptor_set, buffer.binding), (Some(0), Some(0)));
    assert!(matches!(
        shader.types[buffer.ty],
        Type::Struct { block: true, .. }
    ));
    // After the loop acc is the header's parameter (the exit edge leaves
    // from the header's region).
    assert!(is_param(&shader, value), "{shader}");
}

#[test]
fn task_shader_emits_mesh_tasks_with_its_payload() {
    let shader = shader_of(TASK);
    assert_eq!(shader.stage, Stage::Task);
    assert_eq!(shader.workgroup_size, [32, 1, 1]);
    assert_eq!(shader.mesh, None);
    let payloads: Vec<_> = shader
        .globals
        .values()
        .filter(|g| g.class == StorageClass::TaskPayload)
        .collect();
    let [payload] = payloads[..] else {
        panic!("one payload expected: {shader}")
    };
    assert_eq!(payload.name.as_deref(), Some("payload"));

    let last = *shader.layout.last().unwrap();
    let Some(Op::EmitMeshTasks { x, y, z }) = shader.terminator(last) else {
        panic!("the last block must emit mesh tasks: {shader}");
    };
    assert_eq!(
        (shader.const_value(*y), shader.const_value(*z)),
        (Some(1), Some(1))
    );
    assert!(matches!(
        shader.def_inst(*x).map(|d| &d.op),
        Some(Op::Binary(BinaryOp::UMax, ..))
    ));
}

#[test]
fn task_shader_math_and_barrier() {
    let shader = shader_of(TASK);
    let ops = ops(&shader);
    assert!(
        ops.iter()
            .any(|op| matches!(op, Op::Unary(UnaryOp::FSqrt, _)))
    );
    assert!(ops.iter().any(|op| matches!(op, Op::ControlBarrier)));
    // vec2 * float: the float is splatted, then multiplied component-wise.
    let splat_mul = ops.iter().any(|op| match op {
        Op::Binary(BinaryOp::FMul, _, b) => matches!(
            shader.def_inst(*b).map(|d| &d.op),
            Some(Op::CompositeConstruct(parts)) if parts.len() == 2 && parts[0] == parts[1]
        ),
        _ => false,
    });
    assert!(splat_mul, "{shader}");
}
