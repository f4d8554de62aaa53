#version 460
#extension GL_EXT_mesh_shader : require

// A task shader: fills its payload (GLSL.std.450 math, a vector times a
// scalar, a barrier) and launches mesh workgroups.
// Built with: glslangValidator -V --target-env vulkan1.3 -o payload.task.spv payload.task.glsl
layout(local_size_x = 32) in;

struct Payload {
    uint base;
    vec2 offset;
    float scale[32];
};
taskPayloadSharedEXT Payload payload;

void main()
{
    uint i = gl_LocalInvocationIndex;
    payload.scale[i] = sqrt(float(i)) * 0.5;
    if (i == 0u) {
        payload.base = gl_WorkGroupID.x * 32u;
        payload.offset = vec2(float(i), 1.0) * payload.scale[i];
    }
    barrier();
    EmitMeshTasksEXT(max(gl_WorkGroupID.x, 1u), 1, 1);
}
