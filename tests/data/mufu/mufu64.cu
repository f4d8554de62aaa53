// MUFU.RCP64H / MUFU.RSQ64H sweeps: the input double's high word is base + i
// (mode 0, low word 0) or in_hi[i]/in_lo[i] (mode 2); out_hi/out_lo get the
// result double's words.
#define K(name, ptx) \
extern "C" __global__ void name(const unsigned *in_hi, const unsigned *in_lo, unsigned base, int mode, unsigned n, unsigned *out_hi, unsigned *out_lo) { \
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; \
  unsigned hi = mode == 0 ? base + i : in_hi[i]; unsigned lo = mode == 0 ? 0u : in_lo[i]; \
  double x = __hiloint2double((int)hi, (int)lo); double y; \
  asm volatile(ptx : "=d"(y) : "d"(x)); \
  out_hi[i] = (unsigned)__double2hiint(y); out_lo[i] = (unsigned)__double2loint(y); }
K(k_rcp64, "rcp.approx.ftz.f64 %0, %1;")
K(k_rsq64, "rsqrt.approx.ftz.f64 %0, %1;")
