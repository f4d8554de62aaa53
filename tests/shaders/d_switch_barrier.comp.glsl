#version 460

// A switch whose cases hold barriers, its selector read from shared memory
// (written by invocation 0 from a buffer): dynamically uniform, as Vulkan
// requires around a barrier. The size is spec constant 0 (64 by default;
// tests/wide_workgroups.rs also uses 128). Cases 1 and 4 share a body,
// case 2 falls through into case 3, the default has a barrier too.
layout(local_size_x = 64, local_size_x_id = 0) in;

layout(binding = 0) readonly buffer Modes { uint modes[]; };
layout(binding = 1) writeonly buffer Results { uint results[]; };

shared uint mode;
shared uint data[128];

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint n = gl_WorkGroupSize.x;
    uint g = gl_WorkGroupID.x;
    if (i == 0u) {
        mode = modes[g];
    }
    data[i] = 3u * i + g;
    barrier();
    uint r = 0u;
    switch (mode) {
    case 0u:
        r = data[(i + 1u) % n];
        break;
    case 1u:
    case 4u: {
        uint t = data[n - 1u - i];
        barrier();
        data[i] = t + 100u;
        barrier();
        r = data[(i + 5u) % n];
        break;
    }
    case 2u:
        barrier();
        r = data[i] * 2u;
    case 3u:
        r += 7u;
        barrier();
        break;
    default:
        barrier();
        r = 0xdead0000u + mode;
        break;
    }
    results[g * n + i] = r;
}
