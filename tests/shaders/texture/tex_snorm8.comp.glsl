#version 460
// How the texture unit scales a filtered SNORM8 sum (run description
// tests/runs/tex_snorm8.json; docs/TEXTURES.md, "Filtering arithmetic"):
// a 32x4 R8G8B8A8_SNORM image whose even texels hold every code 0..255
// once (pair k = y*16 + j: texel (2j, y) has codes 4k..4k+3 in R, G, B,
// A) and whose odd texels are zero, looked up between texels 2j and
// 2j + 1 at every weight w/256 of the zero texel (w = 0..255), so each
// word is one code times one weight (256 − w) alone.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D snorm;
layout(set = 0, binding = 1) buffer Out { uvec4 o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint k = i % 64u;
    ivec2 p = ivec2(int(k % 16u) * 2, int(k / 16u));
    for (uint m = 0u; m < 64u; m++) {
        uint w = (i / 64u) * 64u + m;
        // u·32 − 0.5 = 2j + w/256 exactly; v on the row's centre.
        vec2 at = vec2((float(p.x) + 0.5 + float(w) / 256.0) / 32.0, (float(p.y) + 0.5) / 4.0);
        o[i * 64u + m] = floatBitsToUint(textureLod(snorm, at, 0.0));
    }
}
