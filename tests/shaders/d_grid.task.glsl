#version 460
#extension GL_EXT_mesh_shader : require

// A task shader of 4x2 invocations drawn over a 3-D grid: each invocation
// stores its gl_GlobalInvocationID in the payload, invocation 0 also the
// workgroup's gl_WorkGroupID and gl_NumWorkGroups; one d_grid.mesh
// workgroup shows them.
layout(local_size_x = 4, local_size_y = 2) in;

struct Payload {
    uvec4 group;
    uvec4 counts;
    uvec4 global[8];
};
taskPayloadSharedEXT Payload p;

void main()
{
    uint i = gl_LocalInvocationIndex;
    p.global[i] = uvec4(gl_GlobalInvocationID, i);
    if (i == 0u) {
        p.group = uvec4(gl_WorkGroupID, 0u);
        p.counts = uvec4(gl_NumWorkGroups, 0u);
    }
    EmitMeshTasksEXT(1, 1, 1);
}
