#version 460
#extension GL_EXT_mesh_shader : require

// 64 invocations rotate the payload three times: a loop with a constant
// trip count around two barriers; the value read before the first barrier
// lives across it, per logical subgroup.
layout(local_size_x = 64) in;

taskPayloadSharedEXT uint a[64];

void main()
{
    uint i = gl_LocalInvocationIndex;
    a[i] = i * 10u;
    barrier();
    for (int r = 0; r < 3; r++) {
        uint x = a[(i + 1u) & 63u];
        barrier();
        a[i] = x + 1u;
        barrier();
    }
    EmitMeshTasksEXT(1, 1, 1);
}
