#version 450
// Texel buffers: texelFetch on a samplerBuffer and a usamplerBuffer, and
// imageLoad/imageStore on an imageBuffer (issue 20's meshlet-CAD form).
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) uniform samplerBuffer vertices;
layout(set = 0, binding = 1) uniform usamplerBuffer indices;
layout(set = 0, binding = 2, r32f) uniform imageBuffer scratch;
layout(set = 0, binding = 3) buffer Out { vec4 v[64]; } o;

void main() {
    int i = int(gl_GlobalInvocationID.x);
    o.v[i] = texelFetch(vertices, i * 2 + 1);
    uint k = texelFetch(indices, i).x;
    imageStore(scratch, i, vec4(float(k) * 0.5));
    o.v[i + 32] = imageLoad(scratch, 31 - i);
}
