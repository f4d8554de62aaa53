#version 460
#extension GL_EXT_mesh_shader : require

// Refused: 256 vertices x (position + 9 vec4) = 40 components x 8 blocks
// of 32 vertices x 128 bytes = 40960 bytes of output memory (limit 32768).
layout(local_size_x = 32) in;
layout(points, max_vertices = 256, max_primitives = 1) out;

layout(location = 0) out vec4 a0[];
layout(location = 1) out vec4 a1[];
layout(location = 2) out vec4 a2[];
layout(location = 3) out vec4 a3[];
layout(location = 4) out vec4 a4[];
layout(location = 5) out vec4 a5[];
layout(location = 6) out vec4 a6[];
layout(location = 7) out vec4 a7[];
layout(location = 8) out vec4 a8[];

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(32, 1);
    gl_MeshVerticesEXT[i].gl_Position = vec4(1.0);
    a0[i] = vec4(0.0); a1[i] = vec4(1.0); a2[i] = vec4(2.0);
    a3[i] = vec4(3.0); a4[i] = vec4(4.0); a5[i] = vec4(5.0);
    a6[i] = vec4(6.0); a7[i] = vec4(7.0); a8[i] = vec4(8.0);
    if (i == 0u) {
        gl_PrimitivePointIndicesEXT[0] = 0;
    }
}
