#version 460
#extension GL_EXT_mesh_shader : require

// Early returns in a task workgroup of 64 invocations: invocation i < 20
// writes a[i] = i + 1 and returns; the others return unless i % 4 == 0,
// after writing a[i] = i + 500 behind a barrier. Words never written keep
// the simulator's poison. The invocations still running launch one mesh
// workgroup (EmitMeshTasksEXT after the returns).
layout(local_size_x = 64) in;

taskPayloadSharedEXT uint a[64];

void main()
{
    uint i = gl_LocalInvocationIndex;
    if (i < 20u) {
        a[i] = i + 1u;
        return;
    }
    barrier();
    if (i % 4u != 0u) {
        return;
    }
    a[i] = i + 500u;
    EmitMeshTasksEXT(1, 1, 1);
}
