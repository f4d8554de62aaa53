#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

// Buffer device addresses (physical storage buffer pointers), as modern
// meshlet renderers pass their vertex and index buffers: pointers in push
// constants, pointers built from 64-bit integers, aligned accesses.
layout(local_size_x = 64) in;

layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer Positions { vec4 p[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Indices { uint idx[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Header { uint count; uint pad; Positions positions; };

layout(push_constant) uniform Push { Header header; uint64_t indexAddress; uvec2 outAddress; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= header.count) return;
    Indices indices = Indices(indexAddress);
    Indices outIndices = Indices(outAddress);
    vec4 p = header.positions.p[indices.idx[i]];
    outIndices.idx[i] = floatBitsToUint(p.x) ^ uint(uint64_t(header) & 0xffffffffUL);
}
