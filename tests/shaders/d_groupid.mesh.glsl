#version 460
#extension GL_EXT_mesh_shader : require

// One point at gl_WorkGroupID: the index within the task's launch split by
// the task's group counts.
layout(local_size_x = 1) in;
layout(points, max_vertices = 1, max_primitives = 1) out;

void main()
{
    SetMeshOutputsEXT(1, 1);
    gl_MeshVerticesEXT[0].gl_Position = vec4(vec3(gl_WorkGroupID), 1.0);
    gl_PrimitivePointIndicesEXT[0] = 0;
}
