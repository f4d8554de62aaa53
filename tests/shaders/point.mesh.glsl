#version 460
#extension GL_EXT_mesh_shader : require

// The worked example of the XDC 2024 talk "Mesh Shaders on NVK": one point.
layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;
layout(points, max_vertices = 1, max_primitives = 1) out;

void main()
{
    SetMeshOutputsEXT(1, 1);
    gl_MeshVerticesEXT[0].gl_PointSize = 200.0;
    gl_MeshVerticesEXT[0].gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
    gl_PrimitivePointIndicesEXT[0] = 0;
}
