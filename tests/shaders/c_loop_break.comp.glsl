#version 450
// An endless loop left by a `break` inside an `if`: the `if` must get no
// convergence barrier of its own (its breaking lanes never reach its merge),
// and the lanes meet again at the loop's merge. Invocation i leaves at
// iteration i + 1.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
void main() {
    uint i = gl_LocalInvocationIndex;
    uint n = 0u;
    for (;;) {
        n += 1u;
        if (n > i) {
            v[i + 32u] = n * 10u;
            break;
        }
    }
    v[i] = n;
}
