#version 460
#extension GL_EXT_mesh_shader : require

// A dense mesh for in-shader culling: workgroup g draws patch g of an 8x8
// grid of patches spread over NDC [-1.2, 1.2] (the outer ring lies partly
// off screen). Each patch is 8x4 vertices, one per invocation, and 7x3
// cells of two triangles; every other cell winds the other way, so about
// half the triangles face away. Cells are about 1.3 pixels wide on a
// 64x64 image, so many triangles cover no pixel centre. Colours are
// per-vertex and depend on the vertex and the patch.
layout(local_size_x = 32) in;
layout(triangles, max_vertices = 32, max_primitives = 42) out;

layout(location = 0) out vec4 colour[];

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint g = gl_WorkGroupID.x;
    SetMeshOutputsEXT(32, 42);
    float px = -1.2 + 0.3 * float(g % 8u);
    float py = -1.2 + 0.3 * float(g / 8u);
    uint cx = i % 8u;
    uint cy = i / 8u;
    float x = px + float(cx) * (0.3 / 7.0);
    float y = py + float(cy) * 0.1 + 0.01 * float(cx & 1u);
    gl_MeshVerticesEXT[i].gl_Position = vec4(x, y, 0.5, 1.0);
    colour[i] = vec4(float(cx) * (1.0 / 7.0), float(cy) * (1.0 / 3.0), float(g % 5u) * 0.25, 1.0);
    // Cells 0..20 take invocations 0..20, two triangles each.
    if (i < 21u) {
        uint ccx = i % 7u;
        uint ccy = i / 7u;
        uint a = ccy * 8u + ccx;
        uvec3 t0 = uvec3(a, a + 1u, a + 9u);
        uvec3 t1 = uvec3(a, a + 9u, a + 8u);
        if (((ccx + ccy) & 1u) == 1u) {
            t0 = t0.xzy;
            t1 = t1.xzy;
        }
        gl_PrimitiveTriangleIndicesEXT[2u * i] = t0;
        gl_PrimitiveTriangleIndicesEXT[2u * i + 1u] = t1;
    }
}
