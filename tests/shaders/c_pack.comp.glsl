#version 460

// Packing and unpacking without doubles (pack_unpack.comp also packs a
// double, which the backend refuses): tests/math_shaders.rs checks every
// word and component against the GLSL definitions on the CPU.
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer Colours { vec4 c[]; };
layout(std430, binding = 1) writeonly buffer Packed { uvec4 p[]; };
layout(std430, binding = 2) writeonly buffer Halves { uint h[]; };
layout(std430, binding = 3) writeonly buffer Unpacked { vec4 u[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    vec4 v = c[i];
    uvec4 q = uvec4(packUnorm4x8(v), packSnorm4x8(v), packUnorm2x16(v.xy), packSnorm2x16(v.zw));
    uint hv = packHalf2x16(v.xy);
    p[i] = q;
    h[i] = hv;
    u[i * 4u] = unpackUnorm4x8(q.x);
    u[i * 4u + 1u] = unpackSnorm4x8(q.y);
    u[i * 4u + 2u] = vec4(unpackUnorm2x16(q.z), unpackSnorm2x16(q.w));
    u[i * 4u + 3u] = vec4(unpackHalf2x16(hv), unpackHalf2x16(q.y));
}
