#version 460
#extension GL_EXT_mesh_shader : require

// One point per mesh workgroup at (task group, mesh group).
layout(local_size_x = 1) in;
layout(points, max_vertices = 1, max_primitives = 1) out;

taskPayloadSharedEXT uint group;

void main()
{
    SetMeshOutputsEXT(1, 1);
    gl_MeshVerticesEXT[0].gl_Position = vec4(float(group), float(gl_WorkGroupID.x), 0.0, 1.0);
    gl_PrimitivePointIndicesEXT[0] = 0;
}
