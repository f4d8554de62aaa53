#version 460
// Multisampled images (run description tests/runs/tex_multisample.json;
// docs/TEXTURES.md, "Multisampled images"): every sample of a 4-sample
// R32UI image and of a 4-sample RGBA8 2D array (two layers) fetched with
// texelFetch, their sizes and sample counts queried. Samplerless
// (GL_EXT_samplerless_texture_functions): sampled images without a
// sampler.
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform utexture2DMS ids;
layout(set = 0, binding = 1) uniform texture2DMSArray colours;
layout(set = 0, binding = 2) buffer Out { uint o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    // 4×3 pixels, 4 samples: 48 fetches.
    if (i < 48u) {
        ivec2 p = ivec2(int(i / 4u % 4u), int(i / 16u));
        o[i] = texelFetch(ids, p, int(i % 4u)).x;
    }
    // 2×2 pixels, 2 layers, 4 samples: 32 fetches of four components.
    if (i < 32u) {
        ivec3 p = ivec3(int(i / 4u % 2u), int(i / 8u % 2u), int(i / 16u));
        uvec4 c = floatBitsToUint(texelFetch(colours, p, int(i % 4u)));
        for (uint k = 0u; k < 4u; k++) {
            o[48u + 4u * i + k] = c[k];
        }
    }
    if (i == 0u) {
        ivec2 s = textureSize(ids);
        ivec3 t = textureSize(colours);
        o[176] = uint(s.x);
        o[177] = uint(s.y);
        o[178] = uint(textureSamples(ids));
        o[179] = uint(t.x);
        o[180] = uint(t.y);
        o[181] = uint(t.z);
        o[182] = uint(textureSamples(colours));
    }
}
