#version 460
#extension GL_EXT_mesh_shader : require
// Reads back the payload r_payload_const_index.task wrote.
layout(local_size_x = 1) in;
layout(triangles, max_vertices = 3, max_primitives = 1) out;
layout(std430, binding = 1) buffer B { uint o[]; };
struct P { uint a; uint b[4]; };
taskPayloadSharedEXT P p;
void main() {
    SetMeshOutputsEXT(0, 0);
    o[0] = p.a;
    o[1] = p.b[1];
}
