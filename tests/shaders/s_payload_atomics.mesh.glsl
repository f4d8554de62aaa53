#version 460
#extension GL_EXT_mesh_shader : require

// Reads what s_payload_atomics.task's atomics left in the payload: vertex
// i's position = (olds[i], hits, sum, maxv), its point size zsum.
layout(local_size_x = 32) in;
layout(points, max_vertices = 32, max_primitives = 32) out;

struct Payload { uint hits; uint sum; uint maxv; uint zsum; uint olds[32]; };
taskPayloadSharedEXT Payload payload;

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(32u, 32u);
    gl_MeshVerticesEXT[i].gl_Position =
        vec4(float(payload.olds[i]), float(payload.hits), float(payload.sum), float(payload.maxv));
    gl_MeshVerticesEXT[i].gl_PointSize = float(payload.zsum);
    gl_PrimitivePointIndicesEXT[i] = i;
}
