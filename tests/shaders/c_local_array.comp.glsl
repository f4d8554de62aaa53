#version 450
// A function-local array indexed dynamically (local memory: STL/LDL).
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t[8];
    for (uint k = 0u; k < 8u; k++) {
        t[k] = v[i] * (k + 1u);
    }
    o[i] = t[v[i] & 7u] + t[(i + 3u) & 7u];
}
