#version 460
// Filtered lookups for the texture unit's lavapipe test
// (tests/reference_textures.rs): one RGBA8 image with three levels read
// through four separate samplers (clamp/linear/mip linear, repeat/linear,
// mirrored repeat/nearest/mip nearest, border/linear), texelFetch,
// textureGrad, and a fifth sampler (mirror-clamp-to-edge, nearest).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform texture2D tex;
layout(set = 0, binding = 1) uniform sampler samplers[5];
layout(set = 0, binding = 2) buffer Out { vec4 o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    // u, v from -0.5 to 1.5 in steps of 1/8, off the texel grid; LODs
    // away from the nearest-mip ties at x.5.
    float u = (float(i % 16u) - 4.0) / 8.0 + 1.0 / 32.0;
    float v = (float((i / 16u) % 16u) - 4.0) / 8.0 + 3.0 / 64.0;
    float lod = float(i % 5u) * 0.3 + 0.05;
    vec2 uv = vec2(u, v);
    // Gradients from 0 to 0.6 of the image per step: LODs up to about 1.3.
    vec2 dx = vec2(float(i % 7u) * 0.1, 0.05);
    vec2 dy = vec2(0.0, float(i % 5u) * 0.07);
    o[i * 7u + 5u] = textureGrad(sampler2D(tex, samplers[0]), uv, dx, dy);
    o[i * 7u + 6u] = textureLod(sampler2D(tex, samplers[4]), uv, lod);
    o[i * 7u + 0u] = texelFetch(sampler2D(tex, samplers[0]), ivec2(i % 4u, (i / 4u) % 4u), 0);
    o[i * 7u + 1u] = textureLod(sampler2D(tex, samplers[0]), uv, lod);
    o[i * 7u + 2u] = textureLod(sampler2D(tex, samplers[1]), uv, lod);
    o[i * 7u + 3u] = textureLod(sampler2D(tex, samplers[2]), uv, lod);
    o[i * 7u + 4u] = textureLod(sampler2D(tex, samplers[3]), uv, lod);
}
