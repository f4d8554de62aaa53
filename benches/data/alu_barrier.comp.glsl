#version 450
// The ALU kernel with barriers (scripts/bench-few-groups.sh): each of
// `phases` phases runs `iterations` rounds of alu_heavy.comp's integer and
// float work on registers, then every invocation publishes its value in
// shared memory and, after a barrier, mixes in its neighbour's, with a
// second barrier before the next phase overwrites the array. Between
// barriers a workgroup's warps are independent and ALU-bound: what a
// dispatch of a few large workgroups gains from running them side by
// side.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint result[]; };
layout(push_constant) uniform Push { uint iterations; uint phases; };
shared uint exchanged[256];

void main()
{
    uint l = gl_LocalInvocationIndex;
    uint i = gl_GlobalInvocationID.x;
    uint a = i;
    uint b = i ^ 0x1234u;
    float f = float(i & 255u) * 0.5;
    float g = 1.0;
    for (uint p = 0u; p < phases; p++) {
        for (uint k = 0u; k < iterations; k++) {
            a = a * b + k;
            b = (b ^ (a >> 3u)) + 0x11u;
            a = (a << 5u) | (b >> 27u);
            b = b * 9u + (a & 0xffu);
            f = fma(f, 0.999, g);
            g = fma(g, 0.5, 0.25);
        }
        exchanged[l] = a;
        barrier();
        b ^= exchanged[(l + 37u) & 255u];
        barrier();
    }
    result[i] = a ^ b ^ floatBitsToUint(f + g);
}
