#version 460

// Matrix functions on their own (tests/math_shaders.rs checks them against
// f64 on the CPU): inverses and determinants of 4x4, 3x3 and 2x2 matrices,
// products in both orders, transpose and outer product. Kept apart so that
// no more than 64 registers are live (spilling is not implemented).
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer Mats { mat4 m[]; };
layout(std430, binding = 1) writeonly buffer Inverses { mat4 inv[]; };
layout(std430, binding = 2) writeonly buffer Products { mat4 prod[]; };
layout(std430, binding = 3) writeonly buffer Misc { vec4 misc[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    inv[i] = inverse(m[i]);
    mat4 a = m[i];
    vec4 x = a[0] + a[3];
    prod[i] = a * transpose(a) + outerProduct(x, a[1]) * 0.5;
    misc[i * 4u] = vec4(determinant(a), determinant(mat3(a)), determinant(mat2(a)), 0.0);
    misc[i * 4u + 1u] = a * x + x * a;
    mat3 i3 = inverse(mat3(a));
    misc[i * 4u + 2u] = vec4(i3 * a[2].xyz, i3[1][2]);
    mat2 i2 = inverse(mat2(a));
    misc[i * 4u + 3u] = vec4(a[1].xy * i2, i2[0]);
}
