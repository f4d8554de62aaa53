#version 460
#extension GL_EXT_mesh_shader : require

// dense_grid.mesh for wide workgroups (in-shader culling of workgroups
// over 32 invocations): workgroup g draws patch g of a 4x4 grid of
// patches spread over NDC [-1.2, 1.2] (the outer ring lies partly off
// screen). A patch is 16 x (n / 16) vertices, one per invocation (n is
// spec constant 0: 128 by default; tests also use 64 and 80), and
// 15 x (n / 16 - 1) cells of two triangles, so up to 210 triangles;
// every other cell winds the other way. Cells are about 1.3 pixels wide
// on a 64x64 image, so many triangles cover no pixel centre.
layout(local_size_x = 128, local_size_x_id = 0) in;
layout(triangles, max_vertices = 128, max_primitives = 210) out;

layout(location = 0) out vec4 colour[];

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint g = gl_WorkGroupID.x;
    uint rows = gl_WorkGroupSize.x / 16u;
    uint cells = 15u * (rows - 1u);
    SetMeshOutputsEXT(gl_WorkGroupSize.x, 2u * cells);
    float px = -1.2 + 0.6 * float(g % 4u);
    float py = -1.2 + 0.6 * float(g / 4u);
    uint cx = i % 16u;
    uint cy = i / 16u;
    float x = px + float(cx) * (0.6 / 15.0);
    float y = py + float(cy) * (0.6 / float(rows)) + 0.01 * float(cx & 1u);
    gl_MeshVerticesEXT[i].gl_Position = vec4(x, y, 0.5, 1.0);
    colour[i] = vec4(float(cx) * (1.0 / 15.0), float(cy) / float(rows), float(g % 5u) * 0.25, 1.0);
    if (i < cells) {
        uint ccx = i % 15u;
        uint ccy = i / 15u;
        uint a = ccy * 16u + ccx;
        uvec3 t0 = uvec3(a, a + 1u, a + 17u);
        uvec3 t1 = uvec3(a, a + 17u, a + 16u);
        if (((ccx + ccy) & 1u) == 1u) {
            t0 = t0.xzy;
            t1 = t1.xzy;
        }
        gl_PrimitiveTriangleIndicesEXT[2u * i] = t0;
        gl_PrimitiveTriangleIndicesEXT[2u * i + 1u] = t1;
    }
}
