#version 460
// Multisampled images of 2 and 8 samples (run description
// tests/runs/tex_multisample_counts.json; docs/TEXTURES.md, "Multisampled
// images": the 2X1_D3D and 4X2_D3D layouts): every sample of a 2-sample
// R32UI image (4×2) and an 8-sample R32UI image (2×2) fetched, sizes and
// sample counts queried. lavapipe has 1 and 4 samples only: a capture of
// NVIDIA's driver checks this one.
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform utexture2DMS two;
layout(set = 0, binding = 1) uniform utexture2DMS eight;
layout(set = 0, binding = 2) buffer Out { uint o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    // 4×2 pixels, 2 samples: 16 fetches.
    if (i < 16u) {
        o[i] = texelFetch(two, ivec2(int(i / 2u % 4u), int(i / 8u)), int(i % 2u)).x;
    }
    // 2×2 pixels, 8 samples: 32 fetches.
    if (i < 32u) {
        o[16u + i] = texelFetch(eight, ivec2(int(i / 8u % 2u), int(i / 16u)), int(i % 8u)).x;
    }
    if (i == 0u) {
        ivec2 s = textureSize(two);
        ivec2 t = textureSize(eight);
        o[48] = uint(s.x);
        o[49] = uint(s.y);
        o[50] = uint(textureSamples(two));
        o[51] = uint(t.x);
        o[52] = uint(t.y);
        o[53] = uint(textureSamples(eight));
    }
}
