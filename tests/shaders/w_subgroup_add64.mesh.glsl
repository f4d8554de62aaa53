#version 460
#extension GL_EXT_mesh_shader : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require

// Subgroup operations in a mesh workgroup of 64 invocations: logical
// subgroups of 32 on one warp, each its own subgroup.
layout(local_size_x = 64) in;
layout(triangles, max_vertices = 64, max_primitives = 16) out;

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(64, 16);
    uint s = subgroupAdd(i);
    uint x = subgroupExclusiveAdd(i);
    uint f = subgroupBroadcastFirst(i);
    uint w = gl_SubgroupID;
    if (subgroupAll(i < 48u)) w += 10u;
    if (subgroupAny(i >= 48u)) w += 100u;
    gl_MeshVerticesEXT[i].gl_Position = vec4(float(s), float(x), float(f), float(w));
    if (i < 16u) {
        gl_PrimitiveTriangleIndicesEXT[i] = uvec3(i * 3u, i * 3u + 1u, i * 3u + 2u);
    }
}
