#!/usr/bin/env bash
# Rebuilds every tests/shaders/*.glsl and tests/data/*.glsl into its .spv with glslangValidator
# (Debian package glslang-tools) and checks it with spirv-val (spirv-tools).
# The stage comes from the second extension: name.mesh.glsl, name.task.glsl,
# name.comp.glsl, name.frag.glsl (shaders/fragment/: the reference runner's
# pass-through fragment shaders; shaders/fill/: its multisampled-image
# fill; shaders/texture/: the texture unit's lavapipe
# cases, tests/reference_textures.rs).
set -euo pipefail
cd "$(dirname "$0")"/..
for src in shaders/*.glsl shaders/fragment/*.glsl shaders/fill/*.glsl shaders/texture/*.glsl data/*.glsl; do
    stage=$(basename "$src" .glsl); stage=${stage##*.}
    out=${src%.glsl}.spv
    glslangValidator -V --target-env vulkan1.3 -S "$stage" -o "$out" "$src" >/dev/null
    spirv-val --target-env vulkan1.3 "$out"
    echo "built $out"
done

# Shaders also built for SPIR-V 1.4 (the oldest version with mesh shaders),
# into name.stage.spirv14.spv.
SPIRV14=(
    shaders/meshlet_cone_culling.task.glsl
    shaders/meshlet_instanced.mesh.glsl
    shaders/shared_reduction.comp.glsl
    shaders/function_calls.comp.glsl
)
for src in "${SPIRV14[@]}"; do
    stage=$(basename "$src" .glsl); stage=${stage##*.}
    out=${src%.glsl}.spirv14.spv
    glslangValidator -V --target-env spirv1.4 -S "$stage" -o "$out" "$src" >/dev/null
    spirv-val --target-env spv1.4 "$out"
    echo "built $out"
done

# Shaders rebuilt in another form over the above: for Vulkan 1.0 (storage
# buffers as Uniform + BufferBlock), and with debug information (-gV:
# NonSemantic.Shader.DebugInfo.100).
VULKAN10=(shaders/lt_buffer_block.comp.glsl)
for src in "${VULKAN10[@]}"; do
    stage=$(basename "$src" .glsl); stage=${stage##*.}
    out=${src%.glsl}.spv
    glslangValidator -V --target-env vulkan1.0 -S "$stage" -o "$out" "$src" >/dev/null
    spirv-val --target-env vulkan1.0 "$out"
    echo "built $out"
done
# Also built for Vulkan 1.0 beside the Vulkan 1.3 module (SPIR-V 1.0 has no
# OpCopyLogical: glslang copies arrays of different layouts element by element).
ALSO_VULKAN10=(shaders/large_copy.comp.glsl)
for src in "${ALSO_VULKAN10[@]}"; do
    stage=$(basename "$src" .glsl); stage=${stage##*.}
    out=${src%.glsl}.vulkan10.spv
    glslangValidator -V --target-env vulkan1.0 -S "$stage" -o "$out" "$src" >/dev/null
    spirv-val --target-env vulkan1.0 "$out"
    echo "built $out"
done
DEBUG_INFO=(shaders/lt_debug_info.comp.glsl)
for src in "${DEBUG_INFO[@]}"; do
    stage=$(basename "$src" .glsl); stage=${stage##*.}
    out=${src%.glsl}.spv
    glslangValidator -V -gV --target-env vulkan1.3 -S "$stage" -o "$out" "$src" >/dev/null
    spirv-val --target-env vulkan1.3 "$out"
    echo "built $out"
done

# Hand-written SPIR-V assembly for other producers' idioms (DXC, Slang,
# spirv-opt), assembled with spirv-as.
SPVASM=(
    shaders/c_vector_dynamic.comp.spvasm
    shaders/copy_logical.comp.spvasm
    shaders/dxc_barrier_before_emit.task.spvasm
    shaders/dxc_counter_atomics.comp.spvasm
    shaders/lt_decoration_group.comp.spvasm
    shaders/lt_opencl_debug_info.comp.spvasm
    shaders/opt_switch_merges.comp.spvasm
    shaders/phi_heavy_loop.comp.spvasm
    shaders/ptr_access_chain.comp.spvasm
    shaders/ptr_stride.comp.spvasm
    shaders/r_huge_local_array.comp.spvasm
    shaders/r_workgroup_wrap.comp.spvasm
    shaders/s_incdec.mesh.spvasm
    shaders/s_incdec.task.spvasm
    shaders/spec_op_quantize.comp.spvasm
    shaders/two_entry_points.comp.spvasm
    shaders/vp_array_length.comp.spvasm
    shaders/vp_private.comp.spvasm
    shaders/vp_row_major.comp.spvasm
    shaders/vp_select.comp.spvasm
    shaders/vp_sets.comp.spvasm
    shaders/vp_workgroup.comp.spvasm
    shaders/w_private_init.mesh.spvasm
    shaders/wide_srem.comp.spvasm
)
for src in "${SPVASM[@]}"; do
    out=${src%.spvasm}.spv
    spirv-as --target-env vulkan1.3 -o "$out" "$src"
    spirv-val --target-env vulkan1.3 "$out"
    echo "built $out"
done

# Malformed SPIR-V the compiler must refuse (spirv-val rejects it too).
MALFORMED=(shaders/r_self_init.comp.spvasm)
for src in "${MALFORMED[@]}"; do
    out=${src%.spvasm}.spv
    spirv-as --target-env vulkan1.3 -o "$out" "$src"
    echo "built $out"
done
