#version 460
#extension GL_EXT_mesh_shader : require

// User clip and cull planes on a quad.
layout(local_size_x = 4) in;
layout(triangles, max_vertices = 4, max_primitives = 2) out;

out gl_MeshPerVertexEXT {
    vec4 gl_Position;
    float gl_ClipDistance[2];
    float gl_CullDistance[1];
} gl_MeshVerticesEXT[];

layout(binding = 0) uniform Planes { vec4 clipPlanes[2]; vec4 cullPlane; };

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(4, 2);
    vec4 p = vec4(float(i & 1u) * 2.0 - 1.0, float(i >> 1) * 2.0 - 1.0, 0.5, 1.0);
    gl_MeshVerticesEXT[i].gl_Position = p;
    for (int k = 0; k < 2; ++k) {
        gl_MeshVerticesEXT[i].gl_ClipDistance[k] = dot(p, clipPlanes[k]);
    }
    gl_MeshVerticesEXT[i].gl_CullDistance[0] = dot(p, cullPlane);
    if (i < 2u) {
        gl_PrimitiveTriangleIndicesEXT[i] = i == 0u ? uvec3(0, 1, 2) : uvec3(2, 1, 3);
    }
}
