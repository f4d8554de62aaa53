#version 460

// Nested loops with continue and break, and locals written on some paths
// only: the tests run the translated IR and compare with a Rust model.
// Built with: glslangValidator -V --target-env vulkan1.3 -o nested.comp.spv nested.comp.glsl
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) buffer Out {
    uint data[];
};

void main()
{
    uint n = gl_LocalInvocationIndex;
    uint acc = 1u;
    for (uint a = 0u; a < n; ++a) {
        if (a == 5u) {
            continue;
        }
        uint b = a;
        while (true) {
            if (b == 0u) {
                break;
            }
            acc = acc * 3u + b;
            b >>= 1;
        }
        if (acc > 100000u) {
            acc &= 0xffffu;
        }
        if (a > 40u) {
            break;
        }
    }
    data[n] = acc;
}
