#version 450
#extension GL_ARB_gpu_shader_fp64 : require
// Issue 18: sign() and step() on doubles were refused.
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer B { double d[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    double x = d[i];
    d[i] = sign(x) + step(0.5lf, x) * 10.0lf;
}
