#version 460
#extension GL_EXT_mesh_shader : require

// A lone mesh shader of 2x2x2 invocations drawn over a 3-D grid: each
// invocation emits one point carrying its gl_GlobalInvocationID (position),
// gl_WorkGroupID and gl_DrawID (location 0), gl_NumWorkGroups (location 1)
// and gl_LocalInvocationID (location 2).
layout(local_size_x = 2, local_size_y = 2, local_size_z = 2) in;
layout(points, max_vertices = 8, max_primitives = 8) out;

layout(location = 0) out vec4 group[];
layout(location = 1) out vec4 counts[];
layout(location = 2) out vec4 local[];

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(8, 8);
    gl_MeshVerticesEXT[i].gl_Position = vec4(vec3(gl_GlobalInvocationID), 1.0);
    group[i] = vec4(vec3(gl_WorkGroupID), float(gl_DrawID));
    counts[i] = vec4(vec3(gl_NumWorkGroups), 0.0);
    local[i] = vec4(vec3(gl_LocalInvocationID), 0.0);
    gl_PrimitivePointIndicesEXT[i] = i;
}
