#version 460
// sRGB decoding and filtering (run description tests/runs/tex_srgb.json;
// docs/TEXTURES.md, "Filtering arithmetic"): every code 0..255 of each
// component fetched from a 16x16 R8G8B8A8_SRGB image (the hardware's
// decode table), and linear lookups between neighbouring texels at known
// weights (horizontal, vertical, both, halfway), through the sRGB image
// and the same bytes as R8G8B8A8_UNORM (the weights without the decode);
// the same bytes as R8G8B8A8_SNORM at texel centres and between
// neighbours (how filtering widens each SNORM8 code).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D srgb;
layout(set = 0, binding = 1) uniform sampler2D unorm;
layout(set = 0, binding = 2) buffer Out { uvec4 o[]; };
layout(set = 0, binding = 3) uniform sampler2D snorm;

void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec2 p = ivec2(i % 16u, i / 16u);
    // Fractions 1/256 .. 255/256 of the next texel: the footprint's
    // coordinate u·16 − 0.5 is exactly p.x + f (no rounding anywhere).
    float f = float((i * 37u + 11u) % 255u + 1u) / 256.0;
    float g = float((i * 53u + 7u) % 255u + 1u) / 256.0;
    vec2 at = vec2(float(p.x) + 0.5, float(p.y) + 0.5);
    uint k = i * 8u;
    o[k + 0u] = floatBitsToUint(texelFetch(srgb, p, 0));
    o[k + 1u] = floatBitsToUint(textureLod(srgb, (at + vec2(f, 0.0)) / 16.0, 0.0));
    o[k + 2u] = floatBitsToUint(textureLod(unorm, (at + vec2(f, 0.0)) / 16.0, 0.0));
    o[k + 3u] = floatBitsToUint(textureLod(srgb, (at + vec2(0.0, g)) / 16.0, 0.0));
    o[k + 4u] = floatBitsToUint(textureLod(srgb, (at + vec2(f, g)) / 16.0, 0.0));
    o[k + 5u] = floatBitsToUint(textureLod(srgb, (at + vec2(0.5, 0.0)) / 16.0, 0.0));
    o[k + 6u] = floatBitsToUint(textureLod(snorm, at / 16.0, 0.0));
    o[k + 7u] = floatBitsToUint(textureLod(snorm, (at + vec2(f, 0.0)) / 16.0, 0.0));
}
