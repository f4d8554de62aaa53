#version 450
// The divergent loop of scripts/bench-native.sh: every invocation runs its
// own number of rounds (between `iterations` and twice that, varying from
// lane to lane), and inside the loop odd and even rounds of each lane take
// different branches, so the warps split and reconverge all the time.
// Integer and float arithmetic on registers only; one word stored at the end.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint result[]; };
layout(push_constant) uniform Push { uint iterations; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint rounds = iterations + (i * 2654435761u >> 20u) % (iterations + 1u);
    uint a = i * 747796405u + 2891336453u;
    float f = float(i & 1023u);
    for (uint k = 0u; k < rounds; k++) {
        if (((a >> 7u) & 1u) != 0u) {
            a = a * 1664525u + 1013904223u;
            f = f * 0.75 + 1.0;
        } else {
            a ^= a << 13u;
            a ^= a >> 17u;
            f = f * 0.5 + float(k & 7u);
        }
    }
    result[i] = a ^ floatBitsToUint(f);
}
