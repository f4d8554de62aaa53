#version 460
#extension GL_EXT_mesh_shader : require

// Refused: a store to a user output under two dynamic indices (a matrix
// column and a component); one is selected at run time, two are not.
layout(local_size_x = 32) in;
layout(points, max_vertices = 32, max_primitives = 32) out;

layout(location = 0) out mat3 m[];

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(32, 32);
    gl_MeshVerticesEXT[i].gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
    gl_PrimitivePointIndicesEXT[i] = i;
    m[i][i % 3u][(i + 1u) % 3u] = 1.0;
}
