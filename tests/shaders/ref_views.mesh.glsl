#version 460
#extension GL_EXT_mesh_shader : require
#extension GL_EXT_multiview : require

// Reference runner test for multiview: view v draws the triangle moved right
// by v / 4 of the image, in a colour of its own (constant over the triangle).
layout(local_size_x = 32) in;
layout(triangles, max_vertices = 3, max_primitives = 1) out;

layout(location = 0) out vec4 colour[];

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint v = uint(gl_ViewIndex);
    SetMeshOutputsEXT(3, 1);
    if (i < 3u) {
        float x = float(i) * 0.5 - 0.75 + float(v) * 0.5;
        float y = i == 1u ? 0.5 : -0.5;
        gl_MeshVerticesEXT[i].gl_Position = vec4(x, y, 0.0, 1.0);
        colour[i] = vec4(v == 0u ? 1.0 : 0.0, v == 1u ? 1.0 : 0.0, 0.5, 1.0);
    }
    if (i == 0u) {
        gl_PrimitiveTriangleIndicesEXT[0] = uvec3(0, 1, 2);
    }
}
