#!/bin/bash
# Captures the atomics evidence of docs/CUBIN.md on the GPU machine (run from this folder):
# nvcc's SASS for atomics.cu, and nvdisasm's reading of the ATOMG/RED variants of
# atomic_variants.py. Writes into OUT.
set -u
OUT=${1:?usage: capture_atomics.sh OUTDIR}
mkdir -p "$OUT/words"
for a in 86 90; do
  nvcc -arch=sm_$a -cubin -O3 -o "$OUT/atomics_sm$a.cubin" atomics.cu
  nvdisasm -c -hex "$OUT/atomics_sm$a.cubin" > "$OUT/atomics_sm$a.nvdisasm.txt" 2>&1
done
python3 atomic_variants.py "$OUT/words"
for n in $(cat "$OUT/words/names.txt"); do
  for A in SM75 SM86 SM90; do
    echo "== $n $A" >> "$OUT/atomic_variants.txt"
    nvdisasm -b $A -hex "$OUT/words/$n.bin" >> "$OUT/atomic_variants.txt" 2>&1
  done
done
