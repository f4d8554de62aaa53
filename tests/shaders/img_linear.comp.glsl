#version 450
// textureLod through a linear, clamp-to-edge sampler halfway between texel
// centres (weights of exactly 1/2), and textureGather of component 0: the
// results are exact, so the test compares them with CPU values.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) buffer Out { vec4 lod[4]; vec4 gather[4]; } o;

void main() {
    uint i = gl_LocalInvocationID.x;
    o.lod[i] = textureLod(tex, vec2(float(i + 1u) / 4.0, 1.5 / 4.0), 0.0);
    o.gather[i] = textureGather(tex, vec2(float(i + 1u) / 4.0, 0.5), 0);
}
