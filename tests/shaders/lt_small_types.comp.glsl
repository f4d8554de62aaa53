#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
// The small-type holes of real shaders: f16 dot and cos, u32 -> u8vec4
// bitcasts (unpack8/pack32), u64 and i64 -> f32 conversions.
layout(local_size_x = 32) in;
layout(binding = 0) buffer Data {
    f16vec4 h[32];
    uint packed[32];
    uint64_t wide[32];
    int64_t swide[32];
    float dot_out[32];
    float cos_out[32];
    uint repacked[32];
    float wide_out[32];
    float swide_out[32];
} d;
void main() {
    uint i = gl_LocalInvocationIndex;
    f16vec4 v = d.h[i];
    d.dot_out[i] = float(dot(v, v.wzyx));
    d.cos_out[i] = float(cos(v.x));
    u8vec4 b = unpack8(d.packed[i]);
    d.repacked[i] = pack32(b.wzyx + u8vec4(1));
    d.wide_out[i] = float(d.wide[i]);
    d.swide_out[i] = float(d.swide[i]);
}
