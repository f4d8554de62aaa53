#version 450
// Predicate pressure: 12 comparisons live at once (more than the seven
// predicates P0..P6), then folded in reverse, so predicates spill.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint o[]; };
void main() {
    uint b = gl_GlobalInvocationID.x * 12u;
    bool c0 = a[b + 0u] > 0u;
    bool c1 = a[b + 1u] > 10u;
    bool c2 = a[b + 2u] > 20u;
    bool c3 = a[b + 3u] > 30u;
    bool c4 = a[b + 4u] > 40u;
    bool c5 = a[b + 5u] > 50u;
    bool c6 = a[b + 6u] > 60u;
    bool c7 = a[b + 7u] > 70u;
    bool c8 = a[b + 8u] > 80u;
    bool c9 = a[b + 9u] > 90u;
    bool c10 = a[b + 10u] > 100u;
    bool c11 = a[b + 11u] > 110u;
    uint s = 0u;
    s = s * 2u + (c11 ? 1u : 0u);
    s = s * 2u + (c10 ? 1u : 0u);
    s = s * 2u + (c9 ? 1u : 0u);
    s = s * 2u + (c8 ? 1u : 0u);
    s = s * 2u + (c7 ? 1u : 0u);
    s = s * 2u + (c6 ? 1u : 0u);
    s = s * 2u + (c5 ? 1u : 0u);
    s = s * 2u + (c4 ? 1u : 0u);
    s = s * 2u + (c3 ? 1u : 0u);
    s = s * 2u + (c2 ? 1u : 0u);
    s = s * 2u + (c1 ? 1u : 0u);
    s = s * 2u + (c0 ? 1u : 0u);
    o[gl_GlobalInvocationID.x] = s;
}
