#version 460
#extension GL_EXT_mesh_shader : require

// Refused: 16 x 3 x 3 = 144 invocations (limit 128).
layout(local_size_x = 16, local_size_y = 3, local_size_z = 3) in;
layout(points, max_vertices = 1, max_primitives = 1) out;

void main()
{
    SetMeshOutputsEXT(0, 0);
}
