#version 450
// Sum of 256 values per workgroup: a tree reduction in shared memory with a
// barrier after every level (8 warps).
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint sums[]; };
shared uint tmp[256];
void main() {
    uint l = gl_LocalInvocationIndex;
    uint g = gl_WorkGroupID.x;
    tmp[l] = data[g * 256u + l];
    barrier();
    for (uint s = 256u / 2u; s > 0u; s >>= 1u) {
        if (l < s) {
            tmp[l] += tmp[l + s];
        }
        barrier();
    }
    if (l == 0u) {
        sums[g] = tmp[0];
    }
}
