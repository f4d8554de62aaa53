#version 450
// A bounds check before a loop (BENCHMARKS.md, "Uniform ops computed
// once"): invocations at or past `n` return at once, the others run
// `iterations` rounds of an integer multiply-add and store one word. The
// loop's counter is the same in every lane that runs it (uniform), though
// the lanes went apart at the check. Build: glslangValidator -V
// early_return.comp.glsl -o early_return.comp.spv
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint result[]; };
layout(push_constant) uniform Push { uint n; uint iterations; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= n) return;
    uint a = i;
    for (uint k = 0u; k < iterations; k++) {
        a = a * 1664525u + k;
    }
    result[i] = a;
}
