#version 460
#extension GL_EXT_mesh_shader : require

// Task workgroup g launches (g + 2) x 2 x 3 mesh workgroups of d_groupid.mesh.
layout(local_size_x = 32) in;

void main()
{
    EmitMeshTasksEXT(gl_WorkGroupID.x + 2u, 2, 3);
}
