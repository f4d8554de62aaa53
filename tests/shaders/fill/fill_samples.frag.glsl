#version 450
// The reference runner's multisampled-image fill (src/reference/ms_fill.rs):
// each sample (run per sample: gl_SampleID) writes its texel's raw bits,
// read from the run description's bytes in the simulator's layout
// (docs/TEXTURES.md, "Multisampled images"), through a UINT view of the
// texel's size.
layout(set = 0, binding = 0, std430) readonly buffer Texels { uint words[]; };
layout(push_constant) uniform Fill {
    uint grid_w;   // texels a row of the sample grid holds (width * sw)
    uint grid_h;   // rows of the sample grid (height * sh)
    uint sw;
    uint sh;
    uint map_lo;   // sample s's grid position in nibble s (x low, y high)
    uint map_hi;   // samples 8..15
    uint layer;
    uint bytes;    // bytes a texel takes: 1, 2, 4, 8 or 16
} p;
layout(location = 0) out uvec4 colour;

void main() {
    uint s = uint(gl_SampleID);
    uint nibble = (s < 8u ? p.map_lo >> (4u * s) : p.map_hi >> (4u * (s - 8u))) & 15u;
    uint gx = uint(gl_FragCoord.x) * p.sw + (nibble & 3u);
    uint gy = uint(gl_FragCoord.y) * p.sh + (nibble >> 2u);
    uint texel = (p.layer * p.grid_h + gy) * p.grid_w + gx;
    if (p.bytes >= 4u) {
        uint n = p.bytes / 4u;
        uint base = texel * n;
        colour = uvec4(words[base], n > 1u ? words[base + 1u] : 0u,
                       n > 2u ? words[base + 2u] : 0u, n > 3u ? words[base + 3u] : 0u);
    } else {
        uint at = texel * p.bytes;
        uint w = words[at / 4u] >> (8u * (at % 4u));
        colour = uvec4(p.bytes == 1u ? w & 0xffu : w & 0xffffu, 0u, 0u, 0u);
    }
}
