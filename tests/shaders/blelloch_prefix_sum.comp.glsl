#version 460

// Work-efficient exclusive prefix sum (Blelloch): up-sweep, clear, down-sweep.
layout(local_size_x = 128) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
shared uint temp[256];

void main()
{
    uint t = gl_LocalInvocationIndex;
    uint base = gl_WorkGroupID.x * 256u;
    temp[2u * t] = data[base + 2u * t];
    temp[2u * t + 1u] = data[base + 2u * t + 1u];
    uint offset = 1u;
    for (uint d = 128u; d > 0u; d >>= 1) {
        barrier();
        if (t < d) {
            uint ai = offset * (2u * t + 1u) - 1u;
            uint bi = offset * (2u * t + 2u) - 1u;
            temp[bi] += temp[ai];
        }
        offset *= 2u;
    }
    if (t == 0u) {
        temp[255] = 0u;
    }
    for (uint d = 1u; d < 256u; d *= 2u) {
        offset >>= 1;
        barrier();
        if (t < d) {
            uint ai = offset * (2u * t + 1u) - 1u;
            uint bi = offset * (2u * t + 2u) - 1u;
            uint x = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += x;
        }
    }
    barrier();
    data[base + 2u * t] = temp[2u * t];
    data[base + 2u * t + 1u] = temp[2u * t + 1u];
}
