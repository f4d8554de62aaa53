#version 460
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// 8-, 16- and 64-bit integers as glslang emits them: u8 index stores,
// 16-bit arithmetic and 64-bit sums.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Bytes { uint8_t indices[]; };
layout(std430, binding = 1) buffer Shorts { int16_t shorts[]; };
layout(std430, binding = 2) buffer Wide { uint64_t total; int64_t signedTotal; };

void main()
{
    uint id = gl_GlobalInvocationID.x;
    uint8_t b = indices[id];
    indices[id] = uint8_t((uint(b) * 3u) & 0xffu);
    int16_t h = shorts[id];
    shorts[id] = h * int16_t(2) - int16_t(1);
    uint64_t wide = uint64_t(id) << 40;
    total = wide + uint64_t(b);
    signedTotal = int64_t(h) * -5l;
}
