#version 460
#extension GL_EXT_mesh_shader : require

// Task workgroup 1 returns without EmitMeshTasksEXT: it launches nothing.
// The others launch 2 mesh workgroups of d_return.mesh.
layout(local_size_x = 32) in;

taskPayloadSharedEXT uint group;

void main()
{
    if (gl_WorkGroupID.x == 1u) {
        return;
    }
    group = gl_WorkGroupID.x;
    EmitMeshTasksEXT(2, 1, 1);
}
