#version 460
#extension GL_EXT_mesh_shader : require
// A mesh shader reading its meshlet from texel buffers, as nvpro's meshlet
// CAD-scene renderer does (run description
// tests/runs/mesh_texel_vertices.json, a draw of one workgroup per
// meshlet): the meshlet's descriptor from a usamplerBuffer (RGBA32UI:
// first vertex, vertex count, first index, triangle count), each vertex's
// position from a samplerBuffer (RGBA32F) and its colour from another
// (RGBA8 UNORM), the triangles' local indices from a usamplerBuffer
// (R8UI, three per triangle).
layout(local_size_x = 32) in;
layout(triangles, max_vertices = 8, max_primitives = 8) out;
layout(set = 0, binding = 0) uniform usamplerBuffer meshlets;
layout(set = 0, binding = 1) uniform samplerBuffer positions;
layout(set = 0, binding = 2) uniform samplerBuffer colours;
layout(set = 0, binding = 3) uniform usamplerBuffer indices;

layout(location = 0) out vec4 colour[];

void main() {
    uint i = gl_LocalInvocationIndex;
    uvec4 m = texelFetch(meshlets, int(gl_WorkGroupID.x));
    SetMeshOutputsEXT(m.y, m.w);
    if (i < m.y) {
        int v = int(m.x + i);
        gl_MeshVerticesEXT[i].gl_Position = texelFetch(positions, v);
        colour[i] = texelFetch(colours, v);
    }
    if (i < m.w) {
        int k = int(m.z + 3u * i);
        gl_PrimitiveTriangleIndicesEXT[i] = uvec3(texelFetch(indices, k).x,
                                                  texelFetch(indices, k + 1).x,
                                                  texelFetch(indices, k + 2).x);
    }
}
