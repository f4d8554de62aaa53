#version 450
// Issue 18 S1: control flow inside a branch that can never run (its
// condition folds to false) left unreachable blocks with parameters.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = o[i];
    if (false) { if (v == 3u) { v = 1u; } }
    o[i] = v + 1u;
}
