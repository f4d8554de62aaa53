#version 450
// Built with -gV (build.sh): NonSemantic.Shader.DebugInfo.100
// instructions throughout, which the frontend ignores.
layout(local_size_x = 32) in;
layout(binding = 0) buffer Data { uint o[]; } d;
uint f(uint x) { return x * 2u + 1u; }
void main() { uint i = gl_LocalInvocationIndex; d.o[i] = f(i); }
