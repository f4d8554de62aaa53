#version 450
// Dynamic indices into a private array of structs (and into an array
// member of one).
layout(local_size_x = 32) in;
struct S { uint a; vec2 b; uint c[3]; };
layout(binding = 0) buffer Data { uint o[]; } d;
void main() {
    S s[4];
    for (int j = 0; j < 4; j++) {
        s[j].a = uint(j);
        s[j].b = vec2(j);
        s[j].c[0] = uint(j) * 10u;
        s[j].c[1] = 1u;
        s[j].c[2] = 2u;
    }
    uint i = gl_LocalInvocationIndex;
    S t = s[i % 4u];
    d.o[i] = t.a + uint(t.b.y) + t.c[i % 3u] + s[(i + 1u) % 4u].c[0];
}
