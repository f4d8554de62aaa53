#version 460
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

// 64-bit division and remainder (backend/src/from_ir/wide_div.rs):
// unsigned and signed quotients and remainders of operand pairs, and by
// constants (a power of two, others), checked against Rust's u64/i64 in
// tests/wide_div.rs. glslang writes `%` of signed integers as OpSMod;
// wide_srem.comp.spvasm is this shader with OpSRem instead.
layout(local_size_x = 32) in;
// Numerators at [i], divisors at [i + 128].
layout(std430, binding = 0) readonly buffer A { int64_t a[]; };
layout(std430, binding = 1) writeonly buffer R { uint64_t r[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    int64_t n = a[i];
    int64_t d = a[i + 128u];
    uint64_t un = uint64_t(n);
    uint64_t ud = uint64_t(d);
    uint o = i * 8u;
    r[o + 0u] = un / ud;
    r[o + 1u] = un % ud;
    r[o + 2u] = uint64_t(n / d);
    r[o + 3u] = uint64_t(n % d);
    r[o + 4u] = un / 10ul;
    r[o + 5u] = uint64_t(n / -7l);
    r[o + 6u] = un % 4096ul;
    r[o + 7u] = un / 0x100000000ul + un % 0x7fffffffful;
}
