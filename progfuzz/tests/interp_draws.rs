//! The interpreter's draws on their own: a task payload and launch seen by
//! the mesh workgroups, outputs read back by meaning, and the named errors
//! of draws that break the API's rules. Shaders are compiled here by
//! glslangValidator (as the random-program tester does).

use spvsass_interp::{InterpError, Options, run_draw};
use spvsass_progfuzz::run::compile_glsl_stage;

fn shader(src: &str, stage: &str) -> spvsass::frontend::ir::Shader {
    let words = compile_glsl_stage(src, stage).unwrap_or_else(|f| panic!("{}", f.detail));
    spvsass::frontend::translate(&words, &Default::default()).expect("translates")
}

const TASK: &str = "#version 460
#extension GL_EXT_mesh_shader : require
layout(local_size_x = 4) in;
struct P { uint base; uint w[4]; };
taskPayloadSharedEXT P p;
void main() {
    p.w[gl_LocalInvocationIndex] = gl_LocalInvocationIndex * 3u + gl_WorkGroupID.x;
    if (gl_LocalInvocationIndex == 0u) p.base = 100u * gl_WorkGroupID.x;
    EmitMeshTasksEXT(gl_WorkGroupID.x + 1u, 1u, 1u);
}";

const MESH: &str = "#version 460
#extension GL_EXT_mesh_shader : require
layout(local_size_x = 2) in;
layout(triangles, max_vertices = 3, max_primitives = 1) out;
struct P { uint base; uint w[4]; };
taskPayloadSharedEXT P p;
layout(location = 0) flat out uint v[];
layout(location = 1) perprimitiveEXT flat out uvec2 q[];
void main() {
    SetMeshOutputsEXT(3u, 1u);
    uint i = gl_LocalInvocationIndex;
    for (uint k = i; k < 3u; k += 2u) {
        gl_MeshVerticesEXT[k].gl_Position = vec4(float(p.base + k), 0.0, 0.0, 1.0);
        v[k] = p.w[k] + 10u * gl_WorkGroupID.x;
    }
    if (i == 1u) {
        gl_PrimitiveTriangleIndicesEXT[0] = uvec3(2u, 1u, 0u);
        q[0] = uvec2(gl_NumWorkGroups.x, gl_WorkGroupID.x);
    }
}";

#[test]
fn mesh_workgroups_see_their_task_s_payload_launch_and_write_outputs() {
    let (task, mesh) = (shader(TASK, "task"), shader(MESH, "mesh"));
    let run = run_draw(
        Some(&task),
        &mesh,
        [2, 1, 1],
        &Default::default(),
        &Options::default(),
    )
    .expect("runs");
    let launches: Vec<[u32; 3]> = run.tasks.iter().map(|t| t.mesh_groups).collect();
    assert_eq!(launches, vec![[1, 1, 1], [2, 1, 1]]);
    assert_eq!(run.workgroups.len(), 3);
    for (g, (task_wg, id)) in run.workgroups.iter().zip([(0u32, 0u32), (1, 0), (1, 1)]) {
        assert_eq!((g.task_workgroup, g.id), (Some(task_wg), [id, 0, 0]));
        assert_eq!((g.vertex_count, g.primitive_count), (3, 1));
        assert_eq!(g.indices, vec![vec![2, 1, 0]]);
        for k in 0..3u32 {
            let x = f32::from_bits(g.vertices[k as usize].position.expect("position")[0]);
            assert_eq!(x, (100 * task_wg + k) as f32);
            let want = k * 3 + task_wg + 10 * id;
            assert_eq!(g.vertices[k as usize].generic[&0][0], Some(want));
        }
        let q = g.primitives[0].generic[&1];
        assert_eq!((q[0], q[1]), (Some(task_wg + 1), Some(id)));
    }
}

#[test]
fn counts_over_the_declared_maxima_name_set_mesh_outputs() {
    let src = "#version 460
#extension GL_EXT_mesh_shader : require
layout(local_size_x = 1) in;
layout(points, max_vertices = 2, max_primitives = 2) out;
layout(std430, binding = 0) readonly buffer B { uint n; };
void main() { SetMeshOutputsEXT(n, 1u); }";
    let mesh = shader(src, "mesh");
    let mut inputs = spvsass_interp::Inputs::default();
    inputs.buffers.insert(0, 3u32.to_le_bytes().to_vec());
    let err = run_draw(None, &mesh, [1, 1, 1], &inputs, &Options::default()).expect_err("3 > 2");
    assert!(
        matches!(err, InterpError::MeshCounts { vertices: 3, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("OpSetMeshOutputsEXT"), "{err}");
}

#[test]
fn an_index_past_the_vertex_count_is_an_error() {
    let src = "#version 460
#extension GL_EXT_mesh_shader : require
layout(local_size_x = 1) in;
layout(lines, max_vertices = 4, max_primitives = 1) out;
void main() {
    SetMeshOutputsEXT(2u, 1u);
    gl_PrimitiveLineIndicesEXT[0] = uvec2(0u, 3u);
}";
    let mesh = shader(src, "mesh");
    let err = run_draw(
        None,
        &mesh,
        [1, 1, 1],
        &Default::default(),
        &Options::default(),
    )
    .expect_err("vertex 3 of 2");
    assert!(
        matches!(
            err,
            InterpError::IndexPastVertices {
                vertex: 3,
                count: 2,
                ..
            }
        ),
        "{err}"
    );
}
