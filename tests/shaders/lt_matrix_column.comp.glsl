#version 450
// Access chains into a matrix column inside a buffer (m[i], m[i][j]),
// row- and column-major, read and written with a dynamic index.
layout(local_size_x = 4) in;
layout(binding = 0, std430) buffer Data {
    layout(row_major) mat4 r;
    layout(column_major) mat4 c;
    vec4 outr[4];
    vec4 outc[4];
} d;
void main() {
    uint i = gl_LocalInvocationIndex;
    d.outr[i] = d.r[i];
    d.outc[i] = d.c[i];
    d.c[i] = d.r[i] * 2.0;
    d.r[i][i] = 7.0;
}
