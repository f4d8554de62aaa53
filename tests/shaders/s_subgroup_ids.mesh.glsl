#version 460
#extension GL_EXT_mesh_shader : require
#extension GL_KHR_shader_subgroup_basic : require

// A 32-invocation mesh workgroup (one subgroup) behind s_subgroup_ids.task:
// invocation i writes point i at (payload word i, gl_SubgroupID,
// gl_NumSubgroups, 1).
layout(local_size_x = 32) in;
layout(points, max_vertices = 32, max_primitives = 32) out;

struct Payload {
    uint words[32];
};
taskPayloadSharedEXT Payload p;

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(32, 32);
    gl_MeshVerticesEXT[i].gl_Position =
        vec4(float(p.words[i]), float(gl_SubgroupID), float(gl_NumSubgroups), 1.0);
    gl_PrimitivePointIndicesEXT[i] = i;
}
