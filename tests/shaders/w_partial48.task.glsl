#version 460
#extension GL_EXT_mesh_shader : require

// 48 invocations: the second logical subgroup has 16 invocations, and its
// lanes 16..31 must not write (words 48..63 stay zero).
layout(local_size_x = 48) in;

taskPayloadSharedEXT uint a[64];

void main()
{
    uint i = gl_LocalInvocationIndex;
    a[i] = i + 1u;
    EmitMeshTasksEXT(1, 1, 1);
}
