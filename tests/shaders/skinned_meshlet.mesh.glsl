#version 460
#extension GL_EXT_mesh_shader : require

// Linear blend skinning in a mesh shader: four bone matrices per vertex from
// a row-major uniform block, normals through the inverse transpose.
layout(local_size_x = 32) in;
layout(triangles, max_vertices = 32, max_primitives = 32) out;

struct SkinnedVertex { vec4 position; vec4 normal; uvec4 bones; vec4 weights; };
layout(std430, binding = 0) readonly buffer Verts { SkinnedVertex verts[]; };
layout(std140, binding = 1, row_major) uniform Bones { mat4 bones[64]; };
layout(std140, binding = 2) uniform Camera { layout(column_major) mat4 viewProj; };
layout(location = 0) out vec3 outNormal[];

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(32, 10);
    SkinnedVertex v = verts[gl_WorkGroupID.x * 32u + i];
    mat4 skin = mat4(0.0);
    for (int k = 0; k < 4; ++k) {
        skin += bones[v.bones[k]] * v.weights[k];
    }
    mat3 normalMatrix = transpose(inverse(mat3(skin)));
    outNormal[i] = normalize(normalMatrix * v.normal.xyz);
    gl_MeshVerticesEXT[i].gl_Position = viewProj * (skin * v.position);
    if (i < 10u) {
        gl_PrimitiveTriangleIndicesEXT[i] = uvec3(i * 3u, i * 3u + 1u, i * 3u + 2u);
    }
}
