#version 460
#extension GL_EXT_mesh_shader : require
#extension GL_KHR_shader_subgroup_ballot : require

// Meshlet culling in a task shader (as in meshoptimizer's demo and
// niagara): frustum-sphere and normal-cone tests per meshlet, survivors
// compacted into the payload with a subgroup ballot.
layout(local_size_x = 32) in;

struct MeshletBounds { vec4 sphere; vec4 coneAxisCutoff; vec4 coneApex; };
layout(std430, binding = 0) readonly buffer Bounds { MeshletBounds bounds[]; };
layout(binding = 1) uniform Cull { mat4 view; vec4 frustum[6]; vec3 cameraPos; uint meshletCount; };

struct Payload { uint meshletIds[32]; };
taskPayloadSharedEXT Payload payload;

bool coneCull(MeshletBounds b, vec3 camera)
{
    return dot(normalize(b.coneApex.xyz - camera), b.coneAxisCutoff.xyz) >= b.coneAxisCutoff.w;
}

void main()
{
    uint id = gl_GlobalInvocationID.x;
    bool visible = false;
    if (id < meshletCount) {
        MeshletBounds b = bounds[id];
        visible = true;
        for (int p = 0; p < 6; ++p) {
            if (dot(frustum[p].xyz, b.sphere.xyz) + frustum[p].w < -b.sphere.w) {
                visible = false;
                break;
            }
        }
        visible = visible && !coneCull(b, cameraPos);
    }
    uvec4 ballot = subgroupBallot(visible);
    uint index = subgroupBallotExclusiveBitCount(ballot);
    if (visible) {
        payload.meshletIds[index] = id;
    }
    uint count = subgroupBallotBitCount(ballot);
    EmitMeshTasksEXT(count, 1, 1);
}
