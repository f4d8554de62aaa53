#version 450
// The memory-bound copy of scripts/bench-native.sh: each invocation copies
// `per_thread` 16-byte elements, strided by the dispatch's size so that a
// warp's accesses are contiguous, with a small change (so a copy cannot be
// skipped) and no other arithmetic.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Src { uvec4 src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { uvec4 dst[]; };
layout(push_constant) uniform Push { uint per_thread; };

void main()
{
    uint stride = gl_NumWorkGroups.x * 64u;
    for (uint k = 0u; k < per_thread; k++) {
        uint at = k * stride + gl_GlobalInvocationID.x;
        dst[at] = src[at] ^ uvec4(k);
    }
}
