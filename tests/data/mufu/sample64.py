#!/usr/bin/env python3
"""Takes the committed sample (rcp64h.bin, rsq64h.bin) out of the full
RCP64H/RSQ64H captures made by sweep64.py: per function 4096 points of the
dense sweep of high words (chosen by a seeded generator) and the first 4096
random high words, each as a pair of little-endian u32 words (input high
word, result high word; every result's low word was 0).

usage: sample64.py CAPTURE_DIR OUT_DIR
"""
import sys
import numpy as np

SWEEPS = {"rcp64": 1 << 20, "rsq64": 1 << 21}


def main():
    src, dst = sys.argv[1], sys.argv[2]
    rng = np.random.default_rng(64)
    rand_in = np.fromfile(f"{src}/random_hi.u32", "<u4")
    for fn, n in SWEEPS.items():
        x = (0x3FF00000 + np.arange(n, dtype=np.int64)).astype(np.uint32)
        y = np.fromfile(f"{src}/{fn}_hi.u32", "<u4")
        pick = np.sort(rng.choice(n, 4096, replace=False))
        ry = np.fromfile(f"{src}/{fn}_random_hi.u32", "<u4")
        ins = np.concatenate([x[pick], rand_in[:4096]])
        outs = np.concatenate([y[pick], ry[:4096]])
        np.stack([ins, outs], 1).astype("<u4").tofile(f"{dst}/{fn}h.bin")


if __name__ == "__main__":
    main()
