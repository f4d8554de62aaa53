import numpy as np, cupy as cp, subprocess, os, sys, time
out = sys.argv[1]; os.makedirs(out, exist_ok=True)
subprocess.run(["nvcc", "-cubin", "-arch=sm_90", "-O3", "-o", "k64.cubin", "mufu64.cu"], check=True)
s = subprocess.run(["cuobjdump", "-sass", "k64.cubin"], capture_output=True, text=True).stdout
open(os.path.join(out, "k64.cubin.sass"), "w").write(s)
mod = cp.RawModule(path="k64.cubin")
def run(fn, base, mode, n, hi=None, lo=None):
    k = mod.get_function("k_" + fn)
    oh = cp.zeros(n, dtype=cp.uint32); ol = cp.zeros(n, dtype=cp.uint32)
    z = cp.zeros(1, dtype=cp.uint32)
    k(((n + 255) // 256,), (256,), (hi if hi is not None else z, lo if lo is not None else z, cp.uint32(base), cp.int32(mode), cp.uint32(n), oh, ol))
    return cp.asnumpy(oh), cp.asnumpy(ol)
rng = np.random.default_rng(20261127)
rh = rng.integers(0, 1 << 32, size=1 << 18, dtype=np.uint64).astype(np.uint32)
rl = rng.integers(0, 1 << 32, size=1 << 18, dtype=np.uint64).astype(np.uint32)
rh.tofile(os.path.join(out, "random_hi.u32")); rl.tofile(os.path.join(out, "random_lo.u32"))
# rcp: x in [1, 2) (2^20 high words); rsq: x in [1, 4) (2^21)
for fn, base, n in [("rcp64", 0x3ff00000, 1 << 20), ("rsq64", 0x3ff00000, 1 << 21)]:
    h, l = run(fn, base, 0, n)
    h.tofile(os.path.join(out, fn + "_hi.u32")); l.tofile(os.path.join(out, fn + "_lo.u32"))
    h2, l2 = run(fn, 0, 2, len(rh), cp.asarray(rh), cp.asarray(rl))
    h2.tofile(os.path.join(out, fn + "_random_hi.u32")); l2.tofile(os.path.join(out, fn + "_random_lo.u32"))
    print(fn, n, "lo words nonzero:", int((l != 0).sum()), int((l2 != 0).sum()), flush=True)
