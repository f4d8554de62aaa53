#version 460
// Fetches and linear lookups of the formats the H200 captures had not
// measured (UNORM16, SNORM8, SNORM16, sRGB8, A2B10G10R10, B10G11R11, R16F),
// and clamp-to-border lookups with the three float border colours (run
// description tests/runs/tex_formats.json; docs/TEXTURES.md). Every image
// is 4x4 with one level; the samplers clamp to the edge and filter
// linearly, but those of `border`.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D unorm16;
layout(set = 0, binding = 1) uniform sampler2D snorm8;
layout(set = 0, binding = 2) uniform sampler2D snorm16;
layout(set = 0, binding = 3) uniform sampler2D srgb8;
layout(set = 0, binding = 4) uniform sampler2D a2b10g10r10;
layout(set = 0, binding = 5) uniform sampler2D b10g11r11;
layout(set = 0, binding = 6) uniform sampler2D r16f;
// RGBA8 UNORM and R16F images through clamp-to-border samplers: opaque
// black, opaque white, transparent black.
layout(set = 0, binding = 7) uniform texture2D bordered_rgba8;
layout(set = 0, binding = 8) uniform texture2D bordered_r16f;
layout(set = 0, binding = 9) uniform sampler border[3];
layout(set = 0, binding = 10) buffer Out { uvec4 o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    // Coordinates over the image off the texel grid, with fractions that
    // are not short binary ones (1/96 steps); the border lookups reach a
    // quarter of the image beyond each edge.
    vec2 uv = vec2(float(i % 8u) / 8.0 + float(i / 8u) / 64.0 + 1.0 / 128.0,
                   float(i / 8u) / 8.0 + float(i % 8u) / 96.0 + 1.0 / 256.0);
    vec2 outer = uv * 1.5 - 0.25;
    ivec2 p = ivec2(i % 4u, (i / 4u) % 4u);
    uint k = i * 20u;
    o[k + 0u] = floatBitsToUint(texelFetch(unorm16, p, 0));
    o[k + 1u] = floatBitsToUint(texelFetch(snorm8, p, 0));
    o[k + 2u] = floatBitsToUint(texelFetch(snorm16, p, 0));
    o[k + 3u] = floatBitsToUint(texelFetch(srgb8, p, 0));
    o[k + 4u] = floatBitsToUint(texelFetch(a2b10g10r10, p, 0));
    o[k + 5u] = floatBitsToUint(texelFetch(b10g11r11, p, 0));
    o[k + 6u] = floatBitsToUint(texelFetch(r16f, p, 0));
    o[k + 7u] = floatBitsToUint(textureLod(unorm16, uv, 0.0));
    o[k + 8u] = floatBitsToUint(textureLod(snorm8, uv, 0.0));
    o[k + 9u] = floatBitsToUint(textureLod(snorm16, uv, 0.0));
    o[k + 10u] = floatBitsToUint(textureLod(srgb8, uv, 0.0));
    o[k + 11u] = floatBitsToUint(textureLod(a2b10g10r10, uv, 0.0));
    o[k + 12u] = floatBitsToUint(textureLod(b10g11r11, uv, 0.0));
    o[k + 13u] = floatBitsToUint(textureLod(r16f, uv, 0.0));
    for (uint b = 0u; b < 3u; b++) {
        o[k + 14u + b] = floatBitsToUint(textureLod(sampler2D(bordered_rgba8, border[b]), outer, 0.0));
        o[k + 17u + b] = floatBitsToUint(textureLod(sampler2D(bordered_r16f, border[b]), outer, 0.0));
    }
}
