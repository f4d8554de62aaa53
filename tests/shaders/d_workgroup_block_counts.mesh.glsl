#version 460
#extension GL_EXT_mesh_shader : require

// Writes the payload d_workgroup_block_counts.task filled to a buffer.
layout(local_size_x = 32) in;
layout(points, max_vertices = 1, max_primitives = 1) out;

struct P { uint words[9]; uint low_bytes[9]; };
taskPayloadSharedEXT P p;

layout(std430, binding = 0) buffer O { uint o[]; };

void main()
{
    uint i = gl_LocalInvocationIndex;
    if (i < 9u) {
        o[i] = p.words[i];
        o[9u + i] = p.low_bytes[i];
    }
    SetMeshOutputsEXT(0u, 0u);
}
