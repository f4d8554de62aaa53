#version 460
#extension GL_EXT_mesh_shader : require
#extension GL_EXT_shared_memory_block : require

// A compile-error test: explicitly laid out Workgroup blocks in a mesh
// shader (its shared memory is packed in the ISBE) are refused.
layout(local_size_x = 32) in;
layout(points, max_vertices = 32, max_primitives = 32) out;

shared A { uint x[32]; } sa;
shared B { uvec2 y[16]; } sb;

void main()
{
    uint i = gl_LocalInvocationIndex;
    sa.x[i] = i;
    barrier();
    SetMeshOutputsEXT(32, 32);
    gl_MeshVerticesEXT[i].gl_Position = vec4(float(sb.y[i / 2u][i % 2u]), 0.0, 0.0, 1.0);
    gl_PrimitivePointIndicesEXT[i] = i;
}
