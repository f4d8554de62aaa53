#version 450
#extension GL_EXT_null_initializer : require
// Initialisers on compute shared variables (a null one and, through the
// SPIR-V initializer, a constant one): every invocation adds to the
// counter after the initial value is in place. Two warps.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { uint o[]; } d;
shared uint counter = {};
shared uint flags[4] = {};
void main() {
    atomicAdd(counter, 1u);
    atomicOr(flags[gl_LocalInvocationIndex % 4u], 1u << (gl_LocalInvocationIndex / 4u % 32u));
    barrier();
    d.o[gl_LocalInvocationIndex] = counter + flags[gl_LocalInvocationIndex % 4u];
}
