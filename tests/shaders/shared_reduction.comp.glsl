#version 460

// Tree reduction in shared memory: the sum of 256 floats per workgroup.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer In { float values[]; };
layout(std430, binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[256];

void main()
{
    uint i = gl_LocalInvocationIndex;
    partial[i] = values[gl_GlobalInvocationID.x];
    barrier();
    for (uint stride = 128u; stride > 0u; stride >>= 1) {
        if (i < stride) {
            partial[i] += partial[i + stride];
        }
        barrier();
    }
    if (i == 0u) {
        sums[gl_WorkGroupID.x] = partial[0];
    }
}
