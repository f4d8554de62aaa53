#version 460
#extension GL_EXT_mesh_shader : require

// The meshlet benchmark's mesh shader: each workgroup expands one meshlet
// the task shader kept into an 8x8 grid of terrain vertices (height from
// sines, a normal, a perspective projection) and its 98 triangles.
layout(local_size_x = 32) in;
layout(triangles, max_vertices = 64, max_primitives = 98) out;

struct Payload { uint meshletIds[32]; };
taskPayloadSharedEXT Payload payload;

layout(location = 0) out vec3 colour[];

const uint GRID = 64u;

void main()
{
    uint id = payload.meshletIds[gl_WorkGroupID.x];
    vec2 origin = vec2(id % GRID, id / GRID) / float(GRID) * 2.0 - 1.0;
    SetMeshOutputsEXT(64, 98);
    for (uint v = gl_LocalInvocationIndex; v < 64u; v += 32u) {
        vec2 xz = origin + vec2(v % 8u, v / 8u) / 7.0 * (2.0 / float(GRID));
        float h = 0.1 * sin(6.0 * xz.x) * cos(5.0 * xz.y);
        vec3 n = normalize(vec3(-0.6 * cos(6.0 * xz.x), 1.0, 0.5 * sin(5.0 * xz.y)));
        vec3 view = vec3(xz.x, h - 1.0, xz.y - 1.5);
        gl_MeshVerticesEXT[v].gl_Position = vec4(view.x, view.y, -view.z * 0.5, -view.z);
        colour[v] = n * 0.5 + 0.5;
    }
    for (uint t = gl_LocalInvocationIndex; t < 98u; t += 32u) {
        uint quad = t / 2u;
        uint base = quad / 7u * 8u + quad % 7u;
        gl_PrimitiveTriangleIndicesEXT[t] = (t & 1u) == 0u
            ? uvec3(base, base + 1u, base + 8u)
            : uvec3(base + 1u, base + 9u, base + 8u);
    }
}
