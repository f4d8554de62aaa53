#version 460

// Dynamic indices into vectors and into function-local arrays (which stay
// in memory instead of being promoted to values).
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Data { vec4 v[]; };
layout(std430, binding = 1) buffer Sel { uint sel[]; };

void main()
{
    uint id = gl_GlobalInvocationID.x;
    vec4 x = v[id];
    uint k = sel[id] & 3u;
    float lookup[8] = float[8](1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0);
    lookup[k + 4u] = x[k];
    x[(k + 1u) & 3u] = lookup[k * 2u];
    v[id] = x;
}
