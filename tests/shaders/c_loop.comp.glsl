#version 450
// A loop with continue and a data-dependent break: lanes leave it at
// different iterations.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint acc = 0u;
    for (uint k = 0u; k < 64u; k++) {
        uint x = v[i] + k;
        if ((x & 3u) == 0u) {
            continue;
        }
        if (x > 40u + i) {
            break;
        }
        acc += x * k;
    }
    o[i] = acc;
}
