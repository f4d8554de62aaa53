#version 460
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

// 64-bit integer arithmetic, shifts, multiplies, comparisons and conversions, one pair of
// operands per invocation (tests/wide_ints.rs checks every result).
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer A { uint64_t a[]; };
layout(std430, binding = 1) readonly buffer B { uint64_t b[]; };
layout(std430, binding = 2) writeonly buffer R { uint64_t r[]; };
layout(std430, binding = 3) writeonly buffer F { uint flags[]; };
layout(std430, binding = 4) writeonly buffer S { uint64_t s[]; };

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint64_t x = a[i];
    uint64_t y = b[i];
    r[8 * i + 0] = x + y;
    r[8 * i + 1] = x - y;
    r[8 * i + 2] = -x;
    r[8 * i + 3] = (x ^ y) | (~x & 0xff00ff00ff00ff00ul);
    r[8 * i + 4] = uint64_t(uint(x)) + 0xfffffffful;
    r[8 * i + 5] = uint64_t(int64_t(int(uint(y))));
    r[8 * i + 6] = x + 0x100000001ul - 5ul;
    r[8 * i + 7] = i > 15u ? x : y;
    int64_t sx = int64_t(x), sy = int64_t(y);
    uint n = (i * 33u + uint(y)) & 63u;
    s[8 * i + 0] = x << n;
    s[8 * i + 1] = x >> n;
    s[8 * i + 2] = uint64_t(sx >> n);
    s[8 * i + 3] = (x << 40) ^ (x >> 40) ^ uint64_t(sx >> 33) ^ uint64_t(sx >> 5);
    s[8 * i + 4] = x >> (y & 63ul);
    s[8 * i + 5] = x * y;
    s[8 * i + 6] = x * 0x100000003ul;
    s[8 * i + 7] = uint64_t(sx * sy);
    // Swizzles and a per-element select of 64-bit vectors.
    u64vec3 v = u64vec3(x, y, x + y);
    u64vec2 w = v.zx;
    u64vec2 m = mix(v.xy, w, bvec2(i % 2u == 0u, i % 3u == 0u));
    s[8 * 32 + 2 * i] = m.x ^ (w.y << 1);
    s[8 * 32 + 2 * i + 1] = m.y;
    s[10 * 32 + 4 * i] = min(x, y);
    s[10 * 32 + 4 * i + 1] = max(x, y);
    s[10 * 32 + 4 * i + 2] = uint64_t(min(sx, sy));
    s[10 * 32 + 4 * i + 3] = uint64_t(max(sx, sy));
    flags[i] = uint(x < y) | uint(x <= y) << 1 | uint(x > y) << 2 | uint(x >= y) << 3
        | uint(sx < sy) << 4 | uint(sx <= sy) << 5 | uint(sx > sy) << 6 | uint(sx >= sy) << 7
        | uint(x == y) << 8 | uint(x != y) << 9 | uint(x < 0x100000000ul) << 10;
}
