#version 460
#extension GL_EXT_mesh_shader : require

// meshlet.mesh.glsl with a store into a bound buffer, for the launch-order
// benchmark (benches/launch_order.rs): when the push constant `store` is
// not zero, lane 0 of each workgroup writes its meshlet id to
// meshletOut[gl_WorkGroupID.x], which makes the simulator discard its
// parallel attempt and rerun the mesh workgroups in launch order
// (sim/src/launch_order.rs). With `store` zero the program is the same
// and may write, but does not.
layout(local_size_x = 32) in;
layout(triangles, max_vertices = 64, max_primitives = 98) out;

struct Payload { uint meshletIds[32]; };
taskPayloadSharedEXT Payload payload;

layout(location = 0) out vec3 colour[];
layout(set = 0, binding = 0) writeonly buffer MeshletOut { uint meshletOut[]; };
layout(push_constant) uniform Push { uint store; };

const uint GRID = 64u;

void main()
{
    uint id = payload.meshletIds[gl_WorkGroupID.x];
    float x0 = float(id % GRID) * (2.0 / 64.0) - 1.0;
    float z0 = float(id / GRID) * (2.0 / 64.0) - 1.0;
    SetMeshOutputsEXT(64, 98);
    if (store != 0u && gl_LocalInvocationIndex == 0u) {
        meshletOut[gl_WorkGroupID.x] = id;
    }
    for (uint v = gl_LocalInvocationIndex; v < 64u; v += 32u) {
        float x = x0 + float(v % 8u) * (2.0 / 7.0 / 64.0);
        float z = z0 + float(v / 8u) * (2.0 / 7.0 / 64.0);
        float h = 0.3 * x * z - 0.2 * x * x;
        gl_MeshVerticesEXT[v].gl_Position = vec4(x, h - 1.0, 0.75 - 0.5 * z, 1.5 - z);
        colour[v] = vec3(0.2 * x - 0.15 * z + 0.5, 1.0, 0.5 - 0.15 * x);
    }
    for (uint t = gl_LocalInvocationIndex; t < 98u; t += 32u) {
        uint quad = t / 2u;
        uint base = quad / 7u * 8u + quad % 7u;
        // Even: (base, base + 1, base + 8); odd: (base + 1, base + 9, base + 8).
        uint odd = t & 1u;
        gl_PrimitiveTriangleIndicesEXT[t] = uvec3(base + odd, base + 1u + 8u * odd, base + 8u);
    }
}
