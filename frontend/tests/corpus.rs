//! One test per corpus shader (tests/shaders/): it loads, translates and
//! validates, has the stage it should, and its IR holds what the shader is
//! about (its key operation or interface). A last test checks that the
//! list below and the directory agree.

use crate::common;

use common::*;
use spvsass_frontend::ir::{
    AtomicOp, BinaryOp, BuiltIn, ConvOp, GroupOperation, MathOp, Merge, MeshTopology, Op, ReduceOp,
    Scalar, Shader, Stage, StorageClass, SubgroupOp, Type, UnaryOp,
};
use spvsass_frontend::{FrontendOptions, translate, validate};

/// Whether any instruction's op satisfies `f`.
fn has(shader: &Shader, f: impl Fn(&Op) -> bool) -> bool {
    ops(shader).into_iter().any(f)
}

fn has_builtin(shader: &Shader, b: BuiltIn) -> bool {
    global_with_builtin(shader, b).is_some()
        || shader.types.values().any(|t| match t {
            Type::Struct { members, .. } => members.iter().any(|m| m.builtin == Some(b)),
            _ => false,
        })
}

fn has_global(shader: &Shader, class: StorageClass) -> bool {
    shader.globals.values().any(|g| g.class == class)
}

fn has_scalar(shader: &Shader, s: Scalar) -> bool {
    shader.types.values().any(|t| *t == Type::Scalar(s))
}

fn pointer_value(shader: &Shader, v: spvsass_frontend::ir::Value) -> bool {
    matches!(shader.types[shader.values[v].ty], Type::Pointer { .. })
}

fn loops(shader: &Shader) -> usize {
    shader
        .blocks
        .values()
        .filter(|b| matches!(b.merge, Some(Merge::Loop { .. })))
        .count()
}

fn topology(shader: &Shader) -> Option<MeshTopology> {
    shader.mesh.map(|m| m.topology)
}

/// Runs spirv-val on the committed module, when spirv-tools is installed
/// (CI installs it): the corpus must be valid SPIR-V, not just SPIR-V this
/// frontend accepts.
fn spirv_val(path: &str) {
    let env = if path.contains(".spirv14.") {
        "spv1.4"
    } else {
        "vulkan1.3"
    };
    let file = repo_path(path);
    match std::process::Command::new("spirv-val")
        .args(["--target-env", env])
        .arg(&file)
        .output()
    {
        Ok(out) => assert!(
            out.status.success(),
            "spirv-val rejects {path}: {}",
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(e) => eprintln!("spirv-val not run on {path}: {e}"),
    }
}

macro_rules! corpus {
    ($($test:ident: $file:literal $(entry $entry:literal)?, $stage:ident, $check:expr;)*) => {
        $(
            #[test]
            fn $test() {
                let path = concat!("tests/shaders/", $file);
                let options = FrontendOptions {
                    entry: None $(.or(Some($entry.to_string())))?,
                    ..Default::default()
                };
                let shader = translate(&words_of(path), &options)
                    .unwrap_or_else(|e| panic!("{path}: {e}"));
                validate(&shader).unwrap();
                spirv_val(path);
                assert_eq!(shader.stage, Stage::$stage, "{path}");
                let check: fn(&Shader) -> bool = $check;
                assert!(check(&shader), "{path}: {}\n{shader}", stringify!($check));
            }
        )*

        const CORPUS: &[&str] = &[$($file),*];
    };
}

corpus! {
    point_mesh: "point.mesh.spv", Mesh, |s| topology(s) == Some(MeshTopology::Points);
    triangle_mesh: "triangle.mesh.spv", Mesh, |s| has(s, |op| matches!(op, Op::SetMeshOutputs { .. }));
    dense_grid_mesh: "dense_grid.mesh.spv", Mesh,
        |s| s.mesh.map(|m| (m.max_vertices, m.max_primitives)) == Some((32, 42));
    dense_grid_wide_mesh: "dense_grid_wide.mesh.spv", Mesh,
        |s| s.workgroup_size == [128, 1, 1] && topology(s) == Some(MeshTopology::Triangles);
    meshlet_instanced: "meshlet_instanced.mesh.spv", Mesh,
        |s| has(s, |op| matches!(op, Op::Math(MathOp::MatrixTimesVector, _)))
            && has_global(s, StorageClass::TaskPayload);
    meshlet_instanced_spirv14: "meshlet_instanced.mesh.spirv14.spv", Mesh,
        |s| has(s, |op| matches!(op, Op::Math(MathOp::MatrixTimesVector, _)));
    meshlet_per_primitive_colour: "meshlet_per_primitive_colour.mesh.spv", Mesh,
        |s| s.globals.values().any(|g| g.per_primitive && g.location == Some(0))
            && has_builtin(s, BuiltIn::PrimitiveId);
    primitive_culling: "primitive_culling.mesh.spv", Mesh,
        |s| has_builtin(s, BuiltIn::CullPrimitive) && has(s, |op| matches!(op, Op::ControlBarrier));
    line_strip: "line_strip.mesh.spv", Mesh,
        |s| topology(s) == Some(MeshTopology::Lines) && has_builtin(s, BuiltIn::PrimitiveLineIndices);
    line_angles: "line_angles.mesh.spv", Mesh,
        |s| topology(s) == Some(MeshTopology::Lines) && has_builtin(s, BuiltIn::PrimitiveLineIndices);
    point_cloud: "point_cloud.mesh.spv", Mesh,
        |s| topology(s) == Some(MeshTopology::Points) && has_builtin(s, BuiltIn::PointSize);
    clip_cull_distance: "clip_cull_distance.mesh.spv", Mesh,
        |s| has_builtin(s, BuiltIn::ClipDistance) && has_builtin(s, BuiltIn::CullDistance);
    layered_viewports: "layered_viewports.mesh.spv", Mesh,
        |s| has_builtin(s, BuiltIn::Layer)
            && has_builtin(s, BuiltIn::ViewportIndex)
            && has_builtin(s, BuiltIn::PrimitiveShadingRate);
    multiview_draw_index: "multiview_draw_index.mesh.spv", Mesh,
        |s| has_builtin(s, BuiltIn::ViewIndex) && has_builtin(s, BuiltIn::DrawIndex);
    terrain_grid: "terrain_grid.mesh.spv", Mesh,
        |s| has(s, |op| matches!(op, Op::Math(MathOp::Cross, _)))
            && loops(s) == 2;
    skinned_meshlet: "skinned_meshlet.mesh.spv", Mesh,
        |s| has(s, |op| matches!(op, Op::Math(MathOp::MatrixInverse, _)))
            && s.types.values().any(|t| matches!(t, Type::Matrix { row_major: true, stride: Some(16), .. }));
    interpolation_outputs: "interpolation_outputs.mesh.spv", Mesh,
        |s| s.globals.values().any(|g| g.interpolation.flat && g.location == Some(4))
            && s.globals.values().any(|g| g.interpolation.sample)
            && s.types.values().any(|t| match t {
                Type::Struct { members, .. } => members.iter().any(|m| m.interpolation.no_perspective)
                    && members.iter().any(|m| m.interpolation.centroid),
                _ => false,
            });
    payload_reader: "payload_reader.mesh.spv", Mesh, |s| has_global(s, StorageClass::TaskPayload);
    subgroup_primitive_compaction: "subgroup_primitive_compaction.mesh.spv", Mesh,
        |s| has(s, |op| matches!(op, Op::Subgroup(SubgroupOp::BallotBitCount(GroupOperation::ExclusiveScan), _)));
    spec_workgroup_size: "spec_workgroup_size.mesh.spv", Mesh, |s| s.workgroup_size == [1, 1, 1];
    meshlet_cone_culling: "meshlet_cone_culling.task.spv", Task,
        |s| has(s, |op| matches!(op, Op::Subgroup(SubgroupOp::Ballot, _)))
            && has(s, |op| matches!(op, Op::EmitMeshTasks { .. }));
    meshlet_cone_culling_spirv14: "meshlet_cone_culling.task.spirv14.spv", Task,
        |s| has(s, |op| matches!(op, Op::Subgroup(SubgroupOp::Ballot, _)));
    shared_counter_culling: "shared_counter_culling.task.spv", Task,
        |s| has(s, |op| matches!(op, Op::Atomic { op: AtomicOp::IAdd, .. }))
            && has_global(s, StorageClass::Workgroup);
    lod_select: "lod_select.task.spv", Task,
        |s| has(s, |op| matches!(op, Op::Switch { cases, .. } if cases.len() == 3));
    b_store_task: "b_store.task.spv", Task,
        |s| !has_global(s, StorageClass::TaskPayload) && has(s, |op| matches!(op, Op::EmitMeshTasks { .. }));
    b_store_mesh: "b_store.mesh.spv", Mesh,
        |s| has(s, |op| matches!(op, Op::Atomic { op: AtomicOp::IAdd, .. }));
    no_payload: "no_payload.task.spv", Task,
        |s| !has_global(s, StorageClass::TaskPayload) && has(s, |op| matches!(op, Op::EmitMeshTasks { .. }));
    instance_frustum_culling: "instance_frustum_culling.task.spv", Task,
        |s| has(s, |op| matches!(op, Op::Subgroup(SubgroupOp::Elect, _)));
    dxc_barrier_before_emit: "dxc_barrier_before_emit.task.spv", Task,
        |s| s.layout.iter().any(|&b| {
            let insts = &s.blocks[b].insts;
            insts.len() >= 2
                && matches!(s.insts[insts[insts.len() - 2]].op, Op::ControlBarrier)
                && matches!(s.insts[insts[insts.len() - 1]].op, Op::EmitMeshTasks { .. })
        });
    shared_reduction: "shared_reduction.comp.spv", Compute,
        |s| s.workgroup_size == [256, 1, 1] && has(s, |op| matches!(op, Op::ControlBarrier));
    shared_reduction_spirv14: "shared_reduction.comp.spirv14.spv", Compute,
        |s| has(s, |op| matches!(op, Op::ControlBarrier));
    blelloch_prefix_sum: "blelloch_prefix_sum.comp.spv", Compute,
        |s| loops(s) == 2;
    subgroup_scans: "subgroup_scans.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Subgroup(SubgroupOp::Arithmetic(ReduceOp::IAdd, GroupOperation::ExclusiveScan), _)))
            && has(s, |op| matches!(op, Op::Subgroup(SubgroupOp::Arithmetic(ReduceOp::FMul, _), _)));
    subgroup_vote_shuffle: "subgroup_vote_shuffle.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Subgroup(SubgroupOp::ShuffleXor, _)))
            && has_builtin(s, BuiltIn::SubgroupLtMask);
    subgroup_quad_clustered: "subgroup_quad_clustered.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Subgroup(SubgroupOp::QuadSwap, _)))
            && has(s, |op| matches!(op, Op::Subgroup(SubgroupOp::Arithmetic(_, GroupOperation::ClusteredReduce), args) if args.len() == 2));
    buffer_atomics: "buffer_atomics.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Atomic { op: AtomicOp::CompareExchange, args, .. } if args.len() == 2));
    float_atomics: "float_atomics.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Atomic { op: AtomicOp::FMin, .. }));
    shared_histogram: "shared_histogram.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::MemoryBarrier)) && has(s, |op| matches!(op, Op::Atomic { .. }));
    dxc_counter_atomics: "dxc_counter_atomics.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Atomic { op: AtomicOp::IIncrement, .. }))
            && has(s, |op| matches!(op, Op::Atomic { op: AtomicOp::Store, .. }));
    loops_break_continue: "loops_break_continue.comp.spv", Compute,
        |s| loops(s) == 3;
    switch_fallthrough: "switch_fallthrough.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Switch { .. }));
    opt_switch_merges: "opt_switch_merges.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Switch { cases, .. } if cases.iter().any(|(l, _)| *l == 0xffff_ffff)))
            && s.blocks.values().any(|b| b.params.len() == 1);
    // sphereHit, with two returns, is inlined into closest's loop inside a
    // one-trip loop of its own.
    function_calls: "function_calls.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Unary(UnaryOp::FSqrt, _))) && loops(s) == 2;
    function_calls_spirv14: "function_calls.comp.spirv14.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Math(MathOp::Dot, _)));
    bit_operations: "bit_operations.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Math(MathOp::BitFieldInsert, args) if args.len() == 4))
            && has(s, |op| matches!(op, Op::Math(MathOp::UMulExtended, _)));
    small_and_wide_ints: "small_and_wide_ints.comp.spv", Compute,
        |s| has_scalar(s, Scalar::Int { bits: 8, signed: false })
            && has_scalar(s, Scalar::Int { bits: 16, signed: true })
            && has_scalar(s, Scalar::Int { bits: 64, signed: false });
    float_builtins: "float_builtins.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Math(MathOp::FrexpStruct, _)))
            && has(s, |op| matches!(op, Op::Math(MathOp::IsNan, _)));
    pack_unpack: "pack_unpack.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Math(MathOp::PackHalf2x16, _)))
            && has(s, |op| matches!(op, Op::Math(MathOp::UnpackDouble2x32, _)));
    matrix_operations: "matrix_operations.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Math(MathOp::OuterProduct, _)))
            && has(s, |op| matches!(op, Op::Math(MathOp::Determinant, _)));
    geometric: "geometric.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Math(MathOp::Refract, args) if args.len() == 3));
    buffer_device_address: "buffer_device_address.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Convert(ConvOp::UToPtr, _)))
            && has(s, |op| matches!(op, Op::Convert(ConvOp::PtrToU, _)));
    ptr_access_chain: "ptr_access_chain.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::PtrAccessChain { .. }));
    ptr_stride: "ptr_stride.comp.spv", Compute,
        |s| s.types.values().any(|t| matches!(t, Type::Pointer { array_stride: Some(48), .. }));
    // Variable pointers: pointer-typed block parameters (OpPhi, and the
    // inlined pointer-returning function) and selects of pointers.
    vp_select: "vp_select.comp.spv", Compute,
        |s| s.blocks.values().flat_map(|b| &b.params).any(|&p| pointer_value(s, p))
            && s.insts.values().any(|i| matches!(i.op, Op::Select { .. })
                && i.result.is_some_and(|r| pointer_value(s, r)))
            && has(s, |op| matches!(op, Op::Convert(ConvOp::PtrToU, _)));
    vp_sets: "vp_sets.comp.spv", Compute,
        |s| s.blocks.values().flat_map(|b| &b.params).any(|&p| pointer_value(s, p))
            && s.globals.values().filter(|g| g.class == StorageClass::StorageBuffer).count() == 4;
    vp_private: "vp_private.comp.spv", Compute,
        |s| s.globals.values().any(|g| g.class == StorageClass::Private
                && matches!(s.types[g.ty], Type::Pointer { .. }))
            && has(s, |op| matches!(op, Op::PtrAccessChain { .. }));
    vp_workgroup: "vp_workgroup.comp.spv", Compute,
        |s| s.insts.values().any(|i| matches!(i.op, Op::Select { .. })
            && i.result.is_some_and(|r| matches!(s.types[s.values[r].ty],
                Type::Pointer { class: StorageClass::Workgroup, .. })));
    vp_row_major: "vp_row_major.comp.spv", Compute,
        |s| s.types.values().any(|t| matches!(t, Type::Matrix { row_major: true, .. }))
            && has(s, |op| matches!(op, Op::Select { .. }));
    vp_array_length: "vp_array_length.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::ArrayLength { .. }));
    narrow_ops: "narrow_ops.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Binary(BinaryOp::SMod, ..)))
            && has_scalar(s, Scalar::Int { bits: 8, signed: true });
    wide_div_ops: "wide_div_ops.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Binary(BinaryOp::UDiv, ..)))
            && has_scalar(s, Scalar::Int { bits: 64, signed: true });
    wide_srem: "wide_srem.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Binary(BinaryOp::SRem, ..)));
    atomics64: "atomics64.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Atomic { op: AtomicOp::CompareExchange, .. }))
            && has_scalar(s, Scalar::Int { bits: 64, signed: true });
    runtime_array_length: "runtime_array_length.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::ArrayLength { member: 1, .. }));
    spec_constant_ops: "spec_constant_ops.comp.spv", Compute,
        |s| s.types.values().any(|t| matches!(t, Type::Array { len: Some(65), .. }));
    spec_workgroup_xy: "spec_workgroup_xy.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::VectorShuffle { .. }));
    spec_sized_arrays: "spec_sized_arrays.comp.spv", Compute,
        |s| s.types.values().any(|t| matches!(t, Type::Array { len: Some(9), .. }));
    lt_buffer_block: "lt_buffer_block.comp.spv", Compute,
        // Uniform + BufferBlock becomes a storage buffer.
        |s| has_global(s, StorageClass::StorageBuffer) && !has_global(s, StorageClass::Uniform);
    lt_bda_atomics: "lt_bda_atomics.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Atomic { op: AtomicOp::CompareExchange, .. }));
    lt_matrix_column: "lt_matrix_column.comp.spv", Compute,
        |s| s.types.values().any(|t| matches!(t, Type::Matrix { row_major: true, .. }));
    lt_decoration_group: "lt_decoration_group.comp.spv", Compute,
        |s| s.globals.values().any(|g| g.descriptor_set == Some(0) && g.binding == Some(1));
    lt_debug_info: "lt_debug_info.comp.spv", Compute,
        |s| has_global(s, StorageClass::StorageBuffer);
    lt_opencl_debug_info: "lt_opencl_debug_info.comp.spv", Compute,
        |s| has_global(s, StorageClass::StorageBuffer);
    lt_shared_init: "lt_shared_init.comp.spv", Compute,
        |s| s.globals.values().any(|g| g.class == StorageClass::Workgroup && g.initializer.is_some());
    lt_buffer_struct_index: "lt_buffer_struct_index.comp.spv", Compute,
        |s| has_global(s, StorageClass::StorageBuffer) && has(s, |op| matches!(op, Op::AccessChain { .. }));
    lt_spec_array_lengths: "lt_spec_array_lengths.comp.spv", Compute,
        |s| has_global(s, StorageClass::Workgroup);
    lt_workgroup_explicit_layout: "lt_workgroup_explicit_layout.comp.spv", Compute,
        |s| s.globals.values().filter(|g| g.class == StorageClass::Workgroup).count() == 3;
    lt_subgroup_wide: "lt_subgroup_wide.comp.spv", Compute,
        |s| has_scalar(s, Scalar::Float { bits: 16 }) && has_scalar(s, Scalar::Float { bits: 64 });
    lt_push256: "lt_push256.comp.spv", Compute,
        |s| has_global(s, StorageClass::PushConstant);
    lt_small_types: "lt_small_types.comp.spv", Compute,
        |s| has_scalar(s, Scalar::Float { bits: 16 }) && has_scalar(s, Scalar::Int { bits: 8, signed: false });
    lt_struct_array_index: "lt_struct_array_index.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::AccessChain { .. }));
    spec_op_quantize: "spec_op_quantize.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Math(MathOp::QuantizeToF16, _)))
            && has(s, |op| matches!(op, Op::InsertDynamic { .. }));
    dynamic_indexing: "dynamic_indexing.comp.spv", Compute,
        // x[k] = ... and lookup[k] need addresses: both stay in memory.
        |s| function_globals(s) == 2;
    half_and_double: "half_and_double.comp.spv", Compute,
        |s| has_scalar(s, Scalar::Float { bits: 16 }) && has_scalar(s, Scalar::Float { bits: 64 });
    memory_barriers: "memory_barriers.comp.spv", Compute,
        |s| ops(s).into_iter().filter(|op| matches!(op, Op::MemoryBarrier)).count() >= 4;
    uniform_matrix_layouts: "uniform_matrix_layouts.comp.spv", Compute,
        |s| has_global(s, StorageClass::Uniform) && has_global(s, StorageClass::PushConstant)
            && s.types.values().any(|t| matches!(t, Type::Matrix { row_major: true, .. }))
            && s.types.values().any(|t| matches!(t, Type::Matrix { row_major: false, stride: Some(16), .. }));
    private_globals: "private_globals.comp.spv", Compute,
        |s| s.globals.values().filter(|g| g.class == StorageClass::Private).count() == 2;
    vector_swizzles: "vector_swizzles.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::VectorShuffle { .. })) && has(s, |op| matches!(op, Op::Math(MathOp::All, _)));
    copy_logical: "copy_logical.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::CopyLogical(_))) && has(s, |op| matches!(op, Op::CopyMemory { .. }));
    // Large array copies fused into one copy each (translate/fuse_copy.rs):
    // no whole-array load is left.
    large_copy: "large_copy.comp.spv", Compute,
        |s| ops(s).into_iter().filter(|op| matches!(op, Op::CopyMemory { .. })).count() == 4
            && !has(s, |op| matches!(op, Op::CopyLogical(_)));
    large_copy_vulkan10: "large_copy.comp.vulkan10.spv", Compute,
        |s| ops(s).into_iter().filter(|op| matches!(op, Op::CopyMemory { .. })).count() == 4
            && !has(s, |op| matches!(op, Op::CompositeExtract { .. }));
    phi_heavy_loop: "phi_heavy_loop.comp.spv", Compute,
        |s| s.blocks.values().any(|b| b.params.len() == 3);
    // The compute path's own shaders (tests/compute.rs).
    c_add_push: "c_add_push.comp.spv", Compute, |s| has_global(s, StorageClass::PushConstant);
    c_struct_index: "c_struct_index.comp.spv", Compute, |s| has_global(s, StorageClass::StorageBuffer);
    c_reduce128: "c_reduce128.comp.spv", Compute,
        |s| s.workgroup_size == [128, 1, 1] && has(s, |op| matches!(op, Op::ControlBarrier));
    c_reduce256: "c_reduce256.comp.spv", Compute,
        |s| s.invocations() == 256 && has_global(s, StorageClass::Workgroup);
    c_loop: "c_loop.comp.spv", Compute, |s| s.blocks.len() > 3;
    c_uniform: "c_uniform.comp.spv", Compute, |s| has_global(s, StorageClass::Uniform);
    c_builtins: "c_builtins.comp.spv", Compute, |s| has_builtin(s, BuiltIn::NumWorkgroups);
    c_local_array: "c_local_array.comp.spv", Compute, |s| has_global(s, StorageClass::Function);
    c_bad_set: "c_bad_set.comp.spv", Compute, |s| has_global(s, StorageClass::StorageBuffer);
    res_sets: "res_sets.comp.spv", Compute,
        |s| has_global(s, StorageClass::StorageBuffer) && has_global(s, StorageClass::Uniform);
    res_big_uniform: "res_big_uniform.comp.spv", Compute, |s| has_global(s, StorageClass::Uniform);
    c_pressure: "c_pressure.comp.spv", Compute, |s| s.insts.len() > 100;
    c_pred_pressure: "c_pred_pressure.comp.spv", Compute, |s| s.insts.len() > 50;
    c_loop_break: "c_loop_break.comp.spv", Compute,
        |s| s.blocks.values().any(|b| matches!(b.merge, Some(Merge::Loop { .. })));
    c_divide: "c_divide.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Binary(spvsass_frontend::ir::BinaryOp::SMod, ..)));
    c_atomics: "c_atomics.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Atomic { op: AtomicOp::CompareExchange, .. }))
            && has(s, |op| matches!(op, Op::Atomic { op: AtomicOp::SMin, .. }))
            && has_global(s, StorageClass::Workgroup);
    c_math_edges: "c_math_edges.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Math(MathOp::Atan2, _)))
            && has(s, |op| matches!(op, Op::Binary(spvsass_frontend::ir::BinaryOp::FDiv, ..)));
    c_matrix: "c_matrix.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Math(MathOp::MatrixInverse, _)))
            && has(s, |op| matches!(op, Op::Math(MathOp::VectorTimesMatrix, _)));
    c_pack: "c_pack.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Math(MathOp::PackSnorm2x16, _)))
            && has(s, |op| matches!(op, Op::Math(MathOp::UnpackHalf2x16, _)));
    c_atomic_float: "c_atomic_float.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Atomic { op: AtomicOp::FAdd, .. }))
            && has_global(s, StorageClass::Workgroup);
    c_float_atomic_olds: "c_float_atomic_olds.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Atomic { op: AtomicOp::FMin, .. }))
            && has(s, |op| matches!(op, Op::Atomic { op: AtomicOp::FMax, .. }));
    c_subgroup_divergent: "c_subgroup_divergent.comp.spv", Compute,
        |s| s.workgroup_size == [48, 1, 1] && has(s, |op| matches!(op, Op::Subgroup(..)));
    c_subgroup_quads: "c_subgroup_quads.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Subgroup(..)));
    w_subgroup_add64_mesh: "w_subgroup_add64.mesh.spv", Mesh,
        |s| s.workgroup_size == [64, 1, 1] && has(s, |op| matches!(op, Op::Subgroup(..)));
    w_subgroup_add48_mesh: "w_subgroup_add48.mesh.spv", Mesh,
        |s| s.workgroup_size == [48, 1, 1] && has(s, |op| matches!(op, Op::Subgroup(..)));
    // The backend's control-flow, memory and predication tests
    // (tests/control_flow.rs, tests/memory_ops.rs, tests/predication.rs).
    c_switch: "c_switch.comp.spv", Compute, |s| has(s, |op| matches!(op, Op::Switch { .. }));
    c_uniform_branch: "c_uniform_branch.comp.spv", Compute,
        |s| loops(s) == 1 && has_global(s, StorageClass::PushConstant);
    c_divergent_branch: "c_divergent_branch.comp.spv", Compute, |s| loops(s) == 1;
    c_predicated: "c_predicated.comp.spv", Compute,
        |s| loops(s) == 0 && has(s, |op| matches!(op, Op::ControlBarrier));
    c_composite_ops: "c_composite_ops.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Cmp(spvsass_frontend::ir::CmpOp::LogicalEq, ..)));
    c_vector_dynamic: "c_vector_dynamic.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::InsertDynamic { .. }));
    c_matrix_layouts: "c_matrix_layouts.comp.spv", Compute, |s| has_global(s, StorageClass::Uniform);
    // The reference runner's shaders (src/reference/, tests/runs/).
    ref_add: "ref_add.comp.spv", Compute,
        |s| s.workgroup_size == [64, 1, 1] && has_global(s, StorageClass::PushConstant);
    ref_reduce: "ref_reduce.comp.spv", Compute,
        |s| has_global(s, StorageClass::Workgroup) && has(s, |op| matches!(op, Op::ControlBarrier));
    ref_atomic: "ref_atomic.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Atomic { .. }));
    ref_quads_task: "ref_quads.task.spv", Task,
        |s| has_global(s, StorageClass::TaskPayload) && has(s, |op| matches!(op, Op::EmitMeshTasks { .. }));
    ref_quads_mesh: "ref_quads.mesh.spv", Mesh,
        |s| has_global(s, StorageClass::TaskPayload) && has_builtin(s, BuiltIn::CullPrimitive);
    ref_views: "ref_views.mesh.spv", Mesh,
        |s| has_builtin(s, BuiltIn::ViewIndex);
    ref_vec3_colour: "ref_vec3_colour.mesh.spv", Mesh,
        |s| topology(s) == Some(MeshTopology::Triangles);
    two_entry_points: "two_entry_points.comp.spv" entry "scale", Compute,
        |s| s.entry_name == "scale" && s.workgroup_size == [128, 1, 1];
    w_vertices128_mesh: "w_vertices128.mesh.spv", Mesh,
        |s| s.workgroup_size == [128, 1, 1] && has_builtin(s, BuiltIn::SubgroupId);
    w_exchange_task: "w_exchange.task.spv", Task,
        |s| s.workgroup_size == [64, 1, 1] && has(s, |op| matches!(op, Op::ControlBarrier));
    w_exchange_mesh: "w_exchange.mesh.spv", Mesh,
        |s| s.workgroup_size == [64, 1, 1] && has_global(s, StorageClass::TaskPayload);
    w_emit96_task: "w_emit96.task.spv", Task,
        |s| s.workgroup_size == [96, 1, 1] && has(s, |op| matches!(op, Op::EmitMeshTasks { .. }));
    w_emit96_mesh: "w_emit96.mesh.spv", Mesh,
        |s| topology(s) == Some(MeshTopology::Points) && has_global(s, StorageClass::TaskPayload);
    w_loop_task: "w_loop.task.spv", Task,
        |s| loops(s) == 1 && ops(s).iter().filter(|op| matches!(op, Op::ControlBarrier)).count() == 3;
    w_partial48_task: "w_partial48.task.spv", Task,
        |s| s.workgroup_size == [48, 1, 1] && has_global(s, StorageClass::TaskPayload);
    w_uniform_if_task: "w_uniform_if.task.spv", Task,
        |s| loops(s) == 1 && has_builtin(s, BuiltIn::WorkgroupId);
    w_return_in_branch_mesh: "w_return_in_branch.mesh.spv", Mesh,
        |s| s.workgroup_size == [64, 1, 1] && has(s, |op| matches!(op, Op::Return));
    w_loop_mesh: "w_loop.mesh.spv", Mesh,
        |s| s.workgroup_size == [64, 1, 1] && topology(s) == Some(MeshTopology::Points);
    w_return_loop_mesh: "w_return_loop.mesh.spv", Mesh,
        |s| loops(s) == 1 && has(s, |op| matches!(op, Op::ControlBarrier));
    w_return_late_mesh: "w_return_late.mesh.spv", Mesh,
        |s| s.workgroup_size == [96, 1, 1] && has(s, |op| matches!(op, Op::Return));
    w_return_task: "w_return.task.spv", Task,
        |s| s.workgroup_size == [64, 1, 1] && has(s, |op| matches!(op, Op::Return));
    // Mesh outputs read back, dynamic indices into them (tests/outputs.rs).
    output_dynamic_index_mesh: "output_dynamic_index.mesh.spv", Mesh,
        |s| s.workgroup_size == [32, 1, 1] && has(s, |op| matches!(op, Op::ControlBarrier));
    output_readback_mesh: "output_readback.mesh.spv", Mesh,
        |s| s.workgroup_size == [32, 1, 1] && has(s, |op| matches!(op, Op::ControlBarrier));
    output_readback_prims_mesh: "output_readback_prims.mesh.spv", Mesh,
        |s| topology(s) == Some(MeshTopology::Triangles) && has_builtin(s, BuiltIn::CullPrimitive);
    output_readback_wide_mesh: "output_readback_wide.mesh.spv", Mesh,
        |s| s.workgroup_size == [96, 1, 1] && has(s, |op| matches!(op, Op::ControlBarrier));
    w_scan128_mesh: "w_scan128.mesh.spv", Mesh,
        |s| s.workgroup_size == [128, 1, 1] && loops(s) == 1
            && ops(s).iter().filter(|op| matches!(op, Op::ControlBarrier)).count() == 2;
    w_private_init_mesh: "w_private_init.mesh.spv", Mesh,
        |s| s.workgroup_size == [64, 1, 1] && has_global(s, StorageClass::Private);
    w_divergent_barrier_mesh: "w_divergent_barrier.mesh.spv", Mesh,
        |s| has(s, |op| matches!(op, Op::ControlBarrier)) && has_builtin(s, BuiltIn::LocalInvocationIndex);
    w_shared_exit_loop_mesh: "w_shared_exit_loop.mesh.spv", Mesh,
        |s| s.workgroup_size == [128, 1, 1] && loops(s) == 1
            && ops(s).iter().filter(|op| matches!(op, Op::ControlBarrier)).count() == 3;
    w_cluster_skip_mesh: "w_cluster_skip.mesh.spv", Mesh,
        |s| s.workgroup_size == [64, 1, 1] && loops(s) == 2
            && ops(s).iter().filter(|op| matches!(op, Op::SetMeshOutputs { .. })).count() == 2;
    img_texel_buffer_comp: "img_texel_buffer.comp.spv", Compute,
        |s| has_global(s, StorageClass::UniformConstant) && has(s, |op| matches!(op, Op::Image(_)));
    img_storage2d_comp: "img_storage2d.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Image(i) if i.texel.is_some()));
    img_sample_lod_comp: "img_sample_lod.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::SampledImage { .. }));
    img_atomic_comp: "img_atomic.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::ImageTexelPointer { .. }));
    img_linear_comp: "img_linear.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Image(i) if i.lod.is_some()));
    img_shapes_comp: "img_shapes.comp.spv", Compute,
        |s| has(s, |op| matches!(op, Op::Image(i) if i.grad.is_some()));
}

/// Every .spv in tests/shaders/ has a test above and every test names an
/// existing file. Names starting with `d_` or `s_` belong to the backend's
/// own tests, `r_` to issue 18's regressions (tests/random_finds.rs), and
/// are left out.
#[test]
fn corpus_list_matches_the_directory() {
    let dir = repo_path("tests/shaders");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".spv") && !["d_", "s_", "r_"].iter().any(|p| n.starts_with(p)))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = CORPUS.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(listed, on_disk);
}
