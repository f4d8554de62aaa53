#version 460
#extension GL_EXT_mesh_shader : require
#extension GL_KHR_shader_subgroup_basic : require

// 128 invocations (four logical subgroups on one warp): each writes its own
// vertex, and the first 64 each write one triangle.
layout(local_size_x = 128) in;
layout(triangles, max_vertices = 128, max_primitives = 64) out;

layout(location = 0) out vec4 color[];

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(128, 64);
    gl_MeshVerticesEXT[i].gl_Position = vec4(float(i), float(gl_SubgroupID), float(gl_WorkGroupID.x), 1.0);
    color[i] = vec4(float(i * 2u), float(gl_LocalInvocationID.x), float(gl_NumSubgroups), 0.5);
    if (i < 64u) {
        gl_PrimitiveTriangleIndicesEXT[i] = uvec3(2u * i, 2u * i + 1u, (2u * i + 2u) & 127u);
    }
}
