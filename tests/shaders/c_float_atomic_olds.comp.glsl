#version 460
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require

// Float atomics whose old values are read, emulated with CAS loops: adds
// of 1.0 on shared memory hand out tickets; min on a buffer and max on
// shared memory; only the odd invocations (divergent lanes) add their
// values on a second shared word; min on shared and max on a buffer with
// the old value unread.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Vals { float vals[]; };
layout(std430, binding = 1) buffer Olds { vec4 olds[]; };
layout(std430, binding = 2) buffer Totals { float bmin; float bmax; float groups[]; };
shared float tickets;
shared float odd_sum;
shared float smin;
shared float smax;

void main()
{
    uint l = gl_LocalInvocationIndex;
    uint g = gl_WorkGroupID.x;
    float v = vals[gl_GlobalInvocationID.x];
    if (l == 0u) {
        tickets = 0.0;
        odd_sum = 0.0;
        smin = 1.0e30;
        smax = -1.0e30;
    }
    barrier();
    vec4 o;
    o.x = atomicAdd(tickets, 1.0);
    o.y = atomicMin(bmin, v);
    o.z = atomicMax(smax, v);
    o.w = -1.0;
    if ((l & 1u) == 1u) {
        o.w = atomicAdd(odd_sum, v);
    }
    atomicMin(smin, v);
    atomicMax(bmax, v);
    olds[gl_GlobalInvocationID.x] = o;
    barrier();
    if (l == 0u) {
        groups[g * 4u] = tickets;
        groups[g * 4u + 1u] = odd_sum;
        groups[g * 4u + 2u] = smin;
        groups[g * 4u + 3u] = smax;
    }
}
