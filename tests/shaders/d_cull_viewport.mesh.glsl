#version 460
#extension GL_EXT_mesh_shader : require

// Refused: CullPrimitiveEXT and ViewportIndex both map to VIEWPORT_MASK.
layout(local_size_x = 1) in;
layout(points, max_vertices = 1, max_primitives = 1) out;

void main()
{
    SetMeshOutputsEXT(1, 1);
    gl_MeshVerticesEXT[0].gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
    gl_PrimitivePointIndicesEXT[0] = 0;
    gl_MeshPrimitivesEXT[0].gl_ViewportIndex = 1;
    gl_MeshPrimitivesEXT[0].gl_CullPrimitiveEXT = false;
}
