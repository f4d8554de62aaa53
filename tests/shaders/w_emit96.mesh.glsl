#version 460
#extension GL_EXT_mesh_shader : require

// Mesh workgroup g shows payload words 32g .. 32g + 31 as points.
layout(local_size_x = 32) in;
layout(points, max_vertices = 32, max_primitives = 32) out;

taskPayloadSharedEXT uint v[96];

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint g = gl_WorkGroupID.x;
    SetMeshOutputsEXT(32, 32);
    gl_MeshVerticesEXT[i].gl_Position = vec4(float(v[g * 32u + i]), float(g), 0.0, 1.0);
    gl_PrimitivePointIndicesEXT[i] = i;
}
