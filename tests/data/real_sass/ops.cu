#include <cstdint>
__device__ int gcounter;
__global__ void k_int(const int* __restrict__ a, int* out, long long* wide, unsigned s, int n) {
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    int x = a[t];
    int y = a[t + n];
    long long w = (long long)x * (long long)y;
    wide[t] = w + wide[t + 1];
    unsigned u = (unsigned)x;
    int r = (x & y) ^ (~x | (y ^ 7));
    r += __funnelshift_l(u, (unsigned)y, s);
    r += (int)(u >> (s & 31)) + (x << 3);
    r += max(x, y) + min((unsigned)x, (unsigned)y);
    r += __popc(u) + __clz(u) + __ffs(x) + __brev(u);
    r += __byte_perm(u, (unsigned)y, 0x5140);
    r += (x << 8) >> 8;
    r += a[x & 63] * 4 + a[y & 15];
    r += __umulhi(u, (unsigned)y);
    r += (x > y && y != 3) ? x : y;
    out[t] = r;
    atomicAdd(&gcounter, 1);
    out[t + n] = atomicMax(out + 2 * n, x);
    out[t + 2 * n] = atomicCAS(out + 3 * n, x, y);
}
__global__ void k_float(const float* a, float* out, int* iout, float s) {
    int t = threadIdx.x;
    float x = a[t], y = a[t + 32];
    float r = x + y * s;
    r += __fmul_rz(x, y) + __fadd_ru(x, s);
    r += fmaxf(x, y) + fminf(x, fabsf(y));
    r += __frcp_rn(x) + rsqrtf(y) + sqrtf(x) + exp2f(y) + log2f(x) + __sinf(x) + __cosf(y);
    r += floorf(x) + ceilf(y) + truncf(x) + rintf(y);
    int i = (int)x + (int)(unsigned)y;
    r += (float)iout[t] + (float)(unsigned)iout[t + 1];
    double d = (double)x * 2.0;
    r += (float)d;
    r = (x < y || isnan(y)) ? r : -r;
    out[t] = r;
    iout[t] = i;
}
__global__ void k_warp(const int* a, int* out) {
    __shared__ int sh[64];
    int t = threadIdx.x;
    int x = a[t];
    sh[t] = x;
    __syncthreads();
    int v = sh[(t + 1) & 31];
    v += __shfl_sync(0xffffffff, x, 3);
    v += __shfl_up_sync(0xffffffff, x, 1);
    v += __shfl_down_sync(0xffffffff, x, 2);
    v += __shfl_xor_sync(0xffffffff, x, 4);
    v += __ballot_sync(0xffffffff, x > 5);
    v += __all_sync(0xffffffff, x > 0) + __any_sync(0xffffffff, x > 9);
    v += __match_any_sync(0xffffffff, x);
    v += __reduce_add_sync(0xffffffff, (unsigned)x);
    v += __reduce_max_sync(0xffffffff, (unsigned)x);
    v += __reduce_or_sync(0xffffffff, (unsigned)x);
    atomicAdd(&sh[x & 31], 1);
    atomicCAS(&sh[32 + (x & 31)], 0, x);
    __threadfence();
    if (x & 1) { v += a[x]; } else { v -= a[x + 1]; }
    __syncwarp();
    __syncthreads();
    out[t] = v + sh[t + 32];
    volatile int loc[16];
    for (int i = 0; i < 16; i++) loc[i] = x + i;
    out[t + 32] = loc[x & 15] + (int)clock();
}
