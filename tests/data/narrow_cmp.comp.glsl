#version 460
#extension GL_EXT_shader_explicit_arithmetic_types : require

// A comparison of 16-bit integers cut from 32-bit words: the registers
// keep the words' high bits, which the comparison must not read
// (tests/narrow_ints.rs).
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Data { uint words[]; };

void main()
{
    uint i = gl_LocalInvocationIndex;
    int16_t a = int16_t(int(words[i]));
    int16_t b = int16_t(int(words[i + 32u]));
    words[i] = (a < b) ? 1u : 0u;
}
