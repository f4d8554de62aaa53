#version 450
// Issue 18 S3 (progfuzz seed 1000226 reduced): a double chosen by a
// branch inside a loop. Both paths give the same low word, so the
// predicate pass merged that block parameter into one value, renaming the
// DSETP's pair operand's key but not its members: the pair read a removed
// parameter (a debug build's verifier: "never defined"; release:
// "register allocation failed: EntryLivein").
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = o[i];
    bool b = false;
    uint n = 0u;
    for (uint k = 0u; k < 3u; k++) {
        if ((0.0lf) >= ((v != k) ? (b ? (-17.75lf) : (60.25lf)) : (0.0lf))) continue;
        n += 1u + k;
    }
    o[i] = n;
}
