#version 450
// Image atomics on an r32ui 2D image: every invocation adds to one of four
// texels and keeps the old value, lane 0 swaps texel (0, 1) in when it
// holds 5.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D counters;
layout(set = 0, binding = 1) buffer Out { uint old[32]; uint swapped; } o;

void main() {
    uint i = gl_LocalInvocationID.x;
    o.old[i] = imageAtomicAdd(counters, ivec2(i & 3u, 0), i + 1u);
    if (i == 0u) {
        o.swapped = imageAtomicCompSwap(counters, ivec2(0, 1), 5u, 77u);
    }
}
