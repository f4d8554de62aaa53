#!/usr/bin/env bash
# Runs every compute run description of tests/runs/cuda_all (and the
# compute ones of tests/runs) on the GPU through our own cubin
# (`spvsass reference X --driver cuda`, docs/CUBIN.md) and packs the
# captures into one tarball, appended to after every run so that a cut
# leaves what ran.
#
# Usage (from the repository root, on the GPU machine):
#   scripts/cuda-all.sh SPVSASS_BINARY OUT_DIR
# Writes OUT_DIR/cuda/NAME (captures), OUT_DIR/log/NAME.cuda.txt,
# OUT_DIR/summary.tsv (name, mode, exit status, milliseconds) and
# OUT_DIR/cuda-all.tar (all of them). CUDA_ALL_CONSERVATIVE=1 also runs
# each with SPVSASS_CUDA_CTRL=conservative into OUT_DIR/conservative/NAME
# (they hung on the H100 until stores stopped getting a write scoreboard: docs/CUBIN.md).
# CUDA_ALL_TIMEOUT: seconds per run (default 20).
# CUDA_ALL_RUNS: the descriptions to run (default: every compute one).
# CUDA_ALL_MODES: the modes (default `cuda`, with `conservative` as above):
# `copy` and `zero` run with SPVSASS_CUDA_SAMPLER_BITS=copy or zero (image
# handles carry their index in the sampler bits too, or not), `approx` with SPVSASS_CUDA_APPROXIMATE=1
# (what CUDA cannot express is approximated, not refused); docs/CUBIN.md,
# "Images under CUDA". Every run logs its image handles (SPVSASS_CUDA_LOG).
set -u
bin=${1:?usage: scripts/cuda-all.sh SPVSASS_BINARY OUT_DIR}
out=${2:?usage: scripts/cuda-all.sh SPVSASS_BINARY OUT_DIR}
per_run_timeout=${CUDA_ALL_TIMEOUT:-20}
modes=(cuda)
[ "${CUDA_ALL_CONSERVATIVE:-0}" = 1 ] && modes+=(conservative)
[ -n "${CUDA_ALL_MODES:-}" ] && read -r -a modes <<< "$CUDA_ALL_MODES"
mkdir -p "$out/log"
: > "$out/summary.tsv"
nvidia-smi -L > "$out/log/nvidia-smi.txt" 2>&1 || true
tar -C "$out" -cf "$out/cuda-all.tar" log/nvidia-smi.txt

runs=()
for f in ${CUDA_ALL_RUNS:-tests/runs/cuda_all/*.json tests/runs/*.json}; do
    # Compute descriptions only: mesh runs cannot go through CUDA.
    grep -q '"compute"' "$f" && runs+=("$f")
done

for f in "${runs[@]}"; do
    name=$(basename "$f" .json)
    for mode in "${modes[@]}"; do
        mkdir -p "$out/$mode"
        ctrl= bits= approx=
        case $mode in
            conservative) ctrl=conservative ;;
            copy) bits=copy ;;
            zero) bits=zero ;;
            approx) approx=1 ;;
        esac
        start=$(date +%s%N)
        SPVSASS_CUDA_CTRL=$ctrl SPVSASS_CUDA_SAMPLER_BITS=$bits SPVSASS_CUDA_APPROXIMATE=$approx \
            SPVSASS_CUDA_LOG=1 timeout "$per_run_timeout" \
            "$bin" reference "$f" --driver cuda --out "$out/$mode/$name" \
            > "$out/log/$name.$mode.txt" 2>&1
        rc=$?
        end=$(date +%s%N)
        printf '%s\t%s\t%s\t%s\n' "$name" "$mode" "$rc" "$(( (end - start) / 1000000 ))ms" \
            | tee -a "$out/summary.tsv"
        parts=("log/$name.$mode.txt")
        [ -d "$out/$mode/$name" ] && parts+=("$mode/$name")
        tar -C "$out" -rf "$out/cuda-all.tar" "${parts[@]}"
    done
done

tar -C "$out" -rf "$out/cuda-all.tar" summary.tsv
echo "wrote $out/cuda-all.tar"
