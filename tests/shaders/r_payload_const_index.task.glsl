#version 460
#extension GL_EXT_mesh_shader : require
// Issue 18 S5: a payload store under a branch whose index folds to a
// constant gave ISBEWR an immediate address.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { uint o[]; };
struct P { uint a; uint b[4]; };
taskPayloadSharedEXT P p;
void main() {
    uint i = gl_LocalInvocationIndex;
    uint j = 3u;
    if (o[i] == 9u) p.b[j - 2u] = o[i] + i;
    if (i == 0u) p.a = 7u;
    EmitMeshTasksEXT(1, 1, 1);
}
