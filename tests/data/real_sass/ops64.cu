// Kernels for doubles, halves, 64-bit integer division and 64-bit atomics:
// the SASS NVIDIA's compiler emits for them (see README.md).
#include <cuda_fp16.h>

extern "C" __global__ void k_double(const double *a, const float *f, const int *n, double *out, float *outf, int *outi) {
    int i = threadIdx.x;
    double x = a[i], y = a[i + 32];
    double s = x + y;
    double m = x * y;
    double fm = fma(x, y, s);
    double d = x / y;
    double r = sqrt(x);
    double c = (x < y) ? s : m;
    double mn = fmin(x, y), mx = fmax(x, y);
    out[i] = s + m + fm + d + r + c + mn + mx;
    out[i + 32] = (double)f[i] + (double)n[i] + (double)(unsigned)n[i];
    outf[i] = (float)x;
    outi[i] = (int)y + (int)(unsigned)(x);
    out[i + 64] = floor(x) + ceil(y) + trunc(x) + rint(y) + fabs(x) - (-y);
}

extern "C" __global__ void k_half(const __half *a, __half *out, float *outf) {
    int i = threadIdx.x;
    __half x = a[i], y = a[i + 32];
    __half s = __hadd(x, y);
    __half m = __hmul(x, y);
    __half f = __hfma(x, y, s);
    out[i] = __hlt(x, y) ? f : m;
    outf[i] = __half2float(x) + __half2float(s);
    out[i + 32] = __float2half(outf[i + 1]);
}

extern "C" __global__ void k_div64(const long long *a, const unsigned long long *b, long long *out, unsigned long long *outu) {
    int i = threadIdx.x;
    out[i] = a[i] / a[i + 32];
    out[i + 32] = a[i] % a[i + 32];
    outu[i] = b[i] / b[i + 32];
    outu[i + 32] = b[i] % b[i + 32];
}

extern "C" __global__ void k_atom64(unsigned long long *p, long long *q, const unsigned long long *v, unsigned long long *old) {
    int i = threadIdx.x;
    unsigned long long x = v[i];
    old[i] = atomicAdd(p, x);
    old[i + 32] = atomicExch(p + 1, x);
    old[i + 64] = atomicCAS(p + 2, x, x + 1);
    old[i + 96] = atomicMin(q, (long long)x);
    old[i + 128] = atomicMax(q + 1, (long long)x);
    old[i + 160] = atomicMin(p + 3, x);
    old[i + 192] = atomicAnd(p + 4, x);
    old[i + 224] = atomicOr(p + 5, x);
    old[i + 256] = atomicXor(p + 6, x);
    atomicAdd(p + 7, x);
}

extern "C" __global__ void k_narrow(const short *a, const unsigned char *b, short *out, unsigned char *outb) {
    int i = threadIdx.x;
    short x = a[i], y = a[i + 32];
    out[i] = (short)(x / y) + (short)(x >> 3) + (x < y ? x : y);
    unsigned char u = b[i], w = b[i + 32];
    outb[i] = (unsigned char)(u / w) + (unsigned char)(u >> 2) + (u > w ? u : w);
}
