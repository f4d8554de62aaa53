#version 460
#extension GL_EXT_mesh_shader : require

// One triangle from a full warp: invocations 0..2 each write their own vertex
// (position and a per-vertex colour), invocation 0 writes the index tuple.
layout(local_size_x = 32) in;
layout(triangles, max_vertices = 3, max_primitives = 1) out;

layout(location = 0) out vec4 colour[];

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(3, 1);
    if (i < 3u) {
        float x = float(i) * 0.5 - 0.5;
        float y = i == 1u ? 0.5 : -0.5;
        gl_MeshVerticesEXT[i].gl_Position = vec4(x, y, 0.0, 1.0);
        colour[i] = vec4(i == 0u ? 1.0 : 0.0, i == 1u ? 1.0 : 0.0, i == 2u ? 1.0 : 0.0, 1.0);
    }
    if (i == 0u) {
        gl_PrimitiveTriangleIndicesEXT[0] = uvec3(0, 1, 2);
    }
}
