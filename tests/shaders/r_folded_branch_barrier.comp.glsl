#version 450
// Issue 18, progfuzz seed 837: a divergent branch whose condition only the
// backend folds to a constant, nested in another divergent branch. Its
// merge block kept the BSYNC of the convergence barrier the plan gave it,
// but the folded branch emitted no BSSY: the lanes waited at BSYNC B1 for
// the mask an earlier `if` had left in B1 and deadlocked.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = o[i];
    if (v > 2u) {
        if ((i & 1u) == 0u) { for (uint k = 0u; k < (i & 3u); k++) { v += 5u; } }
    }
    if (v < 7u) {
        if ((false && (v <= v)) ^^ false) { v = 100u; }
        v += 1u;
    }
    o[i] = v * 2u;
}
