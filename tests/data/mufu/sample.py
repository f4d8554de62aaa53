#!/usr/bin/env python3
"""Takes the committed sample (FN.bin) out of the full MUFU captures made by
sweep.py: per function 4096 points of the dense sweep (chosen by a seeded
generator) and the first 4096 of the random bit patterns, each as a pair of
little-endian u32 words (input bits, H100 result bits).

usage: sample.py CAPTURE_DIR OUT_DIR
"""
import sys
import numpy as np

SWEEPS = {
    "rcp": [("bits", 0x3F800000, 1 << 23)],
    "rsq": [("bits", 0x3F800000, 1 << 24)],
    "sqrt": [("bits", 0x3F800000, 1 << 24)],
    "lg2": [("bits", 0x3F000000, 1 << 24)],
    "ex2": [("fixed", 1.0, 1 << 23), ("fixed", -1.0, 1 << 23)],
    "sin": [("fixed", 1.0, 1 << 23)],
    "cos": [("fixed", 1.0, 1 << 23)],
}


def sweep_inputs(parts):
    out = []
    for kind, base, n in parts:
        i = np.arange(n, dtype=np.int64)
        if kind == "bits":
            out.append((base + i).astype(np.uint32))
        else:
            x = (i.astype(np.float32) * np.float32(2.0**-23)) * np.float32(base)
            out.append(x.view(np.uint32))
    return np.concatenate(out)


def main():
    src, dst = sys.argv[1], sys.argv[2]
    rng = np.random.default_rng(22)
    rand_in = np.fromfile(f"{src}/random_in.u32", "<u4")
    for fn, parts in SWEEPS.items():
        x = sweep_inputs(parts)
        y = np.cumsum(np.fromfile(f"{src}/{fn}.d32", "<i4").astype(np.int64)).astype(np.uint32)
        pick = np.sort(rng.choice(len(x), 4096, replace=False))
        ry = np.fromfile(f"{src}/{fn}_random.u32", "<u4")
        ins = np.concatenate([x[pick], rand_in[:4096]])
        outs = np.concatenate([y[pick], ry[:4096]])
        np.stack([ins, outs], 1).astype("<u4").tofile(f"{dst}/{fn}.bin")


if __name__ == "__main__":
    main()
