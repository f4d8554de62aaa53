// Probes for issue 22 (docs/CUBIN.md): local memory, atomics with and without results, float
// atomics, REDUX. Compiled for sm_86 and sm_90 by capture_atomics.sh (sm_75 has no __reduce_*).
extern "C" __global__ void local_dyn(unsigned *out, const unsigned *in, int n) {
    unsigned a[40];
    int t = threadIdx.x;
    for (int i = 0; i < 40; i++) a[i] = in[(t + i) % n] * (i + 1);
    out[t] = a[in[t] % 40] + a[(in[t] >> 3) % 40];
}
extern "C" __global__ void atom_u32(unsigned *p, unsigned *old, unsigned x) {
    int t = threadIdx.x;
    old[t] = atomicAdd(p, x + t);
    old[t + 32] = atomicExch(p + 1, x + t);
    old[t + 64] = atomicMin(p + 2, x + t);
    old[t + 96] = atomicMax(p + 3, x + t);
    old[t + 128] = atomicAnd(p + 4, x + t);
    old[t + 160] = atomicOr(p + 5, x + t);
    old[t + 192] = atomicXor(p + 6, x + t);
    old[t + 224] = atomicInc(p + 7, x);
    old[t + 256] = atomicDec(p + 8, x);
    old[t + 288] = atomicCAS(p + 9, x, t);
}
extern "C" __global__ void atom_s32(int *p, int *old, int x) {
    int t = threadIdx.x;
    old[t] = atomicAdd(p, x + t);
    old[t + 32] = atomicMin(p + 2, x + t);
    old[t + 64] = atomicMax(p + 3, x + t);
}
extern "C" __global__ void atom_f32(float *p, float *old, float x) {
    int t = threadIdx.x;
    old[t] = atomicAdd(p, x + t);
    atomicAdd(p + 1, x * t);
}
extern "C" __global__ void red_u32(unsigned *p, unsigned x) {
    int t = threadIdx.x;
    atomicAdd(p, x + t);
    atomicMin(p + 1, x + t);
    atomicMax(p + 2, x + t);
    atomicAnd(p + 3, x + t);
    atomicOr(p + 4, x + t);
    atomicXor(p + 5, x + t);
}
extern "C" __global__ void redux(unsigned *out, const unsigned *in) {
    int t = threadIdx.x;
    unsigned x = in[t];
    out[t] = __reduce_add_sync(0xffffffffu, x) + __reduce_min_sync(0xffffffffu, x) * 3u
           + __reduce_xor_sync(0xffffffffu, x) * 7u;
}
