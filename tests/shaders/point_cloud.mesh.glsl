#version 460
#extension GL_EXT_mesh_shader : require

// A point cloud whose point size and points per group are specialization
// constants.
layout(constant_id = 0) const float POINT_SIZE = 4.0;
layout(local_size_x = 32) in;
layout(points, max_vertices = 32, max_primitives = 32) out;

layout(std430, binding = 0) readonly buffer Cloud { vec4 cloud[]; };

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint base = gl_WorkGroupID.x * 32u;
    SetMeshOutputsEXT(32, 32);
    gl_MeshVerticesEXT[i].gl_Position = cloud[base + i];
    gl_MeshVerticesEXT[i].gl_PointSize = POINT_SIZE;
    gl_PrimitivePointIndicesEXT[i] = i;
}
