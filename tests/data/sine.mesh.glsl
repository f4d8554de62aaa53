#version 460
#extension GL_EXT_mesh_shader : require

// sin() of a varying value: FMUL by 1/2π, then MUFU.SIN (tests/images.rs
// checks the one white pixel it draws).
layout(local_size_x = 1) in;
layout(points, max_vertices = 1, max_primitives = 1) out;

void main()
{
    SetMeshOutputsEXT(1, 1);
    gl_MeshVerticesEXT[0].gl_Position = vec4(sin(float(gl_LocalInvocationIndex)), 0.0, 0.0, 1.0);
    gl_PrimitivePointIndicesEXT[0] = 0;
}
