#version 450
#extension GL_KHR_shader_subgroup_basic : require
// Every compute input built-in, written per invocation (8 words each) for
// a 48x2 workgroup: three warps, the last one full, ids over a 3D grid.
layout(local_size_x = 48, local_size_y = 2) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint o[]; };
void main() {
    uvec3 g = gl_GlobalInvocationID;
    uvec3 n = gl_NumWorkGroups;
    uint flat_group = (gl_WorkGroupID.z * n.y + gl_WorkGroupID.y) * n.x + gl_WorkGroupID.x;
    uint slot = (flat_group * 96u + gl_LocalInvocationIndex) * 8u;
    o[slot + 0u] = g.x;
    o[slot + 1u] = g.y * 1000u + g.z;
    o[slot + 2u] = gl_LocalInvocationID.x + 100u * gl_LocalInvocationID.y;
    o[slot + 3u] = gl_SubgroupInvocationID;
    o[slot + 4u] = gl_SubgroupID + 10u * gl_NumSubgroups;
    o[slot + 5u] = gl_SubgroupSize;
    o[slot + 6u] = n.x + 10u * n.y + 100u * n.z;
    o[slot + 7u] = gl_WorkGroupSize.x * gl_WorkGroupSize.y;
}
