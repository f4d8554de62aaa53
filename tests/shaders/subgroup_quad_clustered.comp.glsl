#version 460
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_KHR_shader_subgroup_clustered : require

// 2x2 quad operations (as a box filter would use them) and clustered
// reductions.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Texels { vec4 texels[]; };
layout(std430, binding = 1) buffer Sums { float sums[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    vec4 t = texels[i];
    vec4 box = (t + subgroupQuadSwapHorizontal(t) + subgroupQuadSwapVertical(t) + subgroupQuadSwapDiagonal(t)) * 0.25;
    texels[i] = mix(box, subgroupQuadBroadcast(t, 0u), 0.5);
    sums[i] = subgroupClusteredAdd(t.x, 4u) + subgroupClusteredMax(t.y, 8u);
}
