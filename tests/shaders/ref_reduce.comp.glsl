#version 460

// Reference runner test: each workgroup sums its 64 words of `values` (with
// 32-bit wrap-around) by a tree reduction in shared memory, one barrier per
// level, and writes the sum and the largest word to its own slot.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer Values { uint values[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Sums { uvec2 sums[]; };

shared uint partial_sum[64];
shared uint partial_max[64];

void main()
{
    uint l = gl_LocalInvocationID.x;
    uint v = values[gl_GlobalInvocationID.x];
    partial_sum[l] = v;
    partial_max[l] = v;
    barrier();
    for (uint stride = 32u; stride > 0u; stride >>= 1) {
        if (l < stride) {
            partial_sum[l] += partial_sum[l + stride];
            partial_max[l] = max(partial_max[l], partial_max[l + stride]);
        }
        barrier();
    }
    if (l == 0u) {
        sums[gl_WorkGroupID.x] = uvec2(partial_sum[0], partial_max[0]);
    }
}
