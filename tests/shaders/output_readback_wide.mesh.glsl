#version 460
#extension GL_EXT_mesh_shader : require
// Per-vertex and per-primitive outputs read back by the shader: each
// invocation writes its own vertex and primitive, then, after a barrier,
// reads another invocation's (a dynamic index) and derives its own
// second user output from it. Each also writes an array element of the next
// vertex and reads its own vertex's, written by the invocation before it
// (from_ir/mesh_out_load.rs).
layout(local_size_x = 96) in;
layout(points, max_vertices = 96, max_primitives = 96) out;

layout(location = 0) out vec4 colour[];
layout(location = 1) out vec2 derived[];
layout(location = 2) perprimitiveEXT out uint tag[];
layout(location = 3) perprimitiveEXT out uint seen[];
layout(location = 4) out float next[][2];
layout(location = 6) out float prev[];

void main() {
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(96, 96);
    gl_MeshVerticesEXT[i].gl_Position = vec4(float(i), 2.0 * float(i), 0.0, 1.0);
    gl_MeshVerticesEXT[i].gl_PointSize = 1.0 + float(i);
    colour[i] = vec4(float(i) + 0.5, 0.0, 0.0, float(100 + i));
    tag[i] = 1000u + i;
    gl_PrimitivePointIndicesEXT[i] = i;
    // Vertex (i + 1) mod N's element, written by this invocation.
    next[(i + 1u) % 96u][1] = float(i);
    barrier();
    uint j = (i * 7u + 3u) % 96u;
    vec4 p = gl_MeshVerticesEXT[j].gl_Position;
    float s = gl_MeshVerticesEXT[j].gl_PointSize;
    derived[i] = vec2(p.y + colour[j].w, s + colour[j].x);
    seen[i] = tag[j] + tag[i];
    // This vertex's element, written by the invocation before it.
    prev[i] = 2.0 * next[i][1];
}
