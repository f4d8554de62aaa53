#version 460
#extension GL_EXT_mesh_shader : require

// Separate line segments read from a storage buffer: 32 lines, line i from
// point 2i to point 2i + 1 (tests/runs/line_angles.json: lines at many
// angles, pixel-edge and sub-pixel endpoints, short lines).
layout(local_size_x = 32) in;
layout(lines, max_vertices = 64, max_primitives = 32) out;

layout(std430, binding = 0) readonly buffer Points { vec2 points[]; };

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(64, 32);
    gl_MeshVerticesEXT[2u * i].gl_Position = vec4(points[2u * i], 0.0, 1.0);
    gl_MeshVerticesEXT[2u * i + 1u].gl_Position = vec4(points[2u * i + 1u], 0.0, 1.0);
    gl_PrimitiveLineIndicesEXT[i] = uvec2(2u * i, 2u * i + 1u);
}
