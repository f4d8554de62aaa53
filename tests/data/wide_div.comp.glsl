#version 460
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

// A 64-bit division, which the backend does not lower yet: compiling it
// must fail naming the op and its result id (tests/wide_ints.rs).
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer A { uint64_t a[]; };

void main()
{
    uint i = gl_LocalInvocationIndex;
    a[i] = a[i] / a[i + 32u];
}
