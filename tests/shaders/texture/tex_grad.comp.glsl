#version 460
// textureGrad with varied gradient pairs (run description
// tests/runs/tex_grad.json; docs/TEXTURES.md, "Filtering arithmetic",
// rule 5): anisotropic ratios from 1 to 16 and 0 at eight angles and six
// lengths, through a 2D RGBA8 image, an R32F 2D array and an R32F 2D image
// (level L holds values 64L..64L+63: the level fraction can be read off
// the result). Every image has its full mip chain and a trilinear
// clamp-to-edge sampler. 3D and cube gradients are not compiled yet.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform sampler2DArray arr;
layout(set = 0, binding = 2) uniform sampler2D levels;
layout(set = 0, binding = 3) buffer Out { uvec4 o[]; };

// Exact values only (no transcendental functions, whose rounding differs
// between devices): lengths 1/64 .. 1/2 of the image, minor over major
// 1 .. 1/16 and 0, directions of the major axis in 1/16 turns rounded to
// short fractions (the minor axis is the major turned a quarter).
const float LENGTHS[6] = float[](0.015625, 0.03125, 0.0625, 0.125, 0.25, 0.5);
const float RATIOS[6] = float[](1.0, 0.5, 0.25, 0.125, 0.0625, 0.0);
const vec2 DIRECTIONS[8] = vec2[](vec2(1.0, 0.0), vec2(0.921875, 0.3828125),
    vec2(0.70703125, 0.70703125), vec2(0.3828125, 0.921875), vec2(0.0, 1.0),
    vec2(-0.3828125, 0.921875), vec2(-0.70703125, 0.70703125), vec2(-0.921875, 0.3828125));

void main() {
    uint i = gl_GlobalInvocationID.x;
    float len = LENGTHS[i % 6u];
    float ratio = RATIOS[(i / 6u) % 6u];
    vec2 d = DIRECTIONS[(i / 3u) % 8u];
    vec2 major = len * d;
    vec2 minor = len * ratio * vec2(-d.y, d.x);
    vec2 uv = vec2(float(i % 8u) / 8.0 + 3.0 / 64.0, float(i / 8u % 8u) / 8.0 + 5.0 / 128.0);
    uint k = i * 6u;
    o[k + 0u] = floatBitsToUint(textureGrad(tex, uv, major, minor));
    // The same pair with dx and dy swapped and one negated.
    o[k + 1u] = floatBitsToUint(textureGrad(tex, uv, -minor, major));
    o[k + 2u] = floatBitsToUint(textureGrad(arr, vec3(uv, float(i % 3u)), major, minor));
    o[k + 3u] = floatBitsToUint(textureGrad(levels, uv, major, minor));
    o[k + 4u] = floatBitsToUint(textureGrad(levels, uv, -minor, major));
    // Lengths between the powers of two: three quarters and three halves.
    o[k + 5u] = floatBitsToUint(textureGrad(levels, uv, major * 1.5, minor * 0.75));
}
