// MUFU sweeps: each kernel applies one MUFU function to generated inputs.
// mode 0: bits = base + i; mode 1: x = i * 2^-23 * sign(base) ; mode 2: bits = in[i]
#define K(name, ptx) \
extern "C" __global__ void name(const unsigned *in, unsigned base, int mode, unsigned n, unsigned *out) { \
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; \
  float x; \
  if (mode == 0) x = __uint_as_float(base + i); \
  else if (mode == 1) x = (float)i * 1.1920928955078125e-7f * (base ? -1.0f : 1.0f); \
  else x = __uint_as_float(in[i]); \
  float y; asm volatile(ptx : "=f"(y) : "f"(x)); out[i] = __float_as_uint(y); }
K(k_rcp, "rcp.approx.ftz.f32 %0, %1;")
K(k_rsq, "rsqrt.approx.ftz.f32 %0, %1;")
K(k_sqrt, "sqrt.approx.ftz.f32 %0, %1;")
K(k_ex2, "ex2.approx.ftz.f32 %0, %1;")
K(k_lg2, "lg2.approx.ftz.f32 %0, %1;")
K(k_sin, "sin.approx.ftz.f32 %0, %1;")
K(k_cos, "cos.approx.ftz.f32 %0, %1;")
