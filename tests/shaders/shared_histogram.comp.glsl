#version 460

// A 64-bin histogram: per-workgroup bins in shared memory, merged into the
// global histogram at the end.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Values { float values[]; };
layout(std430, binding = 1) buffer Histogram { uint bins[64]; };
shared uint localBins[64];

void main()
{
    uint i = gl_LocalInvocationIndex;
    if (i < 64u) localBins[i] = 0u;
    memoryBarrierShared();
    barrier();
    float v = clamp(values[gl_GlobalInvocationID.x], 0.0, 0.999);
    atomicAdd(localBins[uint(v * 64.0)], 1u);
    barrier();
    if (i < 64u && localBins[i] != 0u) {
        atomicAdd(bins[i], localBins[i]);
    }
}
