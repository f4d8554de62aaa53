#!/usr/bin/env python3
"""Derives MUFU's interpolation tables (isa/src/isa/mufu_tables.rs) from
the H100 sweeps described in tests/data/mufu/README.md.

Model (docs/ISA.md, "MUFU results"): the reduced argument's mantissa is
split into an index (its top bits) and a 17-bit fraction xl (RCP, whose
index takes 7 bits, uses 16 bits of fraction, placed at the top of the
17); the unit computes P = C0 + C1*xl + C2*sq(xl), where sq is the square
of xl with every partial product below column 18 dropped, then the bits
below 19 dropped, and the result is P truncated (floor(P / 2^S) as the
significand, or P as a fixed-point number for LG2 and SIN). Each swept input gives
an interval for P, so an interval for C0 once C1 and C2 are fixed; the
least-squares fit gives C1 and C2 to within a few units, and this script
searches around it for integers that satisfy every interval.

usage: mufu_fit.py CORPUS_DIR OUT.rs
"""
import sys
import numpy as np


def sweep(d, fn):
    diffs = np.fromfile(f"{d}/{fn}.d32", "<i4").astype(np.int64)
    return np.cumsum(diffs).astype(np.uint32)


def trunc_square(xl):
    """xl: 17-bit fractions; the square without columns < 18, then >> 19."""
    s = np.zeros(len(xl), dtype=np.int64)
    for i in range(17):
        for j in range(17):
            if i + j >= 18:
                s += (((xl >> i) & 1) & ((xl >> j) & 1)) << (i + j)
    return s >> 19


SQUARES = trunc_square(np.arange(1 << 17, dtype=np.int64))


def solve_entry(xl, frac_bits, lo, hi, radius=4):
    """Integers (C0, C1, C2) with lo <= C0 + C1*x + C2*sq(x) <= hi for every
    fraction x in `xl` (frac_bits wide, squared as aligned to 17 bits), or
    the best found and its number of misses."""
    sq = SQUARES[xl << (17 - frac_bits)]
    v = np.stack([np.ones(len(xl)), xl.astype(float), sq.astype(float)], 1)
    c, *_ = np.linalg.lstsq(v, (lo + hi) / 2, rcond=None)
    best = None
    for d1 in range(-radius, radius + 1):
        for d2 in range(-radius, radius + 1):
            c1 = int(round(c[1])) + d1
            c2 = int(round(c[2])) + d2
            lin = c1 * xl + c2 * sq
            a, b = lo - lin, hi - lin
            if a.max() <= b.min():
                return (int(a.max()), c1, c2), 0
            # Otherwise the C0 inside the most intervals.
            ev = np.concatenate([a, b + 1])
            delta = np.concatenate([np.ones(len(a), np.int64), -np.ones(len(b), np.int64)])
            order = np.lexsort((delta, ev))
            cover = np.cumsum(delta[order])
            k = int(np.argmax(cover))
            miss = len(a) - int(cover[k])
            if best is None or miss < best[1]:
                best = ((int(ev[order][k]), c1, c2), miss)
    return best


def fit(arg, lo, hi, frac_bits):
    """One entry per value of arg >> frac_bits, fitted to the P intervals
    [lo, hi] of the swept table arguments arg (the fraction xl is the low
    frac_bits of arg)."""
    entries, misses = [], 0
    index = arg >> frac_bits
    for s in range(int(index.max()) + 1):
        part = index == s
        xl = arg[part] & ((1 << frac_bits) - 1)
        e, m = solve_entry(xl, frac_bits, lo[part], hi[part])
        entries.append(e)
        misses += m
    return entries, misses


def significand_bounds(y, one_exp, shift):
    """Results in the binade of exponent one_exp (one_exp + 1 only at its
    top), truncated from P / 2^shift: P's interval, in units of the
    binade's ULP / 2^shift."""
    e = (y >> 23) & 0xFF
    m = (y & 0x7FFFFF).astype(np.int64) | (1 << 23)
    sig = np.where(e == one_exp + 1, (1 << 24) + (m - (1 << 23)) * 2, m)
    return sig << shift, ((sig + 1) << shift) - 1


def fixed_bounds(y, point):
    """Non-negative results truncated to 24 significant bits from a
    fixed-point P with `point` fraction bits: P's interval."""
    f = y.view(np.float32).astype(np.float64)
    ulp = 2.0 ** (((y >> 23) & 0xFF).astype(np.int64) - 150)
    lo = np.ceil(f * 2.0**point).astype(np.int64)
    return lo, (np.ceil((f + ulp) * 2.0**point) - 1).astype(np.int64)


def span(fn, start, count):
    """The swept results start .. start + count of `fn`, their table
    arguments 0 .. count."""
    return lambda d: (np.arange(count, dtype=np.int64), sweep(d, fn)[start:start + count])


def sin_quadrant(d):
    """SIN's table argument: the 23 bits of a quarter turn below the
    quadrant, in a fixed-point turn with 25 fraction bits. The sweep's
    x = i * 2^-23 gives 4i in the first quadrant and, mirrored in the
    second (complemented bit by bit), 2^23 - 1 - 4k; its SIN results
    there are the table's. COS shares the table (the sweeps agree)."""
    y = sweep(d, "sin")
    n = 1 << 21
    i = np.arange(n, dtype=np.int64)
    arg = np.concatenate([4 * i, ((1 << 23) - 1) - 4 * i])
    order = np.argsort(arg)
    return arg[order], y[: 2 * n][order]


# function: (swept table arguments and results, fraction bits, bounds).
# RCP: x in [1, 2), 1/x in (1/2, 1]; RSQ and SQRT: x in [1, 4) (the
# index's top bit is the exponent's parity); EX2: x in [0, 1), 2^x in
# [1, 2); LG2: x in [1, 2), log2(x) in fixed point with 38 fraction bits;
# SIN: a quarter turn, sin in fixed point with 38 fraction bits.
FUNCS = {
    "RCP": (span("rcp", 0, 1 << 23), 16, lambda y: significand_bounds(y, 126, 15)),
    "RSQ": (span("rsq", 0, 1 << 24), 17, lambda y: significand_bounds(y, 126, 16)),
    "SQRT": (span("sqrt", 0, 1 << 24), 17, lambda y: significand_bounds(y, 127, 17)),
    "EX2": (span("ex2", 0, 1 << 23), 17, lambda y: significand_bounds(y, 127, 15)),
    "LG2": (span("lg2", 1 << 23, 1 << 23), 17, lambda y: fixed_bounds(y, 38)),
    "SIN": (sin_quadrant, 17, lambda y: fixed_bounds(y, 38)),
}


def main():
    corpus, out = sys.argv[1], sys.argv[2]
    text = [
        "//! MUFU's interpolation tables, generated by scripts/mufu_fit.py from",
        "//! the H100 sweeps (tests/data/mufu/README.md): per entry (C0, C1, C2)",
        '//! of P = C0 + C1*xl + C2*sq(xl) (docs/ISA.md, "MUFU results").',
        "//! Do not edit by hand.",
        "",
    ]
    for name, (swept, frac_bits, bounds) in FUNCS.items():
        arg, y = swept(corpus)
        lo, hi = bounds(y)
        entries, misses = fit(arg, lo, hi, frac_bits)
        print(f"{name}: {len(entries)} entries, {misses} of {len(y)} sweep points missed", file=sys.stderr)
        text.append(f"/// {name}: {len(entries)} entries; {misses} of the {len(y)} swept inputs missed.")
        text.append(f"pub(super) const {name}: [(i64, i64, i64); {len(entries)}] = [")
        for c0, c1, c2 in entries:
            text.append(f"    ({c0}, {c1}, {c2}),")
        text.append("];")
        text.append("")
    open(out, "w").write("\n".join(text))


if __name__ == "__main__":
    main()
