#version 460

// One float function per output slot, applied to a pair (a, b) per
// invocation: tests/math.rs checks each slot against a reference, with
// NaN, infinities, signed zeros and denormals among the inputs.
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer Pairs { vec2 ab[]; };
layout(std430, binding = 1) writeonly buffer Results { float r[]; };
layout(std430, binding = 2) writeonly buffer Exponents { int e[]; };

const uint SLOTS = 40;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    float a = ab[i].x, b = ab[i].y;
    uint o = i * SLOTS;
    r[o + 0] = a / b;
    r[o + 1] = mod(a, b);
    r[o + 2] = floor(a);
    r[o + 3] = ceil(a);
    r[o + 4] = fract(a);
    r[o + 5] = trunc(a);
    r[o + 6] = roundEven(a);
    r[o + 7] = sign(a);
    r[o + 8] = min(a, b);
    r[o + 9] = max(a, b);
    r[o + 10] = clamp(a, -1.0, 1.0);
    r[o + 11] = sqrt(a);
    r[o + 12] = inversesqrt(a);
    r[o + 13] = exp2(a);
    r[o + 14] = log2(a);
    r[o + 15] = sin(a);
    r[o + 16] = cos(a);
    r[o + 17] = tan(a);
    r[o + 18] = asin(a);
    r[o + 19] = acos(a);
    r[o + 20] = atan(a);
    r[o + 21] = atan(a, b);
    r[o + 22] = sinh(a);
    r[o + 23] = cosh(a);
    r[o + 24] = tanh(a);
    r[o + 25] = asinh(a);
    r[o + 26] = acosh(a);
    r[o + 27] = atanh(a);
    r[o + 28] = pow(a, b);
    r[o + 29] = exp(a);
    r[o + 30] = log(a);
    r[o + 31] = mix(a, b, 0.25);
    r[o + 32] = step(b, a);
    r[o + 33] = smoothstep(-1.0, 2.0, a);
    r[o + 34] = fma(a, b, 0.5);
    r[o + 35] = radians(a) + degrees(b);
    r[o + 36] = ldexp(a, int(b));
    int ex;
    r[o + 37] = frexp(a, ex);
    e[i] = ex;
    float whole;
    r[o + 38] = modf(a, whole);
    r[o + 39] = whole;
}
