#version 450
// Every image shape the frontend takes: 1D, 2D, 3D, cube, arrays,
// multisampled, depth compares, gradients, offsets, gathers with compare,
// queries, and a non-uniform descriptor index.
#extension GL_EXT_nonuniform_qualifier : require
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) uniform sampler1D t1;
layout(set = 0, binding = 1) uniform sampler3D t3;
layout(set = 0, binding = 2) uniform samplerCube tc;
layout(set = 0, binding = 3) uniform sampler2DArray ta;
layout(set = 0, binding = 4) uniform samplerCubeArray tca;
layout(set = 0, binding = 5) uniform sampler2DShadow ts;
layout(set = 0, binding = 6) uniform texture2DMS tms;
layout(set = 0, binding = 7) uniform sampler2D many[8];
layout(set = 0, binding = 8, rgba16f) uniform image2DArray ia;
layout(set = 0, binding = 9) uniform writeonly image3D i3;
layout(set = 1, binding = 0) buffer Out { vec4 v[16]; ivec4 q[4]; } o;

void main() {
    uint i = gl_LocalInvocationID.x;
    float f = float(i) / 32.0;
    o.v[0] = textureLod(t1, f, 0.0) + texelFetch(t1, int(i), 0);
    o.v[1] = textureLod(t3, vec3(f), 1.0);
    o.v[2] = textureLod(tc, vec3(f, 1.0, -f), 0.0);
    o.v[3] = textureLod(ta, vec3(f, f, 2.0), 0.0) + texelFetch(ta, ivec3(i, 1, 2), 0);
    o.v[4] = textureLod(tca, vec4(f, 1.0, -f, 1.0), 0.0);
    o.v[5] = vec4(textureLod(ts, vec3(f, f, 0.5), 0.0));
    o.v[6] = texelFetch(tms, ivec2(i, 0), 3);
    o.v[7] = textureLod(many[nonuniformEXT(i & 7u)], vec2(f), 0.0);
    o.v[8] = textureGrad(t3, vec3(f), vec3(0.1), vec3(0.0, 0.1, 0.0));
    o.v[9] = textureGather(ts, vec2(f), 0.5);
    o.v[10] = textureGatherOffset(many[2], vec2(f), ivec2(1, 2), 3);
    o.v[11] = imageLoad(ia, ivec3(i, 0, 1));
    imageStore(i3, ivec3(i, 1, 2), vec4(f));
    o.q[0] = ivec4(textureSize(tca, 0).xy, textureSize(tms).x, textureSamples(tms));
    o.q[1] = ivec4(imageSize(ia), imageSize(i3).z);
    o.q[2] = ivec4(textureQueryLevels(t3), textureSize(t1, 2), 0, 0);
}
