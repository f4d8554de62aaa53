#version 460
#extension GL_EXT_mesh_shader : require

// Reference runner test (with ref_quads.mesh.glsl): each task workgroup
// launches four mesh workgroups and hands each its quad number through the
// task payload.
layout(local_size_x = 32) in;

struct Payload {
    uint quad[4];
};
taskPayloadSharedEXT Payload payload;

void main()
{
    uint i = gl_LocalInvocationIndex;
    if (i < 4u) {
        payload.quad[i] = gl_WorkGroupID.x * 4u + i;
    }
    EmitMeshTasksEXT(4u, 1u, 1u);
}
