#version 460

// For the SPIR-V reader's test (frontend/src/load/reader.rs): image types
// and image operands (Lod, Grad, ConstOffset, Sample), read into the same
// module as rspirv's parser builds. Images do not
// compile yet; this module only exercises the reader.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(binding = 0) uniform sampler2D tex;
layout(binding = 1) uniform sampler2DMS ms;
layout(binding = 2, rgba8) uniform writeonly image2D dst;
layout(binding = 3, r32ui) uniform uimage2D counts;

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uvec2 size = gl_WorkGroupSize.xy;
    vec2 uv = (vec2(p) + 0.5) / vec2(size * 8u);
    vec4 a = textureLod(tex, uv, 1.0);
    vec4 b = textureGrad(tex, uv, vec2(0.01), vec2(0.02));
    vec4 c = textureLodOffset(tex, uv, 0.0, ivec2(1, -1));
    vec4 d = texelFetch(ms, p, 2);
    vec4 e = texelFetchOffset(tex, p, 0, ivec2(2, 0));
    imageStore(dst, p, a + b + c + d + e);
    imageAtomicAdd(counts, p, 1u);
}
