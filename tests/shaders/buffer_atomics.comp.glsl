#version 460

// Every integer atomic on a storage buffer.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Counters { uint u; int s; uint bits; uint slot; uint lock; };

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint old = atomicAdd(u, 1u);
    atomicMin(s, -int(i));
    atomicMax(s, int(old));
    atomicMin(u, 1000u);
    atomicMax(u, i);
    atomicAnd(bits, ~(1u << (i & 31u)));
    atomicOr(bits, 1u << (i & 31u));
    atomicXor(bits, i);
    uint previous = atomicExchange(slot, i);
    if (atomicCompSwap(lock, 0u, i + 1u) == 0u) {
        atomicExchange(lock, 0u);
    }
    atomicAdd(u, previous & 1u);
}
