#version 460
#extension GL_EXT_mesh_shader : require

// The facts' statistics example (nvidia-facts.md §4): one task workgroup of
// 32 invocations launches 4 mesh workgroups of 32 (taskInvocations 32,
// meshInvocations 128). The payload tells each mesh workgroup which
// primitives to cull (those with p & cull_mask == 0).
layout(local_size_x = 32) in;

taskPayloadSharedEXT uint cull_mask;

void main()
{
    if (gl_LocalInvocationIndex == 0u) {
        cull_mask = 3u;
    }
    EmitMeshTasksEXT(4, 1, 1);
}
