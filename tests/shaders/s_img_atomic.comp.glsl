#version 450
// An image atomic: texel pointers are refused by name (OpImageTexelPointer).
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D counters;

void main() {
    imageAtomicAdd(counters, ivec2(0, 0), 1u);
}
