# Issue 22 (docs/CUBIN.md, "What the hardware taught us"): ATOMG/RED words varied from nvcc words,
# read by `nvdisasm -b SM75|SM86|SM90 -hex` in capture_atomics.sh; atomic_variants.txt is the result.
# Writes raw instruction files (16 bytes each, little-endian lo then hi word) of ATOMG/RED
# variants, for `nvdisasm -b SMxx -hex`: which encodings the hardware's disassembler accepts.
import struct, sys
def setf(v, lo, hi, x):
    m = ((1 << (hi - lo)) - 1) << lo
    return (v & ~m) | ((x << lo) & m)
def word(lo, hi): return (hi << 64) | lo
base_add64 = word(0x00000004020679a8, 0x004ea200081ee5c4)   # nvcc ATOMG.E.ADD.64 (sm86)
base_max = word(0x000000020c1779a8, 0x000ea200091ee3c4)     # nvcc ATOMG.E.MAX.S32
base_red = word(0x000000190a00098e, 0x002fe8000c10e184)     # nvcc RED.E.ADD
variants = []
for name, b in [("add64", base_add64), ("max", base_max), ("red", base_red)]:
    variants.append((name + "_nvcc", b))
    variants.append((name + "_noUR", setf(b, 64, 72, 0)))
    variants.append((name + "_noUR_no91", setf(setf(b, 64, 72, 0), 91, 92, 0)))
    variants.append((name + "_UR63", setf(b, 64, 70, 63)))
    variants.append((name + "_op3", setf(setf(setf(b, 0, 12, (b & 0xfff) & 0x1ff | 0x200), 64, 72, 0), 91, 92, 0)))
    variants.append((name + "_op3_91", setf(setf(b, 0, 12, (b & 0xfff) & 0x1ff | 0x200), 64, 72, 0)))
    variants.append((name + "_noorder", setf(b, 77, 81, 0)))
# float type 9 (sm90, NAK) with RED 0x9a6 / ATOMG 0x3a3
variants.append(("redf_9a6_t9", setf(setf(base_red, 0, 12, 0x9a6), 73, 77, 9)))
variants.append(("redf_98e_t3", setf(base_red, 73, 76, 3)))
variants.append(("atomf_3a3_t9", setf(setf(setf(base_max, 0, 12, 0x3a3), 73, 77, 9), 87, 91, 0)))
variants.append(("atomf_9a3_t9", setf(setf(setf(base_max, 0, 12, 0x9a3), 73, 77, 9), 87, 91, 0)))
variants.append(("atomf_9a8_t3", setf(setf(base_max, 73, 76, 3), 87, 91, 0)))
out = sys.argv[1]
with open(out + "/names.txt", "w") as f:
    for n, v in variants:
        f.write(n + "\n")
        with open(f"{out}/{n}.bin", "wb") as g:
            # control bits: keep the capture's
            g.write(struct.pack("<QQ", v & ((1 << 64) - 1), v >> 64))
