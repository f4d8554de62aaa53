#version 460
// Storage image loads, stores and atomics, texel buffers and size queries
// for the texture unit's lavapipe test (tests/reference_textures.rs).
layout(local_size_x = 16) in;
layout(set = 0, binding = 0, rgba8) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba16f) uniform writeonly image2D dst;
layout(set = 0, binding = 2, r32ui) uniform uimage2D counts;
layout(set = 0, binding = 3) uniform isamplerBuffer tb;
layout(set = 0, binding = 4, r32f) uniform writeonly imageBuffer stb;
layout(set = 0, binding = 5) uniform sampler2D sz;
layout(set = 0, binding = 6) buffer Out { uvec4 o[]; };

void main() {
    uint i = gl_LocalInvocationIndex;
    ivec2 p = ivec2(i % 4u, i / 4u);
    vec4 c = imageLoad(src, p);
    imageStore(dst, p, c * 2.0 - 0.5);
    imageAtomicAdd(counts, ivec2(p.x & 1, p.y & 1), i + 1u);
    imageAtomicMax(counts, ivec2(2 + (p.x & 1), p.y), i * 3u);
    ivec4 t = texelFetch(tb, int(i));
    imageStore(stb, int(i), vec4(float(t.x) * 0.5 + float(t.y)));
    o[i * 4u + 0u] = uvec4(t);
    o[i * 4u + 1u] = floatBitsToUint(c);
    o[i * 4u + 2u] = uvec4(imageSize(src), textureSize(sz, 1));
    o[i * 4u + 3u] = uvec4(textureQueryLevels(sz), imageSize(stb), textureSize(tb), 0);
}
