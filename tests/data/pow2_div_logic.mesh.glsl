#version 460
#extension GL_EXT_mesh_shader : require

// Unsigned division and remainder by powers of two, and && / || on
// booleans (OpLogicalAnd, OpLogicalOr): each invocation writes its
// results into vertex i's Location 0 (tests/pow2_div_logic.rs).
layout(local_size_x = 32) in;
layout(points, max_vertices = 32, max_primitives = 32) out;

layout(location = 0) out vec4 values[];

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(32, 32);
    gl_MeshVerticesEXT[i].gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
    gl_PrimitivePointIndicesEXT[i] = i;
    bool low = i < 3u;
    bool high = i > 28u;
    bool odd = (i & 1u) == 1u;
    values[i] = vec4(float(i / 4u), float(i % 8u), (low || high) ? 1.0 : 0.0,
                     (odd && !high) ? 1.0 : 0.0);
}
