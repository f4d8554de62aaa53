#version 460
// How the H100 combines the three components of a 3D derivative, and how
// a cube derivative along the major axis counts (run description
// tests/runs/tex_grad3d_rho.json; docs/TEXTURES.md, "3D and cube
// gradients"). Every level L of both R32F images holds 64·L, so a
// trilinear lookup returns 64·(L + f): λ to the 1/256 step, whatever the
// coordinates. Invocation i = 16·q + j (j, q = 0..15) sweeps two ratios
// b = j/16 and c = q/16.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler3D vol;   // 16^3, 5 levels
layout(set = 0, binding = 1) uniform samplerCube cube; // 16^2, 5 levels
layout(set = 0, binding = 2) buffer Out { uint o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float b = float(i % 16u) / 16.0;
    float c = float(i / 16u) / 16.0;
    vec3 mid = vec3(0.5);
    uint k = i * 8u;
    // 3D: a derivative of 2 texels along one axis plus b and c of it
    // along the others (each axis longest in turn), and 3 texels.
    o[k + 0u] = floatBitsToUint(textureGrad(vol, mid, vec3(2.0, 2.0 * b, 2.0 * c) / 16.0, vec3(0.0)).x);
    o[k + 1u] = floatBitsToUint(textureGrad(vol, mid, vec3(2.0 * c, 2.0, 2.0 * b) / 16.0, vec3(0.0)).x);
    o[k + 2u] = floatBitsToUint(textureGrad(vol, mid, vec3(2.0 * b, 2.0 * c, 2.0) / 16.0, vec3(0.0)).x);
    o[k + 3u] = floatBitsToUint(textureGrad(vol, mid, vec3(0.0), vec3(3.0, 3.0 * c, 3.0 * b) / 16.0).x);
    // Cube, +x face (major axis x = 1): a derivative along the face (y)
    // of c/2 and along the major axis of b; the same at twice the
    // distance; the radial part alone in the other derivative; and the
    // -z face.
    vec3 p = vec3(1.0, 0.25, -0.125);
    o[k + 4u] = floatBitsToUint(textureGrad(cube, p, vec3(1.0 * b, 0.5 * c, 0.0), vec3(0.0)).x);
    o[k + 5u] = floatBitsToUint(textureGrad(cube, 2.0 * p, vec3(1.0 * b, 0.5 * c, 0.0), vec3(0.0)).x);
    o[k + 6u] = floatBitsToUint(textureGrad(cube, p, vec3(0.0, 0.5 * c, 0.0), vec3(1.0 * b, 0.0, 0.0)).x);
    vec3 n = vec3(-0.0625, 0.3125, -1.0);
    o[k + 7u] = floatBitsToUint(textureGrad(cube, n, vec3(0.5 * c, 0.0, -b), vec3(0.0)).x);
}
