#version 460
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

// 16- and 64-bit floats: storage, arithmetic and conversions.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Halves { f16vec4 h[]; };
layout(std430, binding = 1) buffer Doubles { double d[]; };

void main()
{
    uint id = gl_GlobalInvocationID.x;
    f16vec4 a = h[id];
    a = a * float16_t(0.5) + f16vec4(1.0);
    h[id] = a;
    double x = d[id];
    d[id] = x * x + double(a.x) - 1.0lf / 3.0lf;
}
