#version 460
#extension GL_EXT_mesh_shader : require
#extension GL_KHR_shader_subgroup_basic : require

// 64 invocations: vertex i shows payload words a[i] and b[i].
layout(local_size_x = 64) in;
layout(points, max_vertices = 64, max_primitives = 64) out;

struct Payload {
    uint a[64];
    uint b[64];
};
taskPayloadSharedEXT Payload p;

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(64, 64);
    gl_MeshVerticesEXT[i].gl_Position = vec4(float(p.a[i]), float(p.b[i]), float(gl_SubgroupID), 1.0);
    gl_PrimitivePointIndicesEXT[i] = i;
}
