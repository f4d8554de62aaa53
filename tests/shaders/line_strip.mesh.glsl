#version 460
#extension GL_EXT_mesh_shader : require

// A polyline as line primitives: n points, n - 1 segments.
layout(local_size_x = 16) in;
layout(lines, max_vertices = 16, max_primitives = 15) out;

layout(std430, binding = 0) readonly buffer Points { vec2 points[]; };

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(16, 15);
    gl_MeshVerticesEXT[i].gl_Position = vec4(points[i], 0.0, 1.0);
    if (i < 15u) {
        gl_PrimitiveLineIndicesEXT[i] = uvec2(i, i + 1u);
    }
}
