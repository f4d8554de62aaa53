#version 460
#extension GL_EXT_mesh_shader : require

// A 3-wide workgroup emitting 8 points; only invocation 1 writes
// CullPrimitiveEXT (true for primitive 1, false for primitive 5), so the
// other primitives keep the default "not culled" the shader never stores.
layout(local_size_x = 3) in;
layout(points, max_vertices = 8, max_primitives = 8) out;

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(8, 8);
    for (uint p = i; p < 8u; p += 3u) {
        gl_MeshVerticesEXT[p].gl_Position = vec4(float(p), 0.0, 0.0, 1.0);
        gl_PrimitivePointIndicesEXT[p] = p;
    }
    if (i == 1u) {
        gl_MeshPrimitivesEXT[1].gl_CullPrimitiveEXT = true;
        gl_MeshPrimitivesEXT[5].gl_CullPrimitiveEXT = false;
    }
}
