#version 450
// The ALU-heavy compute kernel of scripts/bench-sim-scaling.sh: every
// invocation runs `iterations` rounds of integer multiply-add, shifts,
// logic and float FMA on registers (no memory access inside the loop),
// then stores one word, so the output bytes show that every thread count
// computed the same thing. The round count is a push constant so that
// the compiler cannot fold or unroll the loop.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint result[]; };
layout(push_constant) uniform Push { uint iterations; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint a = i;
    uint b = i ^ 0x1234u;
    float f = float(i & 255u) * 0.5;
    float g = 1.0;
    for (uint k = 0u; k < iterations; k++) {
        a = a * b + k;
        b = (b ^ (a >> 3u)) + 0x11u;
        a = (a << 5u) | (b >> 27u);
        b = b * 9u + (a & 0xffu);
        f = fma(f, 0.999, g);
        g = fma(g, 0.5, 0.25);
    }
    result[i] = a ^ b ^ floatBitsToUint(f + g);
}
