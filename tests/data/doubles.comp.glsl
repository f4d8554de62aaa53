#version 460

// Double-precision arithmetic, division, square roots, comparisons,
// rounding and conversions on operand pairs (tests/floats64.rs).
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer A { double a[]; };
layout(std430, binding = 1) readonly buffer B { double b[]; };
layout(std430, binding = 2) writeonly buffer R { double r[]; };
layout(std430, binding = 3) writeonly buffer W { uint w[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    double x = a[i], y = b[i];
    uint o = 16 * i;
    r[o + 0] = x + y;
    r[o + 1] = x - y;
    r[o + 2] = x * y;
    r[o + 3] = fma(x, y, x);
    r[o + 4] = x / y;
    r[o + 5] = sqrt(x);
    r[o + 6] = min(x, y);
    r[o + 7] = max(x, y);
    r[o + 8] = floor(x);
    r[o + 9] = ceil(x);
    r[o + 10] = trunc(x);
    r[o + 11] = roundEven(x);
    r[o + 12] = -abs(y);
    r[o + 13] = x < y ? x * 2.0lf : y - 0.5lf;
    r[o + 14] = double(float(x)) + double(int(i)) - double(uint(i) * 3u);
    r[o + 15] = clamp(x, -1.0lf, 1.0lf);
    uint flags = 0;
    flags |= x < y ? 1u : 0u;
    flags |= x <= y ? 2u : 0u;
    flags |= x > y ? 4u : 0u;
    flags |= x >= y ? 8u : 0u;
    flags |= x == y ? 16u : 0u;
    flags |= x != y ? 32u : 0u;
    flags |= isnan(x) ? 64u : 0u;
    flags |= isinf(y) ? 128u : 0u;
    uint k = 4 * i;
    w[k] = flags;
    w[k + 1] = floatBitsToUint(float(y));
    w[k + 2] = uint(int(clamp(x, -2e9lf, 2e9lf)));
    w[k + 3] = uint(clamp(y, 0.0lf, 4e9lf));
}
