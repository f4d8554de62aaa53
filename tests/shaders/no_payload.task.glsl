#version 460
#extension GL_EXT_mesh_shader : require

// A task shader without a payload: it only decides how many mesh
// workgroups to launch, from a buffer of draw counts.
layout(local_size_x = 1) in;
layout(std430, binding = 0) readonly buffer Counts { uvec2 counts[]; };

void main()
{
    uvec2 c = counts[gl_WorkGroupID.x];
    EmitMeshTasksEXT(max(c.x, 1u), c.y == 0u ? 1u : c.y, 1u);
}
