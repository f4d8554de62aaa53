#version 460
#extension GL_EXT_mesh_shader : require

// Outputs with every interpolation qualifier, in an output block and as
// plain arrays.
layout(local_size_x = 3) in;
layout(triangles, max_vertices = 3, max_primitives = 1) out;

layout(location = 0) out VertexOut {
    vec4 colour;
    flat uint id;
    noperspective vec2 screenUv;
    centroid vec3 normal;
} vout[];
layout(location = 4) flat out ivec2 tileIndex[];
layout(location = 5) sample out float coverage[];

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(3, 1);
    gl_MeshVerticesEXT[i].gl_Position = vec4(float(i) * 0.5, 0.0, 0.0, 1.0);
    vout[i].colour = vec4(1.0, 0.5, 0.25, 1.0);
    vout[i].id = i;
    vout[i].screenUv = vec2(float(i), 1.0 - float(i));
    vout[i].normal = vec3(0.0, 0.0, 1.0);
    tileIndex[i] = ivec2(int(i), -int(i));
    coverage[i] = 1.0;
    if (i == 0u) {
        gl_PrimitiveTriangleIndicesEXT[0] = uvec3(0, 1, 2);
    }
}
