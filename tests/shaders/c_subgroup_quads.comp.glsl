#version 460
#extension GL_KHR_shader_subgroup_quad : require

// Quad swaps and broadcasts (SHFL.BFLY / SHFL.IDX within a quad) on a
// vector, 4 words per invocation: the same on any subgroup size of 4 or
// more (lavapipe's is 8).
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Texels { vec2 texels[]; };
layout(std430, binding = 1) buffer Out { vec4 outs[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    vec2 t = texels[i];
    vec2 h = subgroupQuadSwapHorizontal(t);
    vec2 v = subgroupQuadSwapVertical(t);
    vec2 d = subgroupQuadSwapDiagonal(t);
    vec2 b = subgroupQuadBroadcast(t, 2u);
    vec2 b0 = subgroupQuadBroadcast(t, 0u);
    outs[i] = vec4(h.x + 10.0 * v.y, d.x - b.y, b0.x, h.y - d.y);
}
