#version 460
#extension GL_EXT_mesh_shader : require

// Meshlet culling with a workgroup-wide counter in shared memory instead
// of a ballot: 64 invocations (two subgroups) append survivors with
// atomicAdd, then one invocation launches the mesh tasks.
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer Spheres { vec4 spheres[]; };
layout(push_constant) uniform Push { vec4 planes[4]; uint count; };

struct Payload { uint ids[64]; };
taskPayloadSharedEXT Payload payload;
shared uint survivors;

void main()
{
    if (gl_LocalInvocationIndex == 0u) {
        survivors = 0u;
    }
    barrier();
    uint id = gl_GlobalInvocationID.x;
    if (id < count) {
        vec4 s = spheres[id];
        bool inside = true;
        for (int p = 0; p < 4 && inside; ++p) {
            inside = dot(planes[p].xyz, s.xyz) + planes[p].w >= -s.w;
        }
        if (inside) {
            uint slot = atomicAdd(survivors, 1u);
            payload.ids[slot] = id;
        }
    }
    barrier();
    EmitMeshTasksEXT(survivors, 1, 1);
}
