#version 450
// Issue 18 S1: control flow inside a branch that can never run (its
// condition folds to false) left unreachable blocks with parameters.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = o[i];
    uint z = 0u;
    if (z > 0u) { for (uint k = 0u; k < v; k++) { v += k; } }
    o[i] = v * 2u;
}
