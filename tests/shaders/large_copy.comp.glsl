#version 450
// Copies of large arrays (issue 18, tests/large_copies.rs): a buffer's
// array into a local one (the strides differ), a local array into another
// (one type), and a local array back into the buffer under a branch. Each
// is one loop over the elements; unrolled, register allocation over the
// thousands of components was quadratic in the array's length.
layout(local_size_x = 32) in;

const uint N = 300u;

layout(std430, set = 0, binding = 0) buffer Data {
    uint src[N];
    vec4 vsrc[N];
    uint back[N];
    uint o[32];
} d;

void main() {
    uint i = gl_LocalInvocationID.x;
    uint a[N] = d.src;
    a[i % N] += i;
    uint b[N] = a;
    b[(i * 7u) % N] ^= 0x55u;
    vec4 v[N] = d.vsrc;
    v[i].y += 1.0;
    d.o[i] = b[(i * 3u + 1u) % N] + a[(i * 5u + 2u) % N] + floatBitsToUint(v[i].y)
        + uint(v[(i * 11u) % N].w);
    if (i == 5u) {
        d.back = b;
    }
}
