#version 460
#extension GL_EXT_mesh_shader : require

// The mesh side of b_store.task: every invocation counts itself into a
// storage buffer with an atomic add, and the workgroup emits nothing.
layout(local_size_x = 32) in;
layout(triangles, max_vertices = 3, max_primitives = 1) out;
layout(std430, binding = 1) buffer Count { uint invocations; };

void main()
{
    atomicAdd(invocations, 1u);
    SetMeshOutputsEXT(0, 0);
}
