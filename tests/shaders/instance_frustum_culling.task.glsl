#version 460
#extension GL_EXT_mesh_shader : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_basic : require

// Instance culling: each invocation tests one instance's bounding box
// (transformed by its model matrix) against the clip volume; the first
// elected invocation writes the count.
layout(local_size_x = 32) in;

layout(std430, binding = 0) readonly buffer Models { mat4 models[]; };
layout(binding = 1) uniform Scene { mat4 viewProj; vec4 boxMin; vec4 boxMax; uint instanceCount; };

struct Payload { uint instances[32]; uint count; };
taskPayloadSharedEXT Payload payload;

bool boxVisible(mat4 mvp)
{
    vec4 lo = vec4(1e30), hi = vec4(-1e30);
    for (int c = 0; c < 8; ++c) {
        vec3 corner = mix(boxMin.xyz, boxMax.xyz, vec3(c & 1, (c >> 1) & 1, (c >> 2) & 1));
        vec4 p = mvp * vec4(corner, 1.0);
        p.xyz /= max(p.w, 1e-4);
        lo = min(lo, p);
        hi = max(hi, p);
    }
    return hi.x >= -1.0 && lo.x <= 1.0 && hi.y >= -1.0 && lo.y <= 1.0 && hi.z >= 0.0 && lo.z <= 1.0;
}

void main()
{
    uint id = gl_GlobalInvocationID.x;
    bool visible = id < instanceCount && boxVisible(viewProj * models[id]);
    uvec4 ballot = subgroupBallot(visible);
    if (visible) {
        payload.instances[subgroupBallotExclusiveBitCount(ballot)] = id;
    }
    if (subgroupElect()) {
        payload.count = subgroupBallotBitCount(ballot);
    }
    EmitMeshTasksEXT(subgroupBallotBitCount(ballot), 1, 1);
}
