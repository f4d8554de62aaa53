#version 460

// Reference runner test: buffer atomics from every invocation. Order-free
// results only (counts, histogram, minimum, maximum), since the order in
// which atomics land is up to the hardware.
layout(local_size_x = 32, local_size_y = 2) in;

layout(set = 0, binding = 0, std430) readonly buffer Values { uint values[]; };
layout(set = 0, binding = 1, std430) buffer Counters {
    uint multiples_of_three;
    uint smallest;
    uint largest;
    uint histogram[8];
};

void main()
{
    uint i = gl_WorkGroupID.x * 64u + gl_LocalInvocationIndex;
    uint v = values[i];
    if (v % 3u == 0u) {
        atomicAdd(multiples_of_three, 1u);
    }
    atomicMin(smallest, v);
    atomicMax(largest, v);
    atomicAdd(histogram[v & 7u], 1u);
}
