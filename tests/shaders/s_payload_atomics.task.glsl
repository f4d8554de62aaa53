#version 460
#extension GL_EXT_mesh_shader : require
#extension GL_EXT_null_initializer : require

// Atomics on the task payload: a uniform add of 1 whose old values number
// the invocations (aggregated path), a uniform-address add of per-invocation
// values and a max (MATCH loop). The mesh shader reads the results.
// `zeroed` has a null initializer: the compiler zero-fills it (the
// simulator starts a task's output ISBE filled with 0xcd bytes).
layout(local_size_x = 32) in;

struct Payload { uint hits; uint sum; uint maxv; uint zsum; uint olds[32]; };
taskPayloadSharedEXT Payload payload;
shared uint zeroed[40] = {};

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
    if (i == 0u) {
        uint z = 1u;
        for (uint k = 0u; k < 40u; ++k) {
            z += zeroed[k];
        }
        payload.zsum = z;
    }
    EmitMeshTasksEXT(1u, 1u, 1u);
}
