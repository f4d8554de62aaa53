#version 460
#extension GL_EXT_mesh_shader : require

// CullPrimitiveEXT and ViewportIndex on the same primitives (both live in
// VIEWPORT_MASK: 0 culled, else 1 << viewport): primitive i is culled when
// i % 3 == 1 and goes to viewport i % 4; primitives 0..15 store the cull
// flag first, 16..31 the viewport first.
layout(local_size_x = 32) in;
layout(triangles, max_vertices = 32, max_primitives = 32) out;

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(32, 32);
    gl_MeshVerticesEXT[i].gl_Position = vec4(float(i), 0.0, 0.0, 1.0);
    gl_PrimitiveTriangleIndicesEXT[i] = uvec3(i, (i + 1u) % 32u, (i + 2u) % 32u);
    bool cull = i % 3u == 1u;
    int viewport = int(i % 4u);
    if (i < 16u) {
        gl_MeshPrimitivesEXT[i].gl_CullPrimitiveEXT = cull;
        gl_MeshPrimitivesEXT[i].gl_ViewportIndex = viewport;
    } else {
        gl_MeshPrimitivesEXT[i].gl_ViewportIndex = viewport;
        gl_MeshPrimitivesEXT[i].gl_CullPrimitiveEXT = cull;
    }
}
