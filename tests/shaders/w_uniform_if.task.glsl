#version 460
#extension GL_EXT_mesh_shader : require

// 64 invocations: divergent code (an if and a loop whose trip count depends
// on the invocation) between barriers, and barriers inside an if on the
// workgroup id, which is uniform.
layout(local_size_x = 64) in;

taskPayloadSharedEXT uint a[64];

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint x = i;
    if ((i & 1u) == 0u) {
        x = i * 5u;
    }
    for (uint k = 0u; k < (i & 3u); k++) {
        x += 1u;
    }
    a[i] = x;
    if (gl_WorkGroupID.x == 1u) {
        barrier();
        uint y = a[63u - i];
        barrier();
        a[i] = y + 100u;
    }
    EmitMeshTasksEXT(1, 1, 1);
}
