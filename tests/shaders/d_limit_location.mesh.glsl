#version 460
#extension GL_EXT_mesh_shader : require

// Refused: Location 32 is past the 32 locations (128 components) of the
// attribute map.
layout(local_size_x = 1) in;
layout(points, max_vertices = 1, max_primitives = 1) out;

layout(location = 32) out vec4 extra[];

void main()
{
    SetMeshOutputsEXT(1, 1);
    extra[0] = vec4(1.0);
    gl_PrimitivePointIndicesEXT[0] = 0;
}
