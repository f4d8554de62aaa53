#version 460

// Boolean equality (OpLogicalEqual / OpLogicalNotEqual) and a vector
// indexed by a run-time value.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uvec4 vals[]; };
layout(std430, binding = 1) buffer Out { uint outv[]; };

void main()
{
    uint id = gl_GlobalInvocationID.x;
    uvec4 v = vals[id];
    bool a = v.x > v.y;
    bool b = v.z > v.w;
    uint k = v.x & 3u;
    uint picked = v[k];
    v[(k + 1u) & 3u] = 77u;
    outv[id * 4u] = (a == b ? 1u : 0u) | (a != b ? 2u : 0u);
    outv[id * 4u + 1u] = picked;
    outv[id * 4u + 2u] = v.x + v.y + v.z + v.w;
    outv[id * 4u + 3u] = v[(k + 1u) & 3u];
}
