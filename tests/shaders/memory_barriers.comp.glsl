#version 460

// Every GLSL barrier: execution barriers and memory barriers on shared,
// buffer and all memory.
layout(local_size_x = 64) in;
layout(std430, binding = 0) coherent buffer Data { uint data[]; };
shared uint stage[64];

void main()
{
    uint i = gl_LocalInvocationIndex;
    stage[i] = data[gl_GlobalInvocationID.x];
    memoryBarrierShared();
    barrier();
    data[gl_GlobalInvocationID.x] = stage[63u - i];
    memoryBarrierBuffer();
    groupMemoryBarrier();
    memoryBarrier();
    barrier();
    data[gl_GlobalInvocationID.x] += stage[i];
}
