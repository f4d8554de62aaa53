#version 460

// Matrix arithmetic: products, transposes, outer products, determinants
// and inverses, component-wise products and scalar scaling.
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer Mats { mat4 m[]; };
layout(std430, binding = 1) buffer Vecs { vec4 v[]; };
layout(std430, binding = 2) buffer Rects { mat2x3 rect[]; };

void main()
{
    uint id = gl_GlobalInvocationID.x;
    mat4 a = m[id];
    mat4 b = m[id + 1u];
    vec4 x = v[id];
    mat4 c = a * b + transpose(a) * 0.5 + outerProduct(x, x) + matrixCompMult(a, b);
    vec4 y = c * x + x * c;
    float det = determinant(c);
    mat4 inv = inverse(c);
    mat3 r3 = mat3(inv);
    mat2x3 r = rect[id];
    mat3x2 rt = transpose(r);
    vec3 z = r * vec2(x.xy) + r3 * x.xyz;
    m[id] = inv * det - a;
    v[id] = y + vec4(z, determinant(rt * r));
    rect[id] = r * mat2(2.0);
}
