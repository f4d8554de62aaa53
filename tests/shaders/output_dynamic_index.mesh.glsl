#version 460
#extension GL_EXT_mesh_shader : require
// User outputs under a dynamic array, column or component index, stored
// and read back: each such access is one guarded store (or one read and a
// select) per element it may reach (from_ir/mesh_out.rs, mesh_out_load.rs).
// Invocation i writes element k = i % 3 of its vertex's arrays, matrix
// column and vector, and element i & 1 of its primitive's array; after a
// barrier it reads vertex j = (i + 5) % 32's element j % 3 and primitive
// j's element j & 1.
layout(local_size_x = 32) in;
layout(points, max_vertices = 32, max_primitives = 32) out;

layout(location = 0) out float arr[][3];
layout(location = 3) out mat3 m[];
layout(location = 6) out vec4 v[];
layout(location = 7) perprimitiveEXT out uint parr[][2];
layout(location = 9) out vec4 got[];
layout(location = 10) perprimitiveEXT out uint pgot[];

void main() {
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(32, 32);
    gl_MeshVerticesEXT[i].gl_Position = vec4(float(i), 0.0, 0.0, 1.0);
    gl_PrimitivePointIndicesEXT[i] = i;
    uint k = i % 3u;
    arr[i] = float[3](0.0, 0.0, 0.0);
    arr[i][k] = 10.0 + float(i);
    m[i] = mat3(0.0);
    m[i][k] = vec3(float(i), float(k), 1.0);
    v[i] = vec4(1.0, 2.0, 3.0, 4.0);
    v[i][k] = 100.0 + float(i);
    parr[i][i & 1u] = 7u + i;
    parr[i][1u - (i & 1u)] = 0u;
    barrier();
    uint j = (i + 5u) % 32u;
    uint kj = j % 3u;
    got[i] = vec4(arr[j][kj], m[j][kj].x, m[j][kj].y, v[j][kj]);
    pgot[i] = parr[j][j & 1u];
}
