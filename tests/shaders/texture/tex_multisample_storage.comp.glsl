#version 460
// A multisampled storage image (run description
// tests/runs/tex_multisample_storage.json; docs/TEXTURES.md,
// "Multisampled images"; needs shaderStorageImageMultisample): every
// sample of a 4-sample R32UI image read with imageLoad, then rewritten
// with imageStore and read again by the same invocation, and imageSize
// and imageSamples of it and of a 4-sample RGBA8 2D array.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2DMS ids;
layout(set = 0, binding = 1, rgba8) uniform readonly image2DMSArray colours;
layout(set = 0, binding = 2) buffer Out { uint o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    // 4×3 pixels, 4 samples.
    if (i < 48u) {
        ivec2 p = ivec2(int(i / 4u % 4u), int(i / 16u));
        int s = int(i % 4u);
        o[i] = imageLoad(ids, p, s).x;
        imageStore(ids, p, s, uvec4(1000u + i * 7u));
        o[48u + i] = imageLoad(ids, p, s).x;
    }
    // 2×2 pixels, 2 layers.
    if (i < 32u) {
        ivec3 p = ivec3(int(i / 4u % 2u), int(i / 8u % 2u), int(i / 16u));
        uvec4 c = floatBitsToUint(imageLoad(colours, p, int(i % 4u)));
        for (uint k = 0u; k < 4u; k++) {
            o[96u + 4u * i + k] = c[k];
        }
    }
    if (i == 0u) {
        ivec2 s = imageSize(ids);
        ivec3 t = imageSize(colours);
        o[224] = uint(s.x);
        o[225] = uint(s.y);
        o[226] = uint(imageSamples(ids));
        o[227] = uint(t.x);
        o[228] = uint(t.y);
        o[229] = uint(t.z);
        o[230] = uint(imageSamples(colours));
    }
}
