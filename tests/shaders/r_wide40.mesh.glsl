#version 460
#extension GL_EXT_mesh_shader : require
// Issue 18 S4: a workgroup of 40 invocations runs as two logical subgroups
// of the one warp; lanes 8..31 of the second are no invocations and must
// neither store nor take part in atomics.
layout(local_size_x = 40) in;
layout(triangles, max_vertices = 3, max_primitives = 1) out;
layout(std430, binding = 0) buffer B { uint o[]; };
void main() {
    SetMeshOutputsEXT(0, 0);
    uint i = gl_LocalInvocationIndex;
    o[i] = i * 3u + 1u;
    atomicAdd(o[63], 1u);
}
