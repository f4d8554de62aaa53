#version 460
#extension GL_EXT_mesh_shader : require
#extension GL_EXT_fragment_shading_rate : require

// Per-primitive outputs: 40 triangles over 42 vertices (two blocks of 32
// vertices and two of 32 primitives in the SKEW layout). Invocation i
// writes vertices i and i + 32 and primitives i and i + 32; primitives
// with p & cull_mask == 0 (cull_mask from the task payload) are culled.
layout(local_size_x = 32) in;
layout(triangles, max_vertices = 42, max_primitives = 40) out;

taskPayloadSharedEXT uint cull_mask;

layout(location = 0) out float vid[];
layout(location = 1) perprimitiveEXT out vec4 pcolour[];

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint g = gl_WorkGroupID.x;
    SetMeshOutputsEXT(42, 40);
    for (uint v = i; v < 42u; v += 32u) {
        gl_MeshVerticesEXT[v].gl_Position = vec4(float(v), float(g), 0.0, 1.0);
        vid[v] = float(v);
    }
    for (uint p = i; p < 40u; p += 32u) {
        gl_PrimitiveTriangleIndicesEXT[p] = uvec3(p, p + 1u, p + 2u);
        gl_MeshPrimitivesEXT[p].gl_PrimitiveID = int(100u * g + p);
        gl_MeshPrimitivesEXT[p].gl_Layer = int(g);
        gl_MeshPrimitivesEXT[p].gl_CullPrimitiveEXT = (p & cull_mask) == 0u;
        gl_MeshPrimitivesEXT[p].gl_PrimitiveShadingRateEXT = int(p & 15u);
        pcolour[p] = vec4(float(p), float(g), 0.5, 1.0);
    }
}
