#version 460
#extension GL_EXT_mesh_shader : require
#extension GL_EXT_shared_memory_block : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require

// A compile-error test: a 64-bit atomic on an explicitly laid out
// Workgroup block of a task shader (task/mesh shared memory has emulated
// 32-bit atomics only) is refused, naming the instruction.
layout(local_size_x = 32) in;

shared S { uint64_t total; } s;
shared W { uint w[2]; } sw;

struct P { uint lo; };
taskPayloadSharedEXT P p;

void main()
{
    uint i = gl_LocalInvocationIndex;
    atomicAdd(s.total, uint64_t(i));
    barrier();
    p.lo = sw.w[0];
    EmitMeshTasksEXT(1u, 1u, 1u);
}
