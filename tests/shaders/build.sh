#!/usr/bin/env bash
# Rebuilds every tests/shaders/*.glsl and tests/data/*.glsl into its .spv with glslangValidator
# (Debian package glslang-tools) and checks it with spirv-val (spirv-tools).
# The stage comes from the second extension: name.mesh.glsl, name.task.glsl,
# name.comp.glsl, name.frag.glsl (shaders/fragment/: the reference runner's
# pass-through fragment shaders).
set -euo pipefail
cd "$(dirname "$0")"/..
for src in shaders/*.glsl shaders/fragment/*.glsl data/*.glsl; do
    stage=$(basename "$src" .glsl); stage=${stage##*.}
    out=${src%.glsl}.spv
    glslangValidator -V --target-env vulkan1.3 -S "$stage" -o "$out" "$src" >/dev/null
    spirv-val --target-env vulkan1.3 "$out"
    echo "built $out"
done
