#version 460
#extension GL_EXT_mesh_shader : require

// Task and mesh shaders writing storage buffers (`spvsass run --out` on a
// draw): each task invocation stores its index plus a push constant, then
// the workgroup launches `launches` mesh workgroups (b_store.mesh).
layout(local_size_x = 32) in;
layout(std430, binding = 0) writeonly buffer Out { uint words[]; };
layout(push_constant) uniform Push { uint bias; uint launches; };

void main()
{
    uint i = gl_WorkGroupID.x * 32u + gl_LocalInvocationIndex;
    words[i] = i + bias;
    EmitMeshTasksEXT(launches, 1u, 1u);
}
