// progfuzz seed 300, workgroup [40, 1, 1] x 1 groups
// sm75 mismatch: binding 1
// binding 1: 7 words differ; first at word 53: interpreter 0x80000000, simulator 0x00000000
#version 460
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 40, local_size_y = 1, local_size_z = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint inp[]; };
layout(std430, set = 0, binding = 1) buffer Out { uint outp[]; };
layout(std430, set = 0, binding = 2) buffer Atom { uint at[]; };
shared uint sh[40];
uint f0(uvec2 v0) {
    uint a0[8] = uint[8](0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u);
    uint v1 = 0u;
    uint v2 = 0u;
    return 61u;
}
uint16_t f1(uvec2 v0) {
    uint a0[8] = uint[8](0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u);
    ivec3 v1 = ivec3(0);
    uint64_t v2 = 18446744073709551615ul;
    return uint16_t(0u);
}
void main() {
    uint gid = gl_LocalInvocationIndex + 40u * gl_WorkGroupID.x;
    uint a0[8] = uint[8](0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u);
    uint v0 = 0u;
    float v1 = clamp(float(int(int16_t(inp[gid * 8u + 1u]))) * (0.125), -1e18, 1e18);
    uint16_t v2 = uint16_t(0u);
    uint64_t v3 = 0ul;
    v1 = max((0.0), clamp(v1 * (0.0), -1e18, 1e18));
    outp[gid * 13u + 0u] = uint(v0);
    outp[gid * 13u + 1u] = floatBitsToUint(v1);
    outp[gid * 13u + 2u] = uint(v2);
    outp[gid * 13u + 3u] = uint(uint64_t(v3));
    outp[gid * 13u + 4u] = uint(uint64_t(v3) >> 32);
    outp[gid * 13u + 5u] = a0[0];
    outp[gid * 13u + 6u] = a0[1];
    outp[gid * 13u + 7u] = a0[2];
    outp[gid * 13u + 8u] = a0[3];
    outp[gid * 13u + 9u] = a0[4];
    outp[gid * 13u + 10u] = a0[5];
    outp[gid * 13u + 11u] = a0[6];
    outp[gid * 13u + 12u] = a0[7];
}
