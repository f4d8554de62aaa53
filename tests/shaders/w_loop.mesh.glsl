#version 460
#extension GL_EXT_mesh_shader : require

// Vertex i shows payload word i.
layout(local_size_x = 64) in;
layout(points, max_vertices = 64, max_primitives = 64) out;

taskPayloadSharedEXT uint a[64];

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(64, 64);
    gl_MeshVerticesEXT[i].gl_Position = vec4(float(a[i]), 0.0, 0.0, 1.0);
    gl_PrimitivePointIndicesEXT[i] = i;
}
