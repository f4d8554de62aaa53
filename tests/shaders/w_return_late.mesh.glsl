#version 460
#extension GL_EXT_mesh_shader : require
#extension GL_KHR_shader_subgroup_ballot : require

// Returns in divergent control flow after the last barrier, in a workgroup
// of 96 invocations (three logical subgroups): invocations i % 3 == 1
// return at once; the others count the invocations of their subgroup
// still running (a ballot), then run a loop of i % 5 rounds that even
// invocations leave by a return in round 2. Vertex i that survives shows
// (s[95 - i], that count, 1 + 2 + ... + rounds, 1); every point is written
// before the returns.
layout(local_size_x = 96) in;
layout(points, max_vertices = 96, max_primitives = 96) out;

shared uint s[96];

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(96, 96);
    s[i] = 3u * i;
    barrier();
    uint x = s[95u - i];
    gl_PrimitivePointIndicesEXT[i] = i;
    if (i % 3u == 1u) {
        return;
    }
    uint n = bitCount(subgroupBallot(true).x);
    uint acc = 0u;
    for (uint k = 0u; k < i % 5u; k++) {
        if (k == 2u && (i & 1u) == 0u) {
            return;
        }
        acc += k + 1u;
    }
    gl_MeshVerticesEXT[i].gl_Position = vec4(float(x), float(n), float(acc), 1.0);
}
