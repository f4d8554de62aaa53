#!/usr/bin/env bash
# Runs every compute run description of tests/runs/cuda_all (and the
# compute ones of tests/runs) on the GPU through our own cubin
# (`spvsass reference X --driver cuda`, docs/CUBIN.md), once with the
# control bits the scheduler computes and once with SPVSASS_CUDA_CTRL=conservative
# (each instruction waits for the previous one: a difference only in the
# first run points at scheduling). Packs everything into one tarball.
#
# Usage (from the repository root, on the GPU machine):
#   scripts/cuda-all.sh SPVSASS_BINARY OUT_DIR
# Writes OUT_DIR/cuda/NAME and OUT_DIR/conservative/NAME (captures),
# OUT_DIR/log/NAME.{cuda,conservative}.txt, OUT_DIR/summary.tsv
# (name, mode, exit status, milliseconds) and OUT_DIR/cuda-all.tar.gz of them.
set -u
bin=${1:?usage: scripts/cuda-all.sh SPVSASS_BINARY OUT_DIR}
out=${2:?usage: scripts/cuda-all.sh SPVSASS_BINARY OUT_DIR}
per_run_timeout=${CUDA_ALL_TIMEOUT:-60}
mkdir -p "$out/cuda" "$out/conservative" "$out/log"
: > "$out/summary.tsv"
nvidia-smi -L > "$out/log/nvidia-smi.txt" 2>&1 || true

runs=()
for f in tests/runs/cuda_all/*.json tests/runs/*.json; do
    # Compute descriptions only: mesh runs cannot go through CUDA.
    grep -q '"compute"' "$f" && runs+=("$f")
done

for f in "${runs[@]}"; do
    name=$(basename "$f" .json)
    for mode in cuda conservative; do
        if [ "$mode" = conservative ]; then ctrl=conservative; else ctrl=; fi
        start=$(date +%s%N)
        SPVSASS_CUDA_CTRL=$ctrl timeout "$per_run_timeout" \
            "$bin" reference "$f" --driver cuda --out "$out/$mode/$name" \
            > "$out/log/$name.$mode.txt" 2>&1
        rc=$?
        end=$(date +%s%N)
        printf '%s\t%s\t%s\t%s\n' "$name" "$mode" "$rc" "$(( (end - start) / 1000000 ))ms" \
            | tee -a "$out/summary.tsv"
    done
done

tar -C "$out" -czf "$out/cuda-all.tar.gz" cuda conservative log summary.tsv
echo "wrote $out/cuda-all.tar.gz"
