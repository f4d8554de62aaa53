#version 460
#extension GL_EXT_mesh_shader : require
// Per-vertex and per-primitive outputs read back by the shader: each
// invocation writes its own vertex and primitive, then, after a barrier,
// reads another invocation's (a dynamic index) and derives its own
// second user output from it. Each also writes an array element of the next
// vertex and reads its own vertex's, written by the invocation before it;
// and reads another vertex's matrix column, Component-placed vector and clip
// distance (from_ir/mesh_out_load.rs).
layout(local_size_x = 32) in;
layout(points, max_vertices = 32, max_primitives = 32) out;

layout(location = 0) out vec4 colour[];
layout(location = 1) out vec2 derived[];
layout(location = 2) perprimitiveEXT out uint tag[];
layout(location = 3) perprimitiveEXT out uint seen[];
layout(location = 4) out float next[][2];
layout(location = 6) out float prev[];
layout(location = 7) out mat2 m[];
layout(location = 9, component = 2) out vec2 zw[];
layout(location = 10) out vec3 mixed[];

out gl_MeshPerVertexEXT {
    vec4 gl_Position;
    float gl_PointSize;
    float gl_ClipDistance[2];
} gl_MeshVerticesEXT[];

void main() {
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(32, 32);
    gl_MeshVerticesEXT[i].gl_Position = vec4(float(i), 2.0 * float(i), 0.0, 1.0);
    gl_MeshVerticesEXT[i].gl_PointSize = 1.0 + float(i);
    colour[i] = vec4(float(i) + 0.5, 0.0, 0.0, float(100 + i));
    tag[i] = 1000u + i;
    m[i] = mat2(float(i), float(i + 1u), float(i + 2u), float(i + 3u));
    zw[i] = vec2(float(3u * i), float(3u * i + 1u));
    gl_MeshVerticesEXT[i].gl_ClipDistance[0] = float(i);
    gl_MeshVerticesEXT[i].gl_ClipDistance[1] = -float(i);
    gl_PrimitivePointIndicesEXT[i] = i;
    // Vertex (i + 1) mod N's element, written by this invocation.
    next[(i + 1u) % 32u][1] = float(i);
    barrier();
    uint j = (i * 7u + 3u) % 32u;
    vec4 p = gl_MeshVerticesEXT[j].gl_Position;
    float s = gl_MeshVerticesEXT[j].gl_PointSize;
    derived[i] = vec2(p.y + colour[j].w, s + colour[j].x);
    seen[i] = tag[j] + tag[i];
    // This vertex's element, written by the invocation before it.
    prev[i] = 2.0 * next[i][1];
    // A matrix column, a Component-placed vector, a clip distance under a
    // dynamic index.
    mixed[i] = vec3(m[j][1].x, zw[j].y, gl_MeshVerticesEXT[j].gl_ClipDistance[i & 1u]);
}
