#version 460
#extension GL_EXT_mesh_shader : require

// A terrain patch: an 8x8 vertex grid displaced by a height function,
// 7x7 quads split into triangles, nested loops over the grid.
layout(local_size_x = 32) in;
layout(triangles, max_vertices = 64, max_primitives = 98) out;

layout(push_constant) uniform Push { mat4 viewProj; vec2 origin; float scale; };
layout(location = 0) out vec3 normal[];

float height(vec2 p) { return sin(p.x * 0.7) * cos(p.y * 0.3) * 2.0; }

void main()
{
    SetMeshOutputsEXT(64, 98);
    for (uint v = gl_LocalInvocationIndex; v < 64u; v += 32u) {
        vec2 xz = origin + vec2(float(v % 8u), float(v / 8u)) * scale;
        float h = height(xz);
        vec3 dx = vec3(scale, height(xz + vec2(scale, 0.0)) - h, 0.0);
        vec3 dz = vec3(0.0, height(xz + vec2(0.0, scale)) - h, scale);
        normal[v] = normalize(cross(dz, dx));
        gl_MeshVerticesEXT[v].gl_Position = viewProj * vec4(xz.x, h, xz.y, 1.0);
    }
    for (uint q = gl_LocalInvocationIndex; q < 49u; q += 32u) {
        uint x = q % 7u, z = q / 7u;
        uint a = z * 8u + x;
        gl_PrimitiveTriangleIndicesEXT[q * 2u] = uvec3(a, a + 8u, a + 1u);
        gl_PrimitiveTriangleIndicesEXT[q * 2u + 1u] = uvec3(a + 1u, a + 8u, a + 9u);
    }
}
