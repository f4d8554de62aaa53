#version 460

// A switch with fall-through, shared cases and a default in the middle,
// inside a function with an early return, and a function with an inout
// parameter: inlining, OpSwitch and SSA construction must keep the
// source's meaning.
// Built with: glslangValidator -V --target-env vulkan1.3 -o switch_calls.comp.spv switch_calls.comp.glsl
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint outv[]; };

uint classify(uint v)
{
    uint r = 0u;
    switch (v & 7u) {
    case 0u:
        r += 1u;
    case 1u:
        r += 2u;
        break;
    case 2u:
    case 3u:
        r = 10u;
        break;
    default:
        r = 100u;
        break;
    case 6u:
        if (v > 32u) {
            return 7u;
        }
        r = 60u;
        break;
    }
    return r + (v >> 3);
}

void addTwice(inout uint x, uint y)
{
    x += y;
    x += y;
}

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint a = classify(i);
    addTwice(a, i);
    outv[i] = a;
}
