#!/bin/bash
# Compiles the .cu files of this folder with nvcc for each target and writes nvdisasm
# listings (raw encodings), cuobjdump ELF dumps and the cubins into OUT (run on the GPU machine).
set -u
OUT=${1:?usage: capture.sh OUTDIR}
cd "$(dirname "$0")"
mkdir -p "$OUT"
nvcc --version > "$OUT/nvcc-version.txt" 2>&1
nvdisasm --version > "$OUT/nvdisasm-version.txt" 2>&1
nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1
for src in images cubin; do
  for a in 75 86 89 90; do
    nvcc -arch=sm_$a -cubin -O3 -o "$OUT/${src}_sm$a.cubin" $src.cu > "$OUT/${src}_sm$a.nvcc.log" 2>&1
    nvdisasm -c -hex "$OUT/${src}_sm$a.cubin" > "$OUT/${src}_sm$a.nvdisasm.txt" 2>&1
    cuobjdump -elf "$OUT/${src}_sm$a.cubin" > "$OUT/${src}_sm$a.elf.txt" 2>&1
  done
done
nvcc -arch=sm_90 -ptx -O3 -o "$OUT/cubin.ptx" cubin.cu
readelf -a -W "$OUT/cubin_sm90.cubin" > "$OUT/cubin_sm90.readelf.txt" 2>&1
ls -la "$OUT"
