#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#extension GL_KHR_memory_scope_semantics : require
// Atomics through a buffer device address (PhysicalStorageBuffer), as the
// nvpro cluster samples count into buffers they reach by address: 32- and
// 64-bit adds, max, compare-exchange, atomic load and store.
layout(local_size_x = 32) in;
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Counters {
    uint n;
    uint m;
    uint64_t wide;
    uint cas;
    uint stored;
};
layout(push_constant) uniform Push { Counters c; };
layout(binding = 0) buffer Out { uint old[]; } o;
void main() {
    uint i = gl_LocalInvocationIndex;
    o.old[i] = atomicAdd(c.n, 1u);
    atomicMax(c.m, i * 3u);
    atomicAdd(c.wide, uint64_t(1) << 32 | uint64_t(i));
    o.old[32u + i] = atomicCompSwap(c.cas, 0u, 100u + i);
    if (i == 5u) {
        atomicStore(c.stored, atomicLoad(c.m, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed) + 1u,
                    gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    }
}
