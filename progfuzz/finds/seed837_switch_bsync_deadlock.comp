// progfuzz seed 837, workgroup [192, 1, 1] x 1 groups
// sm75 simulator error: workgroup (N, N, N): warp N (invocations N..N): /*NaN*/: barrier deadlock: lanes N wait at BSYNC BN for lanes N-N,N-N,N-N,N-N,N,N-N,N-N, which can never arrive
// workgroup (0, 0, 0): warp 2 (invocations 64..95): /*08a0*/: barrier deadlock: lanes 17 wait at BSYNC B2 for lanes 0-1,3-5,8-10,12-14,16,18-20,22-31, which can never arrive
#version 460
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 192, local_size_y = 1, local_size_z = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint inp[]; };
layout(std430, set = 0, binding = 1) buffer Out { uint outp[]; };
layout(std430, set = 0, binding = 2) buffer Atom { uint at[]; };
shared uint sh[192];
uint div_u32(uint a, uint b) { return b == uint(0) ? a : a / b; }
uint mod_u32(uint a, uint b) { return b == uint(0) ? a : a % b; }
void main() {
    uint gid = gl_LocalInvocationIndex + 192u * gl_WorkGroupID.x;
    uint a0[8] = uint[8](0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u);
    uint v0 = inp[gid * 8u + 0u];
    int v1 = int(inp[gid * 8u + 1u]);
    int v2 = int(inp[gid * 8u + 2u]);
    int v3 = int(inp[gid * 8u + 3u]);
    double v4 = clamp(double(int(int16_t(inp[gid * 8u + 4u]))) * (0.125lf), -1e18lf, 1e18lf);
    uvec2 v5 = uvec2(inp[gid * 8u + 5u]);
    if (false) {
        switch (((0u << ((-v0) & uint(31)))) & 7u) {
        case 2u: {
            v2 = 0;
        }
        default: {
            break;
        }
        }
    } else {
        v0 = (v0 << ((~uint(int16_t(39))) & uint(31)));
    }
    switch (((mod_u32(v0, gl_LocalInvocationIndex) ^ 0u)) & 7u) {
    case 7u: {
        if (((52.5lf) < v4)) {
            if (((false && (v4 <= v4)) ^^ false)) {
                a0[(0u) & 7u] = min((false ? v0 : (false ? v0 : v0)), div_u32(0u, 0u));
            }
        }
        break;
    }
    case 4u: {
        break;
    }
    default: {
        if (((a0[(4294967295u) & 7u] << ((4294967295u | v0) & uint(31))) != 1u)) {
            a0[(0u) & 7u] = ((0u != v0) ? 0u : ((uint8_t(1u) <= uint8_t(255u)) ? 0u : (v0 >> (0u & uint(31)))));
        }
        break;
    }
    }
    outp[gid * 16u + 0u] = uint(v0);
    outp[gid * 16u + 1u] = uint(int(v1));
    outp[gid * 16u + 2u] = uint(int(v2));
    outp[gid * 16u + 3u] = uint(int(v3));
    outp[gid * 16u + 4u] = uint(doubleBitsToUint64(v4));
    outp[gid * 16u + 5u] = uint(doubleBitsToUint64(v4) >> 32);
    outp[gid * 16u + 6u] = v5.x;
    outp[gid * 16u + 7u] = v5.y;
    outp[gid * 16u + 8u] = a0[0];
    outp[gid * 16u + 9u] = a0[1];
    outp[gid * 16u + 10u] = a0[2];
    outp[gid * 16u + 11u] = a0[3];
    outp[gid * 16u + 12u] = a0[4];
    outp[gid * 16u + 13u] = a0[5];
    outp[gid * 16u + 14u] = a0[6];
    outp[gid * 16u + 15u] = a0[7];
}
