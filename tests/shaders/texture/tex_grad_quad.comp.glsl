#version 460
// Whether the texture unit's λ for a cube textureGrad depends only on the
// face derivatives of the quad NVIDIA's driver builds (run description
// tests/runs/tex_grad_quad.json; docs/TEXTURES.md, "What NVIDIA's driver
// emits for a cube textureGrad"). Row i (four vec4s): a direction p, cube
// derivatives dPdx and dPdy along the face only, and the 2D gradients with
// the same face derivatives; word 2i is the cube lookup, word 2i + 1 the 2D
// one (16x16 R32F images, level L holding 64·L).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D flat2d;
layout(set = 0, binding = 1) uniform samplerCube cube;
layout(set = 0, binding = 2) buffer Out { uint o[]; };
layout(set = 0, binding = 3) readonly buffer In { vec4 rows[]; };
layout(push_constant) uniform Push { uint n; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n) return;
    vec4 p = rows[4u * i], dx = rows[4u * i + 1u], dy = rows[4u * i + 2u], g = rows[4u * i + 3u];
    o[2u * i] = floatBitsToUint(textureGrad(cube, p.xyz, dx.xyz, dy.xyz).x);
    o[2u * i + 1u] = floatBitsToUint(textureGrad(flat2d, vec2(0.5), g.xy, g.zw).x);
}
