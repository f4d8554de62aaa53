#version 460
#extension GL_EXT_shared_memory_block : require

// WorkgroupMemoryExplicitLayoutKHR: shared blocks with Offset layouts
// alias one another from byte 0. Invocation i writes word i through A;
// B reads it back as uvec2 halves, C as a head word and uvec4s from
// byte 16; a write through C's head is seen through A's word 0.
layout(local_size_x = 64) in;

shared A { uint x[64]; } sa;
shared B { uvec2 y[32]; } sb;
shared C { uint head; uint pad[3]; uvec4 v[15]; } sc;

layout(binding = 0) buffer O { uint o[]; };

void main()
{
    uint i = gl_LocalInvocationIndex;
    sa.x[i] = i * 3u + 1u;
    barrier();
    uint a = sb.y[i / 2u][i % 2u];
    uint b = i >= 4u ? sc.v[(i - 4u) / 4u][i % 4u] : sc.head;
    barrier();
    if (i == 0u) {
        sc.head = 777u;
    }
    barrier();
    o[i] = a * 1000u + b + sa.x[0];
}
