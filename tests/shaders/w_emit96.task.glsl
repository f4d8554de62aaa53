#version 460
#extension GL_EXT_mesh_shader : require

// 96 invocations (three logical subgroups) fill the payload and launch
// three mesh workgroups, one per 32 words.
layout(local_size_x = 96) in;

taskPayloadSharedEXT uint v[96];

void main()
{
    uint i = gl_LocalInvocationIndex;
    v[i] = i * 7u + gl_WorkGroupID.x;
    EmitMeshTasksEXT(3, 1, 1);
}
