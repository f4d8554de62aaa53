#version 460
#extension GL_KHR_shader_subgroup_arithmetic : require

// Every subgroup reduction and scan on integers and floats.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Ints { int ints[]; };
layout(std430, binding = 1) buffer Uints { uint uints[]; };
layout(std430, binding = 2) buffer Floats { float floats[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    int a = ints[i];
    uint u = uints[i];
    float f = floats[i];
    ints[i] = subgroupAdd(a) + subgroupInclusiveAdd(a) + subgroupExclusiveAdd(a)
            + subgroupMul(a) + subgroupMin(a) + subgroupMax(a)
            + subgroupInclusiveMin(a) + subgroupExclusiveMax(a);
    uints[i] = subgroupAnd(u) ^ subgroupOr(u) ^ subgroupXor(u) ^ subgroupMin(u) ^ subgroupMax(u)
             ^ subgroupInclusiveOr(u) ^ subgroupExclusiveXor(u) ^ subgroupInclusiveMul(u);
    floats[i] = subgroupAdd(f) + subgroupMul(f) + subgroupMin(f) + subgroupMax(f)
              + subgroupInclusiveAdd(f) + subgroupExclusiveMul(f);
    bool odd = (u & 1u) != 0u;
    if (subgroupAnd(odd) || subgroupOr(odd) != subgroupXor(odd)) {
        uints[i] += 1u;
    }
}
