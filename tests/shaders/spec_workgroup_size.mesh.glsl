#version 460
#extension GL_EXT_mesh_shader : require

// The workgroup size comes from specialization constants (LocalSizeId with
// a WorkgroupSize built-in), and so does the vertex count.
layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint VERTS = 3u;
layout(triangles, max_vertices = 64, max_primitives = 64) out;

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(VERTS, VERTS / 3u);
    if (i < VERTS) {
        gl_MeshVerticesEXT[i].gl_Position = vec4(float(i % 3u), float(i / 3u), 0.0, 1.0);
    }
    if (i < VERTS / 3u) {
        gl_PrimitiveTriangleIndicesEXT[i] = uvec3(i * 3u, i * 3u + 1u, i * 3u + 2u);
    }
}
