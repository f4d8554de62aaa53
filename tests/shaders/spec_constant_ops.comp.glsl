#version 460

// Specialization constants: a boolean switch, an integer used in a
// specialization-constant expression that sizes a shared array, and a float.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const int TILE = 8;
layout(constant_id = 2) const bool USE_SQRT = false;
layout(constant_id = 3) const float GAIN = 1.5;
const int TILE_AREA = TILE * TILE + 1;

layout(std430, binding = 0) buffer Data { float data[]; };
shared float tile[TILE_AREA];

void main()
{
    uint i = gl_LocalInvocationIndex;
    tile[i % uint(TILE_AREA)] = data[gl_GlobalInvocationID.x];
    barrier();
    float v = tile[(i + 1u) % uint(TILE_AREA)] * GAIN;
    data[gl_GlobalInvocationID.x] = USE_SQRT ? sqrt(abs(v)) : v;
}
