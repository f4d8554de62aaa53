#version 450
// Integer division and remainder of each pair: unsigned / and % (OpUDiv,
// OpUMod) and signed / and % (OpSDiv, OpSMod), which the backend expands
// (the ISA has no integer divide).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uvec2 pairs[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uvec4 results[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec2 p = pairs[i];
    int a = int(p.x);
    int b = int(p.y);
    results[i] = uvec4(p.x / p.y, p.x % p.y, uint(a / b), uint(a % b));
}
