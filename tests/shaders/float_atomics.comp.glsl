#version 460
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require

// Float atomics: accumulating a bounding box and a total on a buffer, and
// a sum in shared memory.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Points { vec4 points[]; };
layout(std430, binding = 1) buffer Bounds { float minX; float maxX; float total; };
shared float groupSum;

void main()
{
    vec4 p = points[gl_GlobalInvocationID.x];
    if (gl_LocalInvocationIndex == 0u) groupSum = 0.0;
    barrier();
    atomicAdd(groupSum, p.w);
    atomicMin(minX, p.x);
    atomicMax(maxX, p.x);
    barrier();
    if (gl_LocalInvocationIndex == 0u) atomicAdd(total, groupSum);
}
