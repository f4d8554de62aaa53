#version 460
#extension GL_EXT_mesh_shader : require

// Level-of-detail selection by distance, with a switch over the level.
layout(local_size_x = 1) in;

layout(std430, binding = 0) readonly buffer Objects { vec4 centres[]; };
layout(push_constant) uniform Push { vec3 camera; float lodScale; };

struct Payload { uint object; uint lod; uint meshletBase; };
taskPayloadSharedEXT Payload payload;

void main()
{
    uint object = gl_WorkGroupID.x;
    float d = distance(centres[object].xyz, camera) * lodScale;
    uint lod = uint(clamp(floor(log2(max(d, 1.0))), 0.0, 3.0));
    uint groups;
    switch (lod) {
    case 0u: groups = 16u; break;
    case 1u: groups = 8u; break;
    case 2u: groups = 3u; break;
    default: groups = 1u; break;
    }
    payload.object = object;
    payload.lod = lod;
    payload.meshletBase = object * 32u;
    EmitMeshTasksEXT(groups, 1, 1);
}
