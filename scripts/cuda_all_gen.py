#!/usr/bin/env python3
"""Writes tests/runs/cuda_all/NAME.json: a run description for each compute
shader of tests/shaders that has none in tests/runs (docs/CUBIN.md, "Every
compute shader on the GPU").

Each set-0 storage buffer and uniform buffer the compiled shader declares
(read from `spvsass compile`'s listing header) gets a deterministic pattern of
small values: nonzero integers 1..13, or, where the GLSL block holds only
floats, multiples of 0.375 in [-3.25, 3.5]. Every storage buffer is read back.
Push constants get 128 bytes of the same kind. The sizes cover the dispatch
(16 bytes per invocation, at least 4 KiB, at most 16 KiB). OVERRIDES gives a
shader its own dispatch, sizes or data where the pattern would be undefined
behaviour or would not exercise it; SKIPS says why a shader has no run.

Usage: scripts/cuda_all_gen.py [path/to/spvsass]   (run from the repository root)
"""
import json
import os
import re
import struct
import subprocess
import sys

SPVSASS = sys.argv[1] if len(sys.argv) > 1 else "target/debug/spvsass"
SHADERS = "tests/shaders"
OUT = "tests/runs/cuda_all"

# Shaders with no run, and why (docs/CUBIN.md lists them).
SKIPS = {
    "c_bad_set": "a negative test: descriptor set 40 is refused by the compiler",
    "r_huge_local_array": "a negative test: a 2^31-element private array is refused",
    "r_self_init": "a negative test: malformed SPIR-V (a self-referencing initializer)",
    "r_workgroup_wrap": "a negative test: a 65536 x 65536 workgroup is refused",
    "vp_array_length": "the compiler refuses it (array length through a variable pointer)",
    "vp_row_major": "the compiler refuses it (a row-major column's address)",
    "vp_workgroup": "the compiler refuses it (variable pointers to workgroup memory)",
    "img_shapes": "the compiler refuses it (gradients of 3D/cube images); uses images",
    "d_reader_images": "reads a multisampled image (sampler2DMS), which CUDA cannot create",
    "buffer_device_address": "reads buffer addresses from its inputs; a run description cannot give one",
    "lt_bda_atomics": "reads buffer addresses from its inputs; a run description cannot give one",
    "ptr_access_chain": "reads a buffer address from its inputs; a run description cannot give one",
    "ptr_stride": "reads a buffer address from its inputs; a run description cannot give one",
}

# Per-shader changes to the generated description: "groups", "size" (bytes of
# every buffer), "entry", "push" (a list of Data pieces), "buffers" (binding ->
# list of Data pieces replacing the pattern), "comment".
def bits32(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def words64(xs, fmt):
    """u32 words of 64-bit values ("q" signed integers, "d" doubles)."""
    out = []
    for x in xs:
        lo, hi = struct.unpack("<II", struct.pack("<" + fmt, x))
        out += [lo, hi]
    return out


INF = float("inf")
NAN_BITS = 0x7FC00000
# tests/math.rs's edge-case pairs (a, b), one an invocation.
MATH_EDGE_PAIRS = [
    (1.5, 0.5), (-2.75, 1.25), (7.0, -3.0), (0.3, 0.7), (100.0, 3.0), (-0.5, 2.0),
    (0.9999999, 1.0000001), (2.5, -0.1), (-3.5, 6.0), (3.0e38, 0.5), (3.0e38, 1.0e-3),
    (1.0e-30, 1.0e10), (0.0, 1.0), (-0.0, 1.0), (1.0, 0.0), (-1.0, -0.0), (0.0, 0.0),
    (INF, 2.0), (-INF, 2.0), (1.0, INF), (INF, INF), (None, 1.0), (1.0, None),
    (3.0e-39, 2.0), (1e-45, 1.0), (1.0, 3.0e-39), (-3.0e-39, 3.0), (1.0, 1.0e38),
    (6.2831855, 0.25), (-3.1415927, 4.0), (0.75, -2.0), (-100.0, -7.0),
]
# tests/random_finds.rs's inputs of r_wide_conversions: x (i64), f, d.
WIDE_XS = [
    0, 1, -1, 5, -5, -(1 << 63), (1 << 63) - 1, 65519, 65520, -65520, 2047, 2049, 4097,
    1 << 40, (1 << 40) + 1, -(1 << 41), 123456789, -987654321, 0x123456789ABCDEF0, 255,
    256, -32768, 32767, 70000, -70000, 10**18, 3, 4, 6, 7, 1000, 1000000,
]

BIG = {"size": 16384}
OVERRIDES = {
    # These index past 4 KiB (several words an invocation, or 300-word arrays).
    "c_builtins": BIG,
    "c_math_edges": BIG,
    "c_pressure": {"size": 16384, "groups": [1, 1, 1]},
    "c_subgroup_divergent": BIG,
    "large_copy": BIG,
    "lt_subgroup_wide": BIG,
    "narrow_ops": BIG,
    # Its uniform buffer is declared 80000 bytes (larger than a constant
    # bank): the one buffer over 16 KiB.
    "res_big_uniform": {"sizes": {"0": 80000}},
    # Every workgroup writes the same words (a race between workgroups: the
    # H100 runs them at once, the simulator one after the other; with two
    # workgroups 24-32 words differed, with one all agree, 2026-11-26).
    "atomics64": {"groups": [1, 1, 1]},
    "lt_buffer_block": {"groups": [1, 1, 1]},
    "lt_matrix_column": {"groups": [1, 1, 1]},
    # Edge cases (NaN, infinities, signed zeros, denormals) as tests/math.rs.
    "c_math_edges": {
        "groups": [1, 1, 1],
        "buffers": {
            "0": [{"u32": [NAN_BITS if v is None else bits32(v) for p in MATH_EDGE_PAIRS for v in p]}],
            "1": [{"zero": 32 * 40 * 4}],
            "2": [{"zero": 32 * 4}],
        },
    },
    # Negative and positive floats, so x * 0.0 is -0.0 or +0.0.
    "r_fmax_signed_zero": {
        "groups": [1, 1, 1],
        "buffers": {"0": [{"u32": [w for i in range(32) for w in [bits32((i - 15.5) / 4.0)] + [0] * 9]}]},
    },
    "r_double_sign_step": {
        "groups": [1, 1, 1],
        "buffers": {"0": [{"u32": words64([-2.5, -0.0, 0.0, 0.25, 0.5, 3.0, -1e-300, 1e300], "d")}]},
    },
    "r_wide_conversions": {
        "groups": [1, 1, 1],
        "buffers": {"0": [
            {"u32": words64(WIDE_XS, "q")},
            {"u32": [bits32((i - 15.3) * 3.1 * 10.0 ** (i % 7)) for i in range(32)]},
            {"u32": words64([(i - 16.4) * 1900.7 for i in range(32)], "d")},
            {"zero": 320 * 8},
        ]},
    },
}


def rgba8(n, seed):
    """n RGBA8 texels (u32 words) of a fixed pattern."""
    return [((k * 2654435761 + seed * 40503) >> 3) & 0xFFFFFFFF for k in range(n)]


LINEAR_CLAMP = {"address": ["clamp_to_edge"] * 3, "mag_filter": "linear", "min_filter": "linear"}

# Images and samplers of the image shaders (docs/RUNS.md, "Images and
# samplers"; contents in the simulator's layout: level after level, row after
# row).
OVERRIDES.update({
    # Four counters in row 0; texel (0, 1) holds 5, so the CAS swaps.
    "img_atomic": {
        "groups": [1, 1, 1],
        "images": [{"binding": 0, "kind": "storage", "format": "r32_uint", "dim": "2d",
                    "width": 4, "height": 2, "contents": [{"u32": [3, 1, 4, 1, 5, 9, 2, 6]}],
                    "read_back": True}],
    },
    # Exact halfway weights on a 4x4 RGBA32F image of small exact values.
    "img_linear": {
        "groups": [1, 1, 1],
        "images": [{"binding": 0, "kind": "combined", "format": "r32g32b32a32_sfloat", "dim": "2d",
                    "width": 4, "height": 4,
                    "contents": [{"f32": [((k * 7) % 23 - 11) * 0.25 for k in range(64)]}],
                    "sampler": LINEAR_CLAMP}],
    },
    # Two levels (the lookups reach LOD 0.5 and the size of level 1), a
    # separate one-level image and a nearest sampler.
    "img_sample_lod": {
        "groups": [1, 1, 1],
        "images": [
            {"binding": 0, "kind": "combined", "format": "r8g8b8a8_unorm", "dim": "2d",
             "width": 16, "height": 16, "levels": 2,
             "contents": [{"u32": rgba8(16 * 16 + 8 * 8, 1)}],
             "sampler": dict(LINEAR_CLAMP, mipmap_mode="linear")},
            {"binding": 1, "kind": "sampled", "format": "r8g8b8a8_unorm", "dim": "2d",
             "width": 16, "height": 16, "contents": [{"u32": rgba8(16 * 16, 2)}]},
        ],
        "samplers": [{"binding": 2, "sampler": {"address": ["clamp_to_edge"] * 3}}],
    },
    # Two 8x4 workgroups cover 16x4 texels of each image.
    "img_storage2d": {
        "images": [
            {"binding": 0, "kind": "storage", "format": "r8g8b8a8_unorm", "dim": "2d",
             "width": 16, "height": 4, "contents": [{"u32": rgba8(64, 3)}], "read_back": True},
            {"binding": 1, "kind": "storage", "format": "r32_sfloat", "dim": "2d",
             "width": 16, "height": 4, "contents": [{"f32": [(k % 17 - 8) * 0.375 for k in range(64)]}],
             "read_back": True},
            {"binding": 2, "kind": "storage", "format": "r32g32b32a32_uint", "dim": "2d",
             "width": 16, "height": 4, "contents": [{"u32": [k * 3 + 1 for k in range(256)]}],
             "read_back": True},
        ],
    },
    # One warp: each invocation reads another's imageStore of the same
    # dispatch, which only one warp orders (stores before loads).
    "img_texel_buffer": {
        "groups": [1, 1, 1],
        "images": [
            {"binding": 0, "kind": "uniform_texel_buffer", "format": "r32g32b32a32_sfloat", "dim": "buffer",
             "width": 64, "contents": [{"f32": [(k % 29 - 14) * 0.5 for k in range(256)]}]},
            {"binding": 1, "kind": "uniform_texel_buffer", "format": "r32_uint", "dim": "buffer",
             "width": 32, "contents": [{"u32": [(k * 11) % 32 for k in range(32)]}]},
            {"binding": 2, "kind": "storage_texel_buffer", "format": "r32_sfloat", "dim": "buffer",
             "width": 32, "read_back": True},
        ],
    },
})


def ints(n, seed):
    return [1 + (k * 7 + seed * 3) % 13 for k in range(n)]


def floats(n, seed):
    return [((k * 5 + seed) % 19 - 9) * 0.375 + 0.125 for k in range(n)]


def block_is_float(glsl, binding, push=False):
    """Whether the GLSL block at this binding (or the push-constant block)
    holds only float types."""
    if glsl is None:
        return False
    if push:
        pat = r"layout\s*\([^)]*push_constant[^)]*\)\s*uniform\s+\w*\s*\{([^}]*)\}"
    else:
        pat = r"layout\s*\([^)]*\bbinding\s*=\s*%d\b[^)]*\)[^{;]*\{([^}]*)\}" % binding
    m = re.search(pat, glsl)
    if not m:
        return False
    body = m.group(1)
    has_float = re.search(r"\b(float|vec\d|mat\d(x\d)?)\b", body)
    has_int = re.search(r"\b(u?int\w*|[iub]vec\d|bool|double|dvec\d|float16_t|f16vec\d)\b", body)
    return bool(has_float) and not has_int


def listing_header(name, entry):
    cmd = [SPVSASS, "compile", "%s/%s.comp.spv" % (SHADERS, name)]
    if entry:
        cmd += ["--entry", entry]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    local = re.search(r"local_size \((\d+), (\d+), (\d+)\)", out)
    res = re.findall(r"^// resource set (\d+) binding (\d+)(?: element (\d+))?: (storage|uniform) buffer", out, re.M)
    return [int(x) for x in local.groups()], res


def describe(name, entry=None, suffix=""):
    o = OVERRIDES.get(name + suffix, {})
    entry = o.get("entry", entry)
    local, res = listing_header(name, entry)
    groups = o.get("groups", [2, 1, 1] if local[0] * local[1] * local[2] <= 128 else [1, 1, 1])
    inv = local[0] * local[1] * local[2] * groups[0] * groups[1] * groups[2]
    size = o.get("size", min(16384, max(4096, inv * 16)))
    path = "%s/%s.comp.glsl" % (SHADERS, name)
    glsl = open(path).read() if os.path.exists(path) else None
    buffers = []
    for i, (set_, binding, _element, kind) in enumerate(res):
        set_, binding = int(set_), int(binding)
        key = binding if set_ == 0 else "%d.%d" % (set_, binding)
        contents = o.get("buffers", {}).get(str(key))
        if contents is None:
            words = o.get("sizes", {}).get(str(key), size) // 4
            if block_is_float(glsl, binding):
                contents = [{"f32": floats(words, i)}]
            else:
                contents = [{"u32": ints(words, i)}]
        b = {"binding": binding, "kind": kind, "contents": contents}
        if set_:
            b = {"set": set_, **b}
        if kind == "storage":
            b["read_back"] = True
        buffers.append(b)
    push = o.get("push")
    if push is None:
        push = [{"f32": floats(32, 5)}] if block_is_float(glsl, 0, push=True) else [{"u32": ints(32, 5)}]
    desc = {
        "comment": o.get("comment", "%s%s with a deterministic pattern of small inputs (scripts/cuda_all_gen.py)" % (name, (" entry " + entry) if entry else "")),
        "stages": {"compute": {"spirv": "../../shaders/%s.comp.spv" % name, **({"entry": entry} if entry else {})}},
        "groups": groups,
        "buffers": buffers,
        "push_constants": push,
    }
    for key in ["images", "samplers"]:
        if key in o:
            desc[key] = o[key]
    with open("%s/%s%s.json" % (OUT, name, suffix), "w") as f:
        f.write(format_description(desc))


def format_description(desc):
    """One key a line, one buffer a line (the style of tests/runs)."""
    j = lambda v: json.dumps(v, separators=(", ", ": "))
    lines = ["{"]
    for key in ["comment", "stages", "groups"]:
        lines.append('  "%s": %s,' % (key, j(desc[key])))
    lines.append('  "buffers": [')
    lines.append(",\n".join("    " + j(b) for b in desc["buffers"]))
    lines.append("  ],")
    extra = [k for k in ["images", "samplers"] if k in desc]
    lines.append('  "push_constants": %s%s' % (j(desc["push_constants"]), "," if extra else ""))
    for n, key in enumerate(extra):
        lines.append('  "%s": [' % key)
        lines.append(",\n".join("    " + j(i) for i in desc[key]))
        lines.append("  ]" + ("," if n + 1 < len(extra) else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    have = set()
    for f in os.listdir("tests/runs"):
        if f.endswith(".json"):
            m = re.search(r'shaders/([\w]+)\.comp\.spv', open("tests/runs/" + f).read())
            if m:
                have.add(m.group(1))
    names = sorted(f[: -len(".comp.spv")] for f in os.listdir(SHADERS) if f.endswith(".comp.spv"))
    os.makedirs(OUT, exist_ok=True)
    for name in names:
        if name in have or name in SKIPS:
            continue
        if name == "two_entry_points":
            describe(name, "clear", "_clear")
            describe(name, "scale", "_scale")
        else:
            describe(name)


if __name__ == "__main__":
    main()
