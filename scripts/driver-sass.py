#!/usr/bin/env python3
"""NVIDIA's own machine code for the pipelines a Vulkan run compiled, read
from the driver's shader disk cache (docs/TEXTURES.md, "What NVIDIA's
driver emits for a cube textureGrad", has the format and what it showed).

On the GPU machine, run the reference runner with the cache pointed at a
fresh folder, then this script over it:

    export __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_PATH=/tmp/nvc \\
           __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1
    spvsass reference tests/runs/NAME.json --out /tmp/cap
    scripts/driver-sass.py /tmp/nvc OUTDIR

For every cache entry it writes OUTDIR/ENTRY-N.bin (the code section of
the N-th program container in the entry) and, where `nvdisasm` is on the
PATH, OUTDIR/ENTRY-N.sass (`nvdisasm -b SM90`; SMxy from --arch). The
entries are zstd frames: the `zstd` program decompresses them (here or
on the GPU machine, whichever has it). Exits 1 when no code was found.
"""

import argparse
import pathlib
import shutil
import struct
import subprocess
import sys

ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
CONTAINER_MAGIC = b"NVDANVVMNVuc"


def frames(data):
    """The zstd frames of a cache entry, decompressed."""
    starts = []
    at = data.find(ZSTD_MAGIC)
    while at >= 0:
        starts.append(at)
        at = data.find(ZSTD_MAGIC, at + 1)
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(data)
        run = subprocess.run(
            ["zstd", "-d", "-c", "-q"], input=data[start:end], capture_output=True
        )
        # A frame cut short by the next magic inside compressed bytes
        # fails to decompress; the real frames do.
        if run.returncode == 0 and run.stdout:
            yield run.stdout


def code_sections(blob):
    """The first section of each program container: the machine code.

    The container: `NVDANVVM`, then at byte 8 `NVuc` and its header; a
    section table of 8-word rows at 0x40 past `NVuc`, each row (kind,
    size, offset past `NVuc`, ...); the code is the row of kind 1."""
    at = blob.find(CONTAINER_MAGIC)
    while at >= 0:
        base = at + 8
        table = base + 0x40
        for row in range(8):
            off = table + row * 32
            if off + 12 > len(blob):
                break
            kind, size, start = struct.unpack_from("<III", blob, off)
            if kind == 1 and size and size % 16 == 0 and base + start + size <= len(blob):
                yield blob[base + start : base + start + size]
                break
        at = blob.find(CONTAINER_MAGIC, at + 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cache", type=pathlib.Path, help="__GL_SHADER_DISK_CACHE_PATH of the run")
    ap.add_argument("out", type=pathlib.Path)
    ap.add_argument("--arch", default="SM90", help="nvdisasm's -b argument (default SM90)")
    args = ap.parse_args()
    if shutil.which("zstd") is None:
        sys.exit("driver-sass: the zstd program is needed to read the cache entries")
    args.out.mkdir(parents=True, exist_ok=True)
    nvdisasm = shutil.which("nvdisasm")
    found = 0
    for entry in sorted(args.cache.rglob("*.bin")):
        n = 0
        for blob in frames(entry.read_bytes()):
            for code in code_sections(blob):
                stem = args.out / f"{entry.stem}-{n}"
                pathlib.Path(f"{stem}.bin").write_bytes(code)
                if nvdisasm:
                    listing = subprocess.run(
                        [nvdisasm, "-b", args.arch, f"{stem}.bin"], capture_output=True, text=True
                    )
                    pathlib.Path(f"{stem}.sass").write_text(listing.stdout + listing.stderr)
                print(f"{entry}: program {n}, {len(code)} bytes -> {stem}.bin")
                n += 1
                found += 1
    if not found:
        sys.exit(f"driver-sass: no program code in {args.cache}")


if __name__ == "__main__":
    main()
