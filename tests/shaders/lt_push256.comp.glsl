#version 460

// A 256-byte push-constant block (NVIDIA's maxPushConstantsSize; niagara's
// Globals is 208 bytes): constant and dynamic indices past byte 128.
layout(local_size_x = 64) in;

layout(push_constant) uniform Push {
    uint w[60];
    uvec4 last;
} pc;

layout(binding = 0) buffer Out { uint o[]; };

void main()
{
    uint i = gl_LocalInvocationIndex;
    o[i] = pc.w[i % 60u] + 1000u * pc.last[i % 4u] + pc.w[59] * 1000000u;
}
