# Runs the MUFU sweeps on the GPU; writes int32 first differences of the
# results (xz) so that smooth functions compress; see README in the corpus.
import numpy as np, cupy as cp, subprocess, os, struct, sys, time
out = sys.argv[1]
subprocess.run(["nvcc", "-cubin", "-arch=sm_90", "-O3", "-o", "k.cubin", "mufu_sweep.cu"], check=True)
b = bytearray(open("k.cubin", "rb").read())
pat = struct.pack("<I", 0x3e22f983); n = b.count(pat)
print("2pi immediates:", n)
b = b.replace(pat, struct.pack("<I", 0x3f800000))
open("kp.cubin", "wb").write(b)
for f in ["k.cubin", "kp.cubin"]:
    s = subprocess.run(["cuobjdump", "-sass", f], capture_output=True, text=True).stdout
    open(os.path.join(out, f + ".sass"), "w").write(s)
mod = cp.RawModule(path="kp.cubin")
def run(fn, base, mode, n, inp=None):
    k = mod.get_function("k_" + fn)
    o = cp.zeros(n, dtype=cp.uint32)
    i = inp if inp is not None else cp.zeros(1, dtype=cp.uint32)
    k(((n + 255) // 256,), (256,), (i, cp.uint32(base), cp.int32(mode), cp.uint32(n), o))
    return cp.asnumpy(o)
sweeps = {
  "rcp": [(0x3f800000, 0, 1 << 23)],
  "rsq": [(0x3f800000, 0, 1 << 24)],
  "sqrt": [(0x3f800000, 0, 1 << 24)],
  "lg2": [(0x3f000000, 0, 1 << 24)],
  "ex2": [(0, 1, 1 << 23), (1, 1, 1 << 23)],
  "sin": [(0, 1, 1 << 23)],
  "cos": [(0, 1, 1 << 23)],
}
rng = np.random.default_rng(20261126)
rand = rng.integers(0, 1 << 32, size=1 << 18, dtype=np.uint64).astype(np.uint32)
rand.tofile(os.path.join(out, "random_in.u32"))
rin = cp.asarray(rand)
for fn, parts in sweeps.items():
    t = time.time()
    ys = [run(fn, b0, m, n) for (b0, m, n) in parts]
    y = np.concatenate(ys)
    d = np.diff(y.astype(np.int64), prepend=0).astype(np.int32)
    d.tofile(os.path.join(out, fn + ".d32"))
    r = run(fn, 0, 2, len(rand), rin)
    r.tofile(os.path.join(out, fn + "_random.u32"))
    print(fn, len(y), "max |diff|", np.abs(d[1:]).max(), time.time() - t, flush=True)
