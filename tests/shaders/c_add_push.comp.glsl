#version 450
// c[i] = a[i] + b[i] * k for i < n, with n and k as push constants.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(set = 0, binding = 2) writeonly buffer C { uint c[]; };
layout(push_constant) uniform Push { uint n; uint k; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.n) {
        c[i] = a[i] + b[i] * pc.k;
    }
}
