#version 460

// Branches every invocation takes the same way: on push constants, a
// uniform buffer value, the workgroup id and a loop bounded by a push
// constant. None needs a convergence barrier.
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint mode; uint count; };
layout(std140, binding = 0) uniform Params { uint threshold; };
layout(std430, binding = 1) buffer Data { uint data[]; };

void main()
{
    uint id = gl_GlobalInvocationID.x;
    uint v = data[id];
    if (mode == 1u) {
        v = v * 3u;
    } else {
        v = v + 7u;
    }
    for (uint i = 0u; i < count; i++) {
        if (i == threshold) {
            v ^= 0x100u;
        }
        v += i;
    }
    switch (gl_WorkGroupID.x) {
    case 0u: v += 1000u; break;
    case 1u: v += 2000u; break;
    default: break;
    }
    data[id] = v;
}
