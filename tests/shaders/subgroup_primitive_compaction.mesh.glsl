#version 460
#extension GL_EXT_mesh_shader : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require

// Culled primitives are compacted away: each surviving triangle finds its
// output slot with a ballot and an exclusive bit count.
layout(local_size_x = 32) in;
layout(triangles, max_vertices = 32, max_primitives = 32) out;

layout(std430, binding = 0) readonly buffer Verts { vec4 clipPos[]; };
layout(std430, binding = 1) readonly buffer Tris { uvec4 tris[]; };

void main()
{
    uint i = gl_LocalInvocationIndex;
    uvec3 t = tris[gl_WorkGroupID.x * 32u + i].xyz;
    vec4 a = clipPos[t.x], b = clipPos[t.y], c = clipPos[t.z];
    bool visible = cross(b.xyz / b.w - a.xyz / a.w, c.xyz / c.w - a.xyz / a.w).z > 0.0;
    uvec4 vote = subgroupBallot(visible);
    uint survivors = subgroupBallotBitCount(vote);
    uint slot = subgroupBallotExclusiveBitCount(vote);
    SetMeshOutputsEXT(32, survivors);
    gl_MeshVerticesEXT[i].gl_Position = clipPos[gl_WorkGroupID.x * 32u + i];
    if (visible) {
        gl_PrimitiveTriangleIndicesEXT[slot] = t % 32u;
    }
}
