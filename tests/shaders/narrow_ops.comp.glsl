#version 460
#extension GL_EXT_shader_explicit_arithmetic_types : require

// 8- and 16-bit integer arithmetic whose result depends on the bits above
// the width: division, remainder, right shifts, min/max, clamps,
// comparisons, bit counts and conversions to float, for int8_t, uint8_t,
// int16_t and uint16_t (tests/narrow_ints.rs). The operands come from
// 32-bit words converted down, so their registers hold junk above the
// width, which the lowering must not read.
layout(local_size_x = 32) in;
// a[i], b[i + 32], shift amounts for 16 bits [i + 64] and 8 bits [i + 96].
layout(std430, binding = 0) readonly buffer In { uint words[]; };
layout(std430, binding = 1) writeonly buffer Out { uint r[]; };

#define K 16u
#define W(v) uint(int(v))

#define OPS(T, base, sw, lo, hi) {                                          \
    T a = T(words[i]);                                                      \
    T b = T(words[i + 32u]);                                                \
    T s = T(words[i + sw]);                                                 \
    T d = (b == T(0)) ? T(1) : b;                                           \
    uint o = ((base) * 32u + i) * K;                                        \
    r[o + 0u] = W(a / d);                                                   \
    r[o + 1u] = W(a % d);                                                   \
    r[o + 2u] = W(a >> s);                                                  \
    r[o + 3u] = W(a >> T(3));                                               \
    r[o + 4u] = W(min(a, b));                                               \
    r[o + 5u] = W(max(a, b));                                               \
    r[o + 6u] = uint(a < b) | uint(a <= b) << 1 | uint(a > b) << 2          \
        | uint(a >= b) << 3 | uint(a == b) << 4 | uint(a != b) << 5         \
        | uint(a < T(lo)) << 6 | uint(T(hi) >= a) << 7;                     \
    r[o + 7u] = W(clamp(a, T(lo), T(hi)));                                  \
    r[o + 8u] = W(a - b);                                                    \
    r[o + 9u] = floatBitsToUint(float(a));                                  \
    r[o + 10u] = W(a * b + T(1));                                           \
    r[o + 11u] = W(a << s);                                                 \
    r[o + 12u] = W(b / T(3));                                               \
    r[o + 13u] = W(a % T(10));                                              \
    r[o + 14u] = W(-a >> T(1));                                             \
    r[o + 15u] = W((max(a, b) - min(a, b)) / T(7) % T(5));                               \
}

void main()
{
    uint i = gl_LocalInvocationIndex;
    OPS(int16_t, 0u, 64u, -100, 100)
    OPS(uint16_t, 1u, 64u, 3, 40000)
    OPS(int8_t, 2u, 96u, -100, 100)
    OPS(uint8_t, 3u, 96u, 3, 200)
}
