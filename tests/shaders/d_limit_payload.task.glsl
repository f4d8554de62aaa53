#version 460
#extension GL_EXT_mesh_shader : require

// Refused: a 16388-byte payload (limit 16384).
layout(local_size_x = 32) in;

taskPayloadSharedEXT uint words[4097];

void main()
{
    words[gl_LocalInvocationIndex] = 1u;
    EmitMeshTasksEXT(1, 1, 1);
}
