#version 460
#extension GL_EXT_mesh_shader : require

// The mesh half of a task/mesh pair: reads its meshlet id and a per-task
// scale from the task payload.
layout(local_size_x = 32) in;
layout(triangles, max_vertices = 3, max_primitives = 1) out;

struct Payload { uint meshlets[32]; float scale; };
taskPayloadSharedEXT Payload payload;

void main()
{
    uint meshlet = payload.meshlets[gl_WorkGroupID.x];
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(3, 1);
    if (i < 3u) {
        float x = float(meshlet % 16u) / 8.0 - 1.0;
        gl_MeshVerticesEXT[i].gl_Position = vec4(x + float(i) * payload.scale, float(i == 2u) * payload.scale, 0.0, 1.0);
    }
    if (i == 0u) {
        gl_PrimitiveTriangleIndicesEXT[0] = uvec3(0, 1, 2);
    }
}
