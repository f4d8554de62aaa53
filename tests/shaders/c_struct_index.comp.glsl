#version 450
// Dynamic indices (count is a power of two) into an array of structs (Offset/ArrayStride from the
// std430 layout) and into a nested array and vector.
layout(local_size_x = 16, local_size_y = 2) in;
struct Item {
    uint id;        // offset 0
    float w;        // offset 4
    vec2 pos;       // offset 8
    uint tags[3];   // offset 16, stride 4; struct size 32
};
layout(std430, set = 0, binding = 0) readonly buffer In {
    uint count;     // offset 0
    Item items[];   // offset 8, stride 32
};
layout(std430, set = 0, binding = 1) writeonly buffer Out { float res[]; };
void main() {
    uint i = gl_GlobalInvocationID.y * 16u + gl_GlobalInvocationID.x;
    uint j = items[i].tags[min(i & 3u, 2u)];
    uint c = i & 1u;
    res[i] = items[j & (count - 1u)].w * items[i].pos[c] + float(items[i].id + j);
}
