#version 450
// Reads a uniform buffer (std140: the array stride is 16) with a constant
// and a dynamic index.
layout(local_size_x = 32) in;
layout(std140, set = 0, binding = 0) uniform U {
    vec4 scale;
    uint lut[8];
} u;
layout(std430, set = 0, binding = 1) writeonly buffer Out { vec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i] = u.scale * float(u.lut[i & 7u]);
}
