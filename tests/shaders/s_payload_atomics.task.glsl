#version 460
#extension GL_EXT_mesh_shader : require

// Atomics on the task payload: a uniform add of 1 whose old values number
// the invocations (aggregated path), a uniform-address add of per-invocation
// values and a max (MATCH loop). The mesh shader reads the results.
layout(local_size_x = 32) in;

struct Payload { uint hits; uint sum; uint maxv; uint olds[32]; };
taskPayloadSharedEXT Payload payload;

void main()
{
    uint i = gl_LocalInvocationIndex;
    if (i == 0u) {
        payload.hits = 0u;
        payload.sum = 0u;
        payload.maxv = 0u;
    }
    barrier();
    payload.olds[i] = atomicAdd(payload.hits, 1u);
    atomicAdd(payload.sum, i + 1u);
    atomicMax(payload.maxv, i * 3u + gl_WorkGroupID.x);
    barrier();
    EmitMeshTasksEXT(1u, 1u, 1u);
}
