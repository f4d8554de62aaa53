#version 460
#extension GL_EXT_mesh_shader : require

// A task workgroup of 32 invocations fills its payload (every invocation one
// word, invocation 0 the header, invocation 1 a word read back from the
// payload) and launches (group + 1) x 2 x 1 mesh workgroups.
layout(local_size_x = 32) in;

struct Payload {
    uint group;
    float scale;
    uint ids[32];
};
taskPayloadSharedEXT Payload p;

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint g = gl_WorkGroupID.x;
    p.ids[i] = g * 100u + i;
    if (i == 0u) {
        p.group = g;
    }
    barrier();
    if (i == 1u) {
        p.scale = float(p.ids[5]) * 0.5;
    }
    EmitMeshTasksEXT(g + 1u, 2, 1);
}
