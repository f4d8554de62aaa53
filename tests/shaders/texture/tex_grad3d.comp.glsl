#version 460
// textureGrad on a 3D image, a cube map and a cube array (run description
// tests/runs/tex_grad3d.json; docs/TEXTURES.md, "3D and cube gradients"):
// gradient pairs of four lengths, four ratios of minor to major and eight
// directions. Every image is R32F with its full mip chain (level L holds
// values from 64L: the level fraction can be read off the result) and a
// trilinear clamp-to-edge sampler. The cube gradients have a component
// along the direction too, which the projection onto the face removes.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler3D vol;
layout(set = 0, binding = 1) uniform samplerCube cube;
layout(set = 0, binding = 2) uniform samplerCubeArray cubes;
layout(set = 0, binding = 3) buffer Out { uvec4 o[]; };

// Exact values only: lengths 1/16 .. 1/2 of the image (half a texel to
// four texels of the 8^3 volume's level 0), minor over major 1 .. 1/4
// and 0, directions with short fractions.
const float LENGTHS[4] = float[](0.0625, 0.125, 0.25, 0.5);
const float RATIOS[4] = float[](1.0, 0.5, 0.25, 0.0);
const vec3 DIRECTIONS[8] = vec3[](vec3(1.0, 0.0, 0.0), vec3(0.0, 1.0, 0.0),
    vec3(0.0, 0.0, 1.0), vec3(0.5, 0.5, 0.70703125), vec3(-0.6875, 0.5, 0.5),
    vec3(0.375, -0.875, 0.3125), vec3(0.25, 0.25, -0.9375), vec3(-0.5625, -0.5625, 0.5625));
// Cube directions: one per face, off the face's centre.
const vec3 FACES[6] = vec3[](vec3(1.0, 0.25, -0.125), vec3(-1.0, -0.375, 0.0625),
    vec3(0.3125, 1.0, 0.1875), vec3(-0.125, -1.0, -0.4375), vec3(0.1875, -0.25, 1.0),
    vec3(-0.0625, 0.3125, -1.0));

void main() {
    uint i = gl_GlobalInvocationID.x;
    float len = LENGTHS[i % 4u];
    float ratio = RATIOS[(i / 4u) % 4u];
    vec3 d = DIRECTIONS[(i / 2u) % 8u];
    vec3 major = len * d;
    // Perpendicular to d (d × z, or d × x where d is along z).
    vec3 side = abs(d.z) > 0.9 ? vec3(0.0, d.z, -d.y) : vec3(d.y, -d.x, 0.0);
    vec3 minor = len * ratio * side;
    vec3 uvw = vec3(float(i % 4u) / 4.0 + 3.0 / 32.0, float(i / 4u % 4u) / 4.0 + 5.0 / 64.0,
                    float(i / 16u) / 4.0 + 7.0 / 64.0);
    uint k = i * 5u;
    o[k + 0u] = floatBitsToUint(textureGrad(vol, uvw, major, minor));
    o[k + 1u] = floatBitsToUint(textureGrad(vol, uvw, -minor, major * 1.5));
    vec3 p = FACES[i % 6u];
    // Along the face (its two axes other than the major one) and partly
    // along p itself.
    vec3 t = abs(p.x) == 1.0 ? vec3(0.0, d.y, d.z) : abs(p.y) == 1.0 ? vec3(d.x, 0.0, d.z)
                                                                      : vec3(d.x, d.y, 0.0);
    vec3 dx = len * (t + 0.5 * p);
    vec3 dy = len * ratio * vec3(t.y, t.z, t.x);
    o[k + 2u] = floatBitsToUint(textureGrad(cube, p, dx, dy));
    o[k + 3u] = floatBitsToUint(textureGrad(cube, p * 2.0, dy * 3.0, dx * 2.0));
    o[k + 4u] = floatBitsToUint(textureGrad(cubes, vec4(p, float(i % 2u)), dx, dy));
}
