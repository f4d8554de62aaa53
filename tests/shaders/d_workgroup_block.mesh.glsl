#version 460
#extension GL_EXT_mesh_shader : require
#extension GL_EXT_shared_memory_block : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require

// Explicitly laid out Workgroup blocks in a mesh shader (its shared memory
// is in the ISBE): the blocks alias from byte 0 of shared memory and are
// accessed at their own widths. Invocation i writes word i through A; the
// others read it back as uvec2 halves (B), bytes (C, E: signed) and
// 16-bit halves (D); then 8- and 16-bit stores of neighbouring lanes into
// the same words, read back as words.
// Results in o (tests/long_tail.rs).
layout(local_size_x = 32) in;
layout(points, max_vertices = 1, max_primitives = 1) out;

shared A { uint x[32]; } sa;
shared B { uvec2 y[16]; } sb;
shared C { uint8_t b[128]; } sc;
shared D { uint16_t h[64]; } sd;
shared E { int8_t s[128]; } se;

layout(std430, binding = 0) buffer O { uint o[]; };

uint f(uint i) { return (i * 2654435761u) ^ 0x5a5a5a5au; }

void main()
{
    uint i = gl_LocalInvocationIndex;
    sa.x[i] = f(i);
    barrier();
    o[i] = sb.y[i / 2u][i % 2u];
    o[32u + i] = uint(sc.b[4u * i + 1u]);
    o[64u + i] = uint(sd.h[2u * i + 1u]);
    o[96u + i] = uint(int(se.s[4u * i + 3u]));
    barrier();
    sc.b[i] = uint8_t(i + 100u);
    sd.h[32u + i] = uint16_t(i * 1000u + 7u);
    barrier();
    o[128u + i] = sa.x[i];
    SetMeshOutputsEXT(1u, 1u);
    if (i == 0u) {
        gl_MeshVerticesEXT[0].gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
        gl_PrimitivePointIndicesEXT[0] = 0u;
    }
}
