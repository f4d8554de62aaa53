#version 460

// Module-scope (Private) variables, with initializers and constant tables.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Data { uint data[]; };

const uint PRIMES[8] = uint[8](2u, 3u, 5u, 7u, 11u, 13u, 17u, 19u);
uint seed = 12345u;
float weights[4] = float[4](0.1, 0.2, 0.3, 0.4);

uint nextRandom()
{
    seed = seed * 1103515245u + 12345u;
    return seed >> 16;
}

void main()
{
    uint id = gl_GlobalInvocationID.x;
    seed ^= id;
    uint r = nextRandom() % PRIMES[id & 7u];
    weights[id & 3u] += float(r);
    data[id] = r + uint(weights[0] + weights[3]) + nextRandom();
}
