#!/usr/bin/env bash
# The in-shader culling figures of BENCHMARKS.md: the dense-mesh workload
# (tests/shaders/dense_grid.mesh, 64 workgroups, 64x64 image) without and
# with --shader-cull under each cull mode. Prints primitives reaching the
# rasterizer, ISBE bytes written, warp- and thread-instructions executed.
# Counts, not times: the same on every machine.
set -euo pipefail
cd "$(dirname "$0")"/..
cargo build --quiet --bin spvsass
bin=target/debug/spvsass
shader=tests/shaders/dense_grid.mesh.spv
echo "| culling | cull mode | primitives | ISBE bytes written | warp-instructions | thread-instructions |"
echo "|---|---|---|---|---|---|"
for cull in "" --shader-cull; do
    for mode in none back front; do
        $bin run $shader --groups 64 --cull-mode $mode $cull --json | python3 -c "
import json, sys
d = json.load(sys.stdin)
c = d['counters']
prims = sum(w['primitive_count'] for w in d['workgroups'])
print(f\"| {'on' if '$cull' else 'off'} | $mode | {prims} | {c['isbe_bytes_written']} | {c['warp_instructions']} | {c['thread_instructions']} |\")"
    done
done
