#version 460

// Dynamic indices into arrays of structs inside buffers (a runtime array
// and a sized array member), reading whole structs and single members
// (a vector component and an array element, each at a dynamic index)
// and writing members at dynamic indices.
layout(local_size_x = 32) in;

struct S {
    uint a;
    vec2 b;
    uint c[3];
};

layout(binding = 0) buffer B { S s[]; } buf;
layout(binding = 1) buffer U { S t[8]; uint o[]; } ub;

void main()
{
    uint i = gl_LocalInvocationIndex;
    S v = buf.s[i % 5u];
    ub.o[i] = v.a + v.c[i % 3u] + uint(ub.t[i % 8u].b.y) + ub.t[(i + 1u) % 8u].c[i % 3u];
    barrier();
    buf.s[i].c[(i + 2u) % 3u] = i;
    if (i < 16u) {
        ub.t[i % 8u].b[i / 8u] = float(i);
    }
}
