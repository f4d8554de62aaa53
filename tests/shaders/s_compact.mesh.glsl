#version 460
#extension GL_EXT_mesh_shader : require

// The mesh side of s_compact.task / s_compact_match.task: one point per
// surviving meshlet, its position.x the meshlet index from the payload.
layout(local_size_x = 1) in;
layout(points, max_vertices = 1, max_primitives = 1) out;

struct Payload { uint ids[32]; };
taskPayloadSharedEXT Payload payload;

void main()
{
    SetMeshOutputsEXT(1u, 1u);
    uint id = payload.ids[gl_WorkGroupID.x];
    gl_MeshVerticesEXT[0].gl_Position = vec4(float(id), 0.0, 0.0, 1.0);
    gl_PrimitivePointIndicesEXT[0] = 0u;
}
