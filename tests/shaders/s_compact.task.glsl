#version 460
#extension GL_EXT_mesh_shader : require

// Meshlet compaction as culling task shaders do it: every invocation tests
// one meshlet (here a hash of its index stands in for the culling test),
// survivors take a slot from a shared counter with atomicAdd and write
// their meshlet index there in the payload; one mesh workgroup per
// survivor. The counter's address and the added value are uniform: the
// compiler's warp-aggregated path.
layout(local_size_x = 32) in;

struct Payload { uint ids[32]; };
taskPayloadSharedEXT Payload payload;
shared uint survivors;

void main()
{
    if (gl_LocalInvocationIndex == 0u) {
        survivors = 0u;
    }
    barrier();
    uint id = gl_WorkGroupID.x * 32u + gl_LocalInvocationIndex;
    if (((id * 2654435761u) >> 29u) < 5u) {
        uint slot = atomicAdd(survivors, 1u);
        payload.ids[slot] = id;
    }
    barrier();
    EmitMeshTasksEXT(survivors, 1u, 1u);
}
