#version 450
// Issue 18 S2: an early return inside a loop of an inlined function left
// the loop's BSSY/BSYNC region past its merge; the other lanes waited at
// the BSYNC forever.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { int o[]; };
shared int sh[32];
int f(int x) {
    for (int k = 0; k < 4; k++) {
        int p = x + k;
        if (p >= 0) return k;
    }
    return 9;
}
void main() {
    uint i = gl_LocalInvocationID.x;
    int r = f(o[i]);
    sh[i] = r;
    barrier();
    o[i] = sh[31u - i] + r * 10;
}
