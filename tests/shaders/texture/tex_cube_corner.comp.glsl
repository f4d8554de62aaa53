#version 460
// Linear cube lookups sweeping across each of the eight cube corners, to
// settle which texels and weights the hardware uses for the footprint's
// fourth texel there (docs/TEXTURES.md, "Filtering arithmetic"; run
// description tests/runs/tex_cube_corner.json). Workgroup c takes the
// corner with signs from the bits of c; its 64 invocations an 8x8 grid of
// directions around (1, 1, 1) scaled by those signs, never tying two
// components.
//   axes2, axes4: RGBA32F cubes of 2x2 and 4x4 texels per face whose texels
//     are (1, 0, 0, A) on the X faces, (0, 1, 0, A) on Y and (0, 0, 1, A)
//     on Z: R, G and B of a lookup are the weights given to each face
//     axis; A is 1 everywhere on axes2 (the weights' sum) and 1 only at the
//     face corners on axes4 (the weight of corner texels).
//   ids2, ids4: R32F cubes with a distinct integer per texel (1 + its
//     index in the layout), filtered linearly; ids2 once more through a
//     nearest sampler (which texel, hence which face, a direction selects).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerCube axes2;
layout(set = 0, binding = 1) uniform samplerCube axes4;
layout(set = 0, binding = 2) uniform samplerCube ids2;
layout(set = 0, binding = 3) uniform samplerCube ids2_nearest;
layout(set = 0, binding = 4) uniform samplerCube ids4;
layout(set = 0, binding = 5) buffer Out { uvec4 o[]; };

void main() {
    uint c = gl_WorkGroupID.x;
    uint j = gl_LocalInvocationIndex;
    uint i = gl_GlobalInvocationID.x;
    vec3 signs = vec3((c & 1u) != 0u ? -1.0 : 1.0, (c & 2u) != 0u ? -1.0 : 1.0,
                      (c & 4u) != 0u ? -1.0 : 1.0);
    // Steps of 1/8 from -7/16 to 7/16, shifted by c/64 + 1/512 (a) and 3/256
    // (b) so that corners see different fractions and no components tie.
    float a = (float(j % 8u) - 3.5) / 8.0 + float(c) / 64.0 + 1.0 / 512.0;
    float b = (float(j / 8u) - 3.5) / 8.0 + 3.0 / 256.0;
    vec3 dir = signs * vec3(1.0 + a, 1.0 + b, 1.0);
    o[i * 3u + 0u] = floatBitsToUint(textureLod(axes2, dir, 0.0));
    o[i * 3u + 1u] = floatBitsToUint(textureLod(axes4, dir, 0.0));
    o[i * 3u + 2u] = floatBitsToUint(vec4(textureLod(ids2, dir, 0.0).x,
                                          textureLod(ids2_nearest, dir, 0.0).x,
                                          textureLod(ids4, dir, 0.0).x, 0.0));
}
