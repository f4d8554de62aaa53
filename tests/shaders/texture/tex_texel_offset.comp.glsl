#version 460
// Texel buffers bound at an offset into their buffer (run description
// tests/runs/tex_texel_offset.json): an R32UI and an RG16F uniform texel
// buffer and an R32UI storage texel buffer, each view starting after
// marker words that the shader must not see.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform usamplerBuffer words;
layout(set = 0, binding = 1) uniform samplerBuffer halves;
layout(set = 0, binding = 2, r32ui) uniform writeonly uimageBuffer stored;
layout(set = 0, binding = 3) buffer Out { uvec4 o[]; };

void main() {
    uint i = gl_LocalInvocationIndex;
    uint w = texelFetch(words, int(i)).x;
    vec4 h = texelFetch(halves, int(i));
    imageStore(stored, int(i), uvec4(w * 3u + 1u));
    o[i] = uvec4(w, floatBitsToUint(h.x), floatBitsToUint(h.y),
                 uint(textureSize(words)) | uint(imageSize(stored)) << 16u);
}
