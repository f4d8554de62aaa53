#version 460
#extension GL_EXT_mesh_shader : require

// Reference runner test (with ref_quads.task.glsl): mesh workgroup g draws
// quad payload.quad[g] as two triangles in its quadrant of the image, with a
// per-primitive colour; the second triangle of quad 3 is culled. Alpha is
// never 0, so covered pixels never look like the clear colour.
layout(local_size_x = 32) in;
layout(triangles, max_vertices = 4, max_primitives = 2) out;

struct Payload {
    uint quad[4];
};
taskPayloadSharedEXT Payload payload;

layout(location = 0) perprimitiveEXT out vec4 colour[];

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint q = payload.quad[gl_WorkGroupID.x];
    SetMeshOutputsEXT(4, 2);
    // Quadrant (q % 2, q / 2 % 2), with a margin of a quarter quadrant.
    float x0 = float(q % 2u) - 0.75;
    float y0 = float(q / 2u % 2u) - 0.75;
    if (i < 4u) {
        float x = x0 + float(i & 1u) * 0.5;
        float y = y0 + float(i >> 1) * 0.5;
        gl_MeshVerticesEXT[i].gl_Position = vec4(x, y, 0.0, 1.0);
    }
    if (i < 2u) {
        gl_PrimitiveTriangleIndicesEXT[i] = i == 0u ? uvec3(0, 1, 2) : uvec3(2, 1, 3);
        colour[i] = vec4(float(q + 1u) * 0.25, i == 0u ? 1.0 : 0.5, 0.25, 1.0);
        gl_MeshPrimitivesEXT[i].gl_CullPrimitiveEXT = q == 3u && i == 1u;
    }
}
