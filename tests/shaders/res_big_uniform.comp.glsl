#version 460
// A uniform buffer declared larger than a constant bank (80000 bytes):
// read with global loads through the root table's set-0 entry, not LDC.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) uniform Big { uvec4 d[5000]; } big;
layout(set = 0, binding = 1) writeonly buffer Out { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i] = big.d[(i * 157u) % 5000u].y + big.d[4999].w;
}
