#version 460
#extension GL_EXT_mesh_shader : require

// 64 invocations: each writes its payload word, then (after the barrier)
// reads the word of invocation 63 - i, which another logical subgroup wrote.
layout(local_size_x = 64) in;

struct Payload {
    uint a[64];
    uint b[64];
};
taskPayloadSharedEXT Payload p;

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint g = gl_WorkGroupID.x;
    p.a[i] = i * 3u + g;
    barrier();
    p.b[i] = p.a[63u - i] + 1000u;
    EmitMeshTasksEXT(1, 1, 1);
}
