#version 460
#extension GL_EXT_mesh_shader : require

// Per-primitive culling: vertices are projected into shared memory, then
// each triangle is culled when back-facing or outside the view, through
// gl_CullPrimitiveEXT.
layout(local_size_x = 64) in;
layout(triangles, max_vertices = 64, max_primitives = 64) out;

layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) readonly buffer Triangles { uvec4 triangles[]; };
layout(push_constant) uniform Push { mat4 mvp; uint vertexCount; uint triangleCount; };

shared vec4 clip[64];

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(vertexCount, triangleCount);
    if (i < vertexCount) {
        vec4 p = mvp * positions[i];
        clip[i] = p;
        gl_MeshVerticesEXT[i].gl_Position = p;
    }
    barrier();
    if (i < triangleCount) {
        uvec3 t = triangles[i].xyz;
        gl_PrimitiveTriangleIndicesEXT[i] = t;
        vec2 a = clip[t.x].xy / clip[t.x].w;
        vec2 b = clip[t.y].xy / clip[t.y].w;
        vec2 c = clip[t.z].xy / clip[t.z].w;
        float area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
        bool outside = all(greaterThan(vec3(a.x, b.x, c.x), vec3(1.0))) || all(lessThan(vec3(a.x, b.x, c.x), vec3(-1.0)));
        gl_MeshPrimitivesEXT[i].gl_CullPrimitiveEXT = area <= 0.0 || outside;
    }
}
