#version 460
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_clustered : require

// Subgroup operations in divergent control flow and in a partial last
// warp (48 invocations: the second warp has 16 lanes): only the executing
// invocations take part. 16 result words per invocation.
layout(local_size_x = 48) in;
layout(std430, binding = 0) buffer In { uint vals[]; };
layout(std430, binding = 1) buffer Out { uint outs[]; };

void main()
{
    uint g = gl_GlobalInvocationID.x;
    uint v = vals[g];
    uint o = g * 16u;
    if (v % 3u != 0u) {
        outs[o] = subgroupAdd(v);
        outs[o + 1u] = subgroupInclusiveAdd(v);
        outs[o + 2u] = subgroupExclusiveAdd(v);
        outs[o + 3u] = subgroupMax(v);
        outs[o + 4u] = subgroupInclusiveMul(v);
        outs[o + 5u] = subgroupClusteredAdd(v, 4u);
        outs[o + 6u] = subgroupClusteredMin(v, 8u);
        outs[o + 7u] = subgroupBroadcastFirst(v);
        outs[o + 8u] = subgroupBallot(true).x;
        outs[o + 9u] = subgroupElect() ? 1u : 0u;
        outs[o + 10u] = subgroupAll(v > 5u) ? 1u : 0u;
        outs[o + 11u] = subgroupAny(v == 7u) ? 1u : 0u;
        outs[o + 12u] = floatBitsToUint(subgroupExclusiveAdd(float(v)));
        outs[o + 13u] = subgroupAllEqual(v & 1u) ? 1u : 0u;
        outs[o + 14u] = subgroupExclusiveMax(v);
        outs[o + 15u] = subgroupBallotExclusiveBitCount(subgroupBallot((v & 1u) == 1u));
    } else {
        outs[o] = subgroupOr(v);
        outs[o + 1u] = subgroupInclusiveXor(v);
    }
}
