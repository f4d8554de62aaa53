#version 460
#extension GL_EXT_mesh_shader : require
#extension GL_KHR_shader_subgroup_basic : require

// A task workgroup of 32 invocations (one subgroup) puts its subgroup id and
// subgroup count into the payload, per invocation, and launches one mesh
// workgroup (s_subgroup_ids.mesh).
layout(local_size_x = 32) in;

struct Payload {
    uint words[32];
};
taskPayloadSharedEXT Payload p;

void main()
{
    uint i = gl_LocalInvocationIndex;
    p.words[i] = 100u * i + 10u * gl_SubgroupID + gl_NumSubgroups;
    EmitMeshTasksEXT(1, 1, 1);
}
