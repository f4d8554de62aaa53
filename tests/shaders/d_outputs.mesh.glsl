#version 460
#extension GL_EXT_mesh_shader : require

// Output placement by Location and Component: an output block whose
// members take consecutive locations (0, 1, 2-3), a matrix (4-6), an
// array (7-8), a Component-decorated scalar (9.z), and clip/cull
// distances (0x2c0: clip 0, clip 1, then cull 0; the clip distances
// written under a dynamic index). Vertex i writes values
// from i so every word is checked.
layout(local_size_x = 2) in;
layout(points, max_vertices = 2, max_primitives = 2) out;

out gl_MeshPerVertexEXT {
    vec4 gl_Position;
    float gl_ClipDistance[2];
    float gl_CullDistance[1];
} gl_MeshVerticesEXT[];

layout(location = 0) out Block {
    vec4 a;
    flat uint b;
    vec2 c[2];
} blk[];
layout(location = 4) out mat3 m[];
layout(location = 7) out float arr[][2];
layout(location = 9, component = 2) out float z[];

void main()
{
    uint i = gl_LocalInvocationIndex;
    float f = float(i);
    SetMeshOutputsEXT(2, 2);
    gl_MeshVerticesEXT[i].gl_Position = vec4(f, 0.0, 0.0, 1.0);
    // A dynamic index: one store per element, guarded by index == k.
    for (int k = 0; k < 2; ++k) {
        gl_MeshVerticesEXT[i].gl_ClipDistance[k] = k == 0 ? f + 0.5 : -f;
    }
    gl_MeshVerticesEXT[i].gl_CullDistance[0] = f - 2.0;
    blk[i].a = vec4(1.0, 2.0, 3.0, f);
    blk[i].b = i + 7u;
    blk[i].c[0] = vec2(10.0, 11.0);
    blk[i].c[1] = vec2(12.0, f);
    m[i] = mat3(vec3(20.0, 21.0, 22.0), vec3(23.0, 24.0, 25.0), vec3(26.0, 27.0, f));
    arr[i][0] = 30.0;
    arr[i][1] = 31.0 + f;
    z[i] = 40.0 + f;
    gl_PrimitivePointIndicesEXT[i] = i;
}
