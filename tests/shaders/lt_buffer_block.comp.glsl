#version 450
// Built for Vulkan 1.0 (build.sh): the storage buffer is a Uniform
// variable of a BufferBlock struct, the SPIR-V 1.0-1.2 form. Written,
// updated atomically and sized by its runtime array.
layout(local_size_x = 32) in;
layout(binding = 0) buffer Data { uint count; uint vals[]; } d;
void main() {
    uint i = gl_LocalInvocationIndex;
    d.vals[i] = d.vals[i] * 3u + uint(d.vals.length());
    atomicAdd(d.count, 1u);
}
