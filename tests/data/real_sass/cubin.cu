// Small kernels whose cubins show the ELF sections, attributes and parameter layout that
// nvcc writes, for the cubin writer (see README.md for the command).
#include <cstdint>
extern "C" __global__ void k_empty() {}
extern "C" __global__ void k_store(unsigned* out) { out[threadIdx.x] = threadIdx.x; }
extern "C" __global__ void k_params(const unsigned* a, unsigned* out, unsigned n, unsigned long long m) {
    unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
    if (t < n) out[t] = a[t] * 3u + (unsigned)m;
}
extern "C" __global__ void k_shared(unsigned* out) {
    __shared__ unsigned s[256];
    s[threadIdx.x] = threadIdx.x * 7u;
    __syncthreads();
    out[threadIdx.x] = s[255 - threadIdx.x];
}
extern "C" __global__ void k_dyn_shared(unsigned* out) {
    extern __shared__ unsigned d[];
    d[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = d[(threadIdx.x + 1) % blockDim.x];
}
extern "C" __global__ void k_local(unsigned* out, unsigned k) {
    unsigned a[64];
    for (int i = 0; i < 64; i++) a[i] = i * k;
    out[threadIdx.x] = a[(threadIdx.x * k) & 63];
}
extern "C" __global__ void __launch_bounds__(128) k_bounds(unsigned* out) { out[threadIdx.x] = 1; }
