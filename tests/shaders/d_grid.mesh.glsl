#version 460
#extension GL_EXT_mesh_shader : require

// Fed by d_grid.task: one point per task invocation, position = that
// invocation's gl_GlobalInvocationID and index, location 0 = the task's
// gl_WorkGroupID, location 1 = its gl_NumWorkGroups.
layout(local_size_x = 8) in;
layout(points, max_vertices = 8, max_primitives = 8) out;

struct Payload {
    uvec4 group;
    uvec4 counts;
    uvec4 global[8];
};
taskPayloadSharedEXT Payload p;

layout(location = 0) out vec4 group[];
layout(location = 1) out vec4 counts[];

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(8, 8);
    gl_MeshVerticesEXT[i].gl_Position = vec4(p.global[i]);
    group[i] = vec4(p.group);
    counts[i] = vec4(p.counts);
    gl_PrimitivePointIndicesEXT[i] = i;
}
