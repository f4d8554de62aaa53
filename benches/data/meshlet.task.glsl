#version 460
#extension GL_EXT_mesh_shader : require
#extension GL_KHR_shader_subgroup_ballot : require

// The meshlet benchmark's task shader (benches/draw.rs): each invocation
// tests one meshlet of a procedural terrain against the view frustum and a
// normal cone, and the survivors are compacted into the payload with a
// subgroup ballot, as meshlet renderers do (niagara, meshoptimizer).
layout(local_size_x = 32) in;

struct Payload { uint meshletIds[32]; };
taskPayloadSharedEXT Payload payload;

const uint GRID = 64u; // meshlets per row of the terrain

vec3 centre(uint id)
{
    vec2 xz = (vec2(id % GRID, id / GRID) + 0.5) / float(GRID) * 2.0 - 1.0;
    return vec3(xz.x, 0.1 * sin(6.0 * xz.x) * cos(5.0 * xz.y), xz.y);
}

void main()
{
    uint id = gl_GlobalInvocationID.x;
    vec3 c = centre(id);
    float radius = 1.5 / float(GRID);
    // A camera above the terrain looking down its -z half.
    vec3 eye = vec3(0.0, 1.0, 1.5);
    vec3 toCentre = c - eye;
    bool visible = toCentre.z - radius < 0.0 && abs(toCentre.x) - radius < -toCentre.z;
    // Cone test: the patch normal against the view direction.
    vec3 normal = normalize(vec3(-0.6 * cos(6.0 * c.x), 1.0, 0.5 * sin(5.0 * c.z)));
    visible = visible && dot(normal, normalize(toCentre)) < 0.2;
    uvec4 ballot = subgroupBallot(visible);
    if (visible) {
        payload.meshletIds[subgroupBallotExclusiveBitCount(ballot)] = id;
    }
    EmitMeshTasksEXT(subgroupBallotBitCount(ballot), 1, 1);
}
