#version 460
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require

// Subgroup arithmetic on 64-bit integers, doubles and halves: reductions,
// inclusive and exclusive scans, a clustered reduction, and reductions in
// divergent control flow (only the invocations with i % 3 != 0).
layout(local_size_x = 32) in;

layout(binding = 0) buffer In {
    uint64_t a[32];
    int64_t s[32];
    double d[32];
    float16_t h[32];
};

layout(binding = 1) buffer Out {
    uint64_t oa[8][32];
    int64_t os[4][32];
    double od[5][32];
    float16_t oh[4][32];
};

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint64_t x = a[i];
    oa[0][i] = subgroupAdd(x);
    oa[1][i] = subgroupMul(x);
    oa[2][i] = subgroupMin(x);
    oa[3][i] = subgroupMax(x);
    oa[4][i] = subgroupInclusiveAdd(x);
    oa[5][i] = subgroupExclusiveAdd(x);
    oa[6][i] = subgroupAnd(x) ^ subgroupOr(x) ^ subgroupXor(x);
    if (i % 3u != 0u) {
        oa[7][i] = subgroupAdd(x) + subgroupClusteredMax(x, 4u);
    } else {
        oa[7][i] = 0ul;
    }
    int64_t y = s[i];
    os[0][i] = subgroupMin(y);
    os[1][i] = subgroupMax(y);
    os[2][i] = subgroupInclusiveMin(y);
    os[3][i] = subgroupExclusiveMax(y);
    double z = d[i];
    od[0][i] = subgroupAdd(z);
    od[1][i] = subgroupMin(z);
    od[2][i] = subgroupMax(z);
    od[3][i] = subgroupInclusiveMul(z);
    od[4][i] = subgroupExclusiveAdd(z);
    float16_t w = h[i];
    oh[0][i] = subgroupAdd(w);
    oh[1][i] = subgroupMin(w);
    oh[2][i] = subgroupMax(w);
    oh[3][i] = subgroupInclusiveAdd(w);
}
