#version 460
#extension GL_EXT_mesh_shader : require

// Instanced meshlet drawing: the task shader hands over (meshlet, instance)
// pairs; each workgroup transforms one meshlet's vertices by its instance's
// model matrix and writes the meshlet's triangles.
layout(local_size_x = 32) in;
layout(triangles, max_vertices = 64, max_primitives = 124) out;

struct Meshlet { uint vertexOffset; uint triangleOffset; uint vertexCount; uint triangleCount; };
struct Task { uint meshletIds[32]; uint instance; };
taskPayloadSharedEXT Task payload;

layout(std430, set = 0, binding = 0) readonly buffer Meshlets { Meshlet meshlets[]; };
layout(std430, set = 0, binding = 1) readonly buffer Vertices { vec4 positions[]; };
layout(std430, set = 0, binding = 2) readonly buffer Indices { uint vertexIndices[]; };
layout(std430, set = 0, binding = 3) readonly buffer Prims { uint packedTriangles[]; };
layout(std430, set = 0, binding = 4) readonly buffer Instances { mat4 models[]; };
layout(set = 0, binding = 5) uniform Camera { mat4 viewProj; };

layout(location = 0) out vec3 worldPos[];

void main()
{
    Meshlet m = meshlets[payload.meshletIds[gl_WorkGroupID.x]];
    mat4 model = models[payload.instance];
    SetMeshOutputsEXT(m.vertexCount, m.triangleCount);
    for (uint v = gl_LocalInvocationIndex; v < m.vertexCount; v += 32u) {
        vec4 world = model * positions[vertexIndices[m.vertexOffset + v]];
        worldPos[v] = world.xyz;
        gl_MeshVerticesEXT[v].gl_Position = viewProj * world;
    }
    for (uint t = gl_LocalInvocationIndex; t < m.triangleCount; t += 32u) {
        uint packed = packedTriangles[m.triangleOffset + t];
        gl_PrimitiveTriangleIndicesEXT[t] = uvec3(packed & 0xffu, (packed >> 8) & 0xffu, (packed >> 16) & 0xffu);
    }
}
