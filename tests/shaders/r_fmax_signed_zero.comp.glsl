#version 450
// Issue 18, progfuzz seed 300: max(0.0, v * 0.0) with v < 0 is max(+0, -0).
// GLSL.std.450 returns x on equal operands; FMNMX orders -0 below +0 at
// every width (docs/ISA.md, "Float functions"): min, max and clamp of
// zeros of both signs in both operand orders, f32 and f64.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = uintBitsToFloat(o[i * 10u]);
    float z = x * 0.0;
    double d = double(x) * 0.0lf;
    o[i * 10u + 0u] = floatBitsToUint(max(0.0, z));
    o[i * 10u + 1u] = floatBitsToUint(max(z, 0.0));
    o[i * 10u + 2u] = floatBitsToUint(min(0.0, z));
    o[i * 10u + 3u] = floatBitsToUint(min(z, 0.0));
    o[i * 10u + 4u] = floatBitsToUint(clamp(z, 0.0, 1.0));
    o[i * 10u + 5u] = unpackDouble2x32(max(0.0lf, d)).y;
    o[i * 10u + 6u] = unpackDouble2x32(max(d, 0.0lf)).y;
    o[i * 10u + 7u] = unpackDouble2x32(min(0.0lf, d)).y;
    o[i * 10u + 8u] = unpackDouble2x32(min(d, 0.0lf)).y;
    o[i * 10u + 9u] = unpackDouble2x32(clamp(d, 0.0lf, 1.0lf)).y;
}
