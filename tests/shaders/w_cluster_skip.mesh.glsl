#version 460
#extension GL_EXT_mesh_shader : require

// niagara's meshlet.mesh pattern: the workgroup reads its cluster index
// from a buffer at a workgroup-uniform address and, for an empty slot
// (~0), outputs nothing and returns; otherwise it outputs the meshlet's
// vertex and triangle counts, looping over them with the workgroup size
// as the stride. The branch around SetMeshOutputsEXT is uniform only
// because the data is: the compiler assumes it, as Vulkan requires.
// The size is spec constant 0 (64 by default; tests also use 128).
layout(local_size_x = 64, local_size_x_id = 0) in;
layout(triangles, max_vertices = 128, max_primitives = 128) out;

layout(binding = 0) readonly buffer Clusters { uint clusterIndices[]; };
// Per meshlet: vertex count, triangle count.
layout(binding = 1) readonly buffer Meshlets { uvec2 meshlets[]; };

void main()
{
    uint ti = gl_LocalInvocationIndex;
    uint ci = clusterIndices[gl_WorkGroupID.x];
    if (ci == ~0u) {
        SetMeshOutputsEXT(0, 0);
        return;
    }
    uint vertexCount = meshlets[ci].x;
    uint triangleCount = meshlets[ci].y;
    SetMeshOutputsEXT(vertexCount, triangleCount);
    for (uint i = ti; i < vertexCount; i += gl_WorkGroupSize.x) {
        gl_MeshVerticesEXT[i].gl_Position =
            vec4(float(ci), float(i), float(gl_WorkGroupID.x), 1.0);
    }
    for (uint i = ti; i < triangleCount; i += gl_WorkGroupSize.x) {
        gl_PrimitiveTriangleIndicesEXT[i] =
            uvec3(i, (i + 1u) % vertexCount, (i + 2u) % vertexCount);
    }
}
