#version 460
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require

// 64-bit atomics on a storage buffer (backend/src/from_ir/mem_atomics.rs):
// every lane hits the same words; tests/atomics64.rs checks the final
// values and each lane's old value against lane-order serial execution.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer M { uint64_t u[8]; int64_t s[2]; };
layout(std430, binding = 1) readonly buffer V { uint64_t v[]; };
layout(std430, binding = 2) writeonly buffer O { uint64_t old[]; };

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint64_t x = v[i];
    old[i] = atomicAdd(u[0], x);
    old[i + 32u] = atomicExchange(u[1], x);
    old[i + 64u] = atomicCompSwap(u[2], x, x + 1ul);
    old[i + 96u] = uint64_t(atomicMin(s[0], int64_t(x)));
    old[i + 128u] = uint64_t(atomicMax(s[1], int64_t(x)));
    old[i + 160u] = atomicMin(u[3], x);
    old[i + 192u] = atomicAnd(u[4], x);
    old[i + 224u] = atomicOr(u[5], x);
    old[i + 256u] = atomicXor(u[6], x);
    // No old value read: RED.E.ADD.64.
    atomicAdd(u[7], x);
}
