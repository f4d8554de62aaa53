#version 460
#extension GL_EXT_mesh_shader : require

// Refused: 28676 bytes of mesh shared memory (limit 28672).
layout(local_size_x = 32) in;
layout(points, max_vertices = 1, max_primitives = 1) out;

shared uint words[7169];

void main()
{
    words[gl_LocalInvocationIndex] = 1u;
    SetMeshOutputsEXT(0, 0);
}
