#version 460
// How the H100 combines a gradient pair that is not orthogonal, and how a
// cube derivative toward the centre (|major| shrinking) or onto another
// face counts (run description tests/runs/tex_grad_pair.json;
// docs/TEXTURES.md, "3D and cube gradients"). Every level L of both R32F
// images holds 64·L, so a trilinear lookup returns 64·(L + f): λ to its
// 1/256 step, whatever the coordinates. Invocation i = 16·q + j
// (j, q = 0..15); every value is a short binary fraction.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D flat2d; // 16^2, 5 levels
layout(set = 0, binding = 1) uniform samplerCube cube; // 16^2, 5 levels
layout(set = 0, binding = 2) buffer Out { uint o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float j = float(i % 16u);
    float q = float(i / 16u);
    // A grid of second derivatives, −2 .. 1.75 texels along each axis.
    vec2 g = vec2(j - 8.0, q - 8.0) / 4.0;
    vec2 uv = vec2(0.5);
    uint k = i * 8u;
    // 2D: a fixed first derivative (along u, diagonal, and 3:1) against
    // every second derivative of the grid (in texels of the 16x16 base).
    o[k + 0u] = floatBitsToUint(textureGrad(flat2d, uv, vec2(2.0, 0.0) / 16.0, g / 16.0).x);
    o[k + 1u] = floatBitsToUint(textureGrad(flat2d, uv, vec2(1.25, 1.25) / 16.0, g / 16.0).x);
    o[k + 2u] = floatBitsToUint(textureGrad(flat2d, uv, vec2(3.0, 1.0) / 16.0, 1.5 * g / 16.0).x);
    // Cube, +x face (major axis x = 1): a derivative toward the centre
    // (−j/8 along x: |major| shrinking to 1/8 and past the centre) with
    // q/32 along y; the same toward the centre as the second derivative
    // of a pair; a pair with radial parts of both signs.
    vec3 p = vec3(1.0, 0.25, -0.125);
    float b = j / 16.0;
    float c = q / 16.0;
    o[k + 3u] = floatBitsToUint(textureGrad(cube, p, vec3(-j / 8.0, 0.5 * c, 0.0), vec3(0.0)).x);
    o[k + 4u] = floatBitsToUint(textureGrad(cube, p, vec3(0.0, 0.5 * c, 0.0), vec3(-b, 0.0, 0.0)).x);
    o[k + 5u] = floatBitsToUint(textureGrad(cube, p, vec3(0.5 * b, 0.0, 0.25 * c), vec3(-0.5 * c, 0.25 * b, 0.0)).x);
    // −y face: radial −1 .. 0.875 with a derivative along the face.
    vec3 n = vec3(-0.125, -1.0, -0.4375);
    o[k + 6u] = floatBitsToUint(textureGrad(cube, n, vec3(0.5 * c, (j - 8.0) / 8.0, 0.0), vec3(0.0)).x);
    // +x face, a derivative that leaves the face (y past the edge) with a
    // radial part.
    o[k + 7u] = floatBitsToUint(textureGrad(cube, p, vec3(0.5 * b, 1.5 * c, 0.0), vec3(0.0, 0.0, 0.25 * b)).x);
}
