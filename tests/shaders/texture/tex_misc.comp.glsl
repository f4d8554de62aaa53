#version 460
// Gathers (with component select and an offset), depth compares, cube,
// 2D array and 3D lookups and size queries for the texture unit's
// lavapipe test (tests/reference_textures.rs).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform usampler2D g;
layout(set = 0, binding = 1) uniform sampler2DShadow shadow;
layout(set = 0, binding = 2) uniform samplerCube cube;
layout(set = 0, binding = 3) uniform sampler2DArray arr;
layout(set = 0, binding = 4) uniform sampler3D vol;
layout(set = 0, binding = 5) buffer Out { uvec4 o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec2 uv = vec2(float(i % 8u) / 8.0 + 1.0 / 32.0, float(i / 8u) / 8.0 + 1.0 / 64.0);
    float ref = float(i % 7u) / 6.0;
    // Directions whose largest component is never tied.
    vec3 dir = vec3(float(i % 4u) - 1.5, float((i / 4u) % 4u) - 1.25, float(i / 16u) - 1.75);
    o[i * 8u + 0u] = textureGather(g, uv, 0);
    o[i * 8u + 1u] = textureGatherOffset(g, uv, ivec2(1, -1), 1);
    o[i * 8u + 2u] = floatBitsToUint(vec4(textureLod(shadow, vec3(uv, ref), 0.0)));
    o[i * 8u + 3u] = floatBitsToUint(textureGather(shadow, uv, ref));
    o[i * 8u + 4u] = floatBitsToUint(textureLod(cube, dir, 0.0));
    o[i * 8u + 5u] = floatBitsToUint(textureLod(arr, vec3(uv, float(i % 4u) - 0.25), 0.0));
    o[i * 8u + 6u] = floatBitsToUint(textureLod(vol, vec3(uv, float(i % 3u) / 3.0 + 0.1), 0.0));
    o[i * 8u + 7u] = uvec4(textureSize(arr, 0), textureQueryLevels(arr));
}
