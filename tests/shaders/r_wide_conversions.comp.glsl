#version 460
#extension GL_EXT_shader_explicit_arithmetic_types : require
// Issue 18: 64-bit integer functions and conversions the random programs
// needed (abs, sign and clamp of 64-bit integers; f32, f16 <-> i64/u64;
// 8/16-bit integers <-> f64). One invocation per input, ten results each.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B {
    int64_t x[32];
    float f[32];
    double d[32];
    int64_t r[320];
};
void main() {
    uint i = gl_GlobalInvocationID.x;
    int64_t v = x[i];
    uint o = i * 10u;
    r[o + 0u] = abs(v);
    r[o + 1u] = sign(v);
    r[o + 2u] = clamp(v, -1000l, 1000000l);
    r[o + 3u] = int64_t(clamp(uint64_t(v), 5ul, 1ul << 40));
    r[o + 4u] = int64_t(f[i]);
    r[o + 5u] = int64_t(uint64_t(abs(f[i])));
    r[o + 6u] = int64_t(int16_t(d[i]));
    r[o + 7u] = doubleBitsToInt64(double(int16_t(v)) + double(uint8_t(v)));
    r[o + 8u] = int64_t(float16BitsToUint16(float16_t(v)));
    r[o + 9u] = int64_t(float16_t(f[i] * 0.001)) + int64_t(float16BitsToUint16(float16_t(uint64_t(v))));
}
