#version 460

// A counted loop whose body writes a local variable on both sides of an
// if/else: SSA construction must give the loop header parameters for the
// loop counter and the accumulator.
// Built with: glslangValidator -V --target-env vulkan1.3 -o loop.comp.spv loop.comp.glsl
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) buffer Out {
    uint data[];
};

void main()
{
    uint n = gl_LocalInvocationIndex;
    uint acc = 0u;
    for (uint k = 0u; k < n; ++k) {
        if ((k & 1u) == 0u) {
            acc += k;
        } else {
            acc ^= k * 3u;
        }
    }
    data[n] = acc;
}
