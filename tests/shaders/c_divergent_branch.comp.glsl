#version 460

// Branches that depend on the invocation: an if/else on the data, a loop
// whose trip count depends on the invocation, with a break. Each needs a
// convergence barrier.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint data[]; };

void main()
{
    uint id = gl_GlobalInvocationID.x;
    uint v = data[id];
    if ((v & 1u) == 0u) {
        v = v / 2u;
    } else {
        v = 3u * v + 1u;
    }
    uint steps = 0u;
    for (uint i = 0u; i < (id & 15u); i++) {
        if (v == 1u) {
            break;
        }
        v = (v & 1u) == 0u ? v / 2u : 3u * v + 1u;
        steps++;
    }
    data[id] = v + (steps << 24);
}
