#version 460

// GLSL.std.450 on floats: rounding, sign, exponentials, trigonometry and
// hyperbolics, clamps and interpolation, frexp/ldexp/modf, NaN and Inf tests.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Data { vec4 v[]; };
layout(std430, binding = 1) buffer Ints { ivec4 e[]; };

void main()
{
    uint id = gl_GlobalInvocationID.x;
    vec4 x = v[id];
    vec4 r = abs(x) + sign(x) + floor(x) + ceil(x) + fract(x) + trunc(x) + round(x) + roundEven(x);
    r += mod(x, 3.0) + min(x, 1.0) + max(x, -1.0) + clamp(x, -2.0, 2.0);
    r += mix(x, r, 0.25) + step(0.5, x) + smoothstep(0.0, 1.0, x) + fma(x, r, x);
    r += pow(abs(x), vec4(1.5)) + exp(x) + log(abs(x) + 1.0) + exp2(x) + log2(abs(x) + 1.0);
    r += sqrt(abs(x)) + inversesqrt(abs(x) + 1.0);
    r += sin(x) + cos(x) + tan(x) + asin(clamp(x, -1.0, 1.0)) + acos(clamp(x, -1.0, 1.0)) + atan(x) + atan(x, r);
    r += sinh(x) + cosh(x) + tanh(x) + asinh(x) + acosh(abs(x) + 1.0) + atanh(clamp(x, -0.5, 0.5));
    r += radians(x) + degrees(x);
    ivec4 exponent;
    vec4 mant = frexp(x, exponent);
    vec4 whole;
    vec4 part = modf(x, whole);
    r += ldexp(mant, exponent) + part + whole;
    bvec4 bad = bvec4(isnan(x.x), isinf(x.y), isnan(r.z), isinf(r.w));
    v[id] = any(bad) ? vec4(0.0) : r;
    e[id] = exponent + ivec4(abs(ivec4(x)) * sign(ivec4(r)));
}
