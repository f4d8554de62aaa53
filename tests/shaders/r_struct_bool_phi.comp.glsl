#version 450
// A function returning a struct that holds bools, with an early return: the
// inlined return value is a block parameter of the struct type, whose bool
// members must stay predicates (Granite's decode/astc.comp, whose BlockMode
// struct has two bools, was refused with "passes a Pred to a Gpr
// parameter").
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
struct S { uint x; bool f; bool g; uint y; };
S decode(uint a) {
    S s;
    s.x = a * 3u;
    s.f = a > 5u;
    s.g = false;
    s.y = 7u;
    if (a == 4u) {
        s.g = true;
        return s;
    }
    s.y = a + 11u;
    return s;
}
void main() {
    uint i = gl_GlobalInvocationID.x;
    S s = decode(v[i]);
    uint r = s.f ? s.x + s.y : s.x * 100u + s.y;
    v[i] = r + (s.g ? 5000u : 0u);
}
