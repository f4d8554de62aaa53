#version 450
#extension GL_EXT_shader_atomic_float : require
// Atomics from 4 workgroups of 3 warps: on storage-buffer words every
// invocation hits (ATOMG, or RED where the old value is unread), on a
// histogram indexed dynamically, and on shared memory (ATOMS). The old
// values returned are written out so the test can check they are
// consistent (tickets form permutations).
layout(local_size_x = 96) in;
layout(set = 0, binding = 0) readonly buffer In { uint vals[]; };
layout(set = 0, binding = 1) buffer Totals {
    uint count;
    uint sum;
    uint umin;
    uint umax;
    int smin;
    int smax;
    uint band;
    uint bor;
    uint bxor;
    uint exch;
    uint cas;
    uint hist[8];
    float fsum;
};
struct Olds { uint ticket; uint exch; uint cas; uint local_ticket; };
layout(set = 0, binding = 2) writeonly buffer PerInvocation { Olds olds[]; };
struct Group { uint count; uint sum; };
layout(set = 0, binding = 3) writeonly buffer PerGroup { Group groups[]; };
shared uint local_count;
shared uint local_sum;
void main() {
    uint l = gl_LocalInvocationIndex;
    uint g = gl_WorkGroupID.x;
    uint i = g * 96u + l;
    uint v = vals[i];
    if (l == 0u) {
        local_count = 0u;
        local_sum = 0u;
    }
    barrier();
    olds[i].ticket = atomicAdd(count, 1u);
    atomicAdd(sum, v);
    atomicMin(umin, v);
    atomicMax(umax, v);
    atomicMin(smin, int(v));
    atomicMax(smax, int(v));
    atomicAnd(band, v | 0x00ff00ffu);
    atomicOr(bor, v & 0x0f0f0f0fu);
    atomicXor(bxor, v);
    atomicAdd(hist[v & 7u], 1u);
    // Small whole numbers: the float sum is exact in any order.
    atomicAdd(fsum, float(v & 0xffu));
    olds[i].exch = atomicExchange(exch, i + 1u);
    // A compare-and-swap increment, retried until it lands.
    uint expected = 0u;
    uint got = atomicCompSwap(cas, 0u, 1u);
    while (got != expected) {
        expected = got;
        got = atomicCompSwap(cas, expected, expected + 1u);
    }
    olds[i].cas = expected;
    olds[i].local_ticket = atomicAdd(local_count, 1u);
    atomicAdd(local_sum, v);
    barrier();
    if (l == 0u) {
        groups[g].count = local_count;
        groups[g].sum = local_sum;
    }
}
