#version 460
#extension GL_EXT_mesh_shader : require

// Uses sin(), which the backend does not lower yet (MUFU.SIN, issue [C]):
// the CLI must reject it naming the instruction.
layout(local_size_x = 1) in;
layout(points, max_vertices = 1, max_primitives = 1) out;

void main()
{
    SetMeshOutputsEXT(1, 1);
    gl_MeshVerticesEXT[0].gl_Position = vec4(sin(float(gl_LocalInvocationIndex)), 0.0, 0.0, 1.0);
    gl_PrimitivePointIndicesEXT[0] = 0;
}
