#version 450
// Filtered lookups with explicit LOD, an offset, gathers and a size query
// of a 2D texture through a combined image-sampler and a separate image
// and sampler.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform texture2D separate;
layout(set = 0, binding = 2) uniform sampler nearest;
layout(set = 0, binding = 3) buffer Out { vec4 lod[16]; vec4 off[16]; vec4 gather[16]; vec4 sep[16]; ivec4 size; } o;

void main() {
    uint i = gl_LocalInvocationID.x;
    vec2 uv = vec2(float(i) + 0.25, float(i) * 0.5 + 0.75) / 16.0;
    o.lod[i] = textureLod(tex, uv, float(i & 1u) * 0.5);
    o.off[i] = textureLodOffset(tex, uv, 0.0, ivec2(1, -1));
    o.gather[i] = textureGather(tex, uv, 1);
    o.sep[i] = textureLod(sampler2D(separate, nearest), uv, 0.0);
    if (i == 0u) {
        o.size = ivec4(textureSize(tex, 0), textureSize(tex, 1).x, textureQueryLevels(tex));
    }
}
