#version 460
#extension GL_EXT_mesh_shader : require
// Issue 18 S5: a shared-memory load and atomic whose index folds to a
// constant gave MATCH.ANY and ISBERD an immediate where the encoder takes
// only a register.
layout(local_size_x = 32) in;
layout(triangles, max_vertices = 3, max_primitives = 1) out;
layout(std430, binding = 0) buffer B { uint o[]; };
shared uint s[8];
void main() {
    SetMeshOutputsEXT(0, 0);
    uint i = gl_LocalInvocationIndex;
    if (i < 8u) s[i] = i * 3u;
    barrier();
    uint k = 2u;
    uint a = atomicMax(s[k + 1u], i * 5u);
    uint b = s[k];
    barrier();
    o[i] = b + s[3] * 100u;
}
