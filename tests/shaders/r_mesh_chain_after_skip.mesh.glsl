#version 460
#extension GL_EXT_mesh_shader : require

// Reduced from progfuzz (mesh, seed 94): 48 invocations run as two logical
// subgroups on one warp; the second's lanes 16..31 are no invocations, so
// each run of top-level instructions of that copy is skipped for them. The
// atomic's address is an access chain made in the first run (the entry
// block) and used in a later one (after the branch of the `? :`): its index
// was not passed across the skipped run, and register allocation failed
// ("SSA(VReg ...)").
layout(local_size_x = 48) in;
layout(lines, max_vertices = 2, max_primitives = 1) out;
layout(std430, set = 0, binding = 0) readonly buffer In { uint inp[]; };
layout(std430, set = 0, binding = 1) buffer Atom { uint at[]; };

void main() {
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(2u, 1u);
    uint k = inp[i] & 7u;
    atomicAdd(at[8u + k], (inp[0] == 12345u ? 0u : i + 1u));
    if (i < 2u) {
        gl_MeshVerticesEXT[i].gl_Position = vec4(float(i), 0.0, 0.0, 1.0);
    }
    if (i == 0u) {
        gl_PrimitiveLineIndicesEXT[0] = uvec2(0u, 1u);
    }
}
