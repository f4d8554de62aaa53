#!/usr/bin/env bash
# Corpus measurement (BENCHMARKS.md, "Corpus"): builds every task, mesh and
# compute shader under the given folders, validates it, compiles it with
# spvsass for two targets and runs it, then prints a table of accepted /
# refused-by-reason / crashed modules.
#
#   scripts/corpus.sh [-b SPVSASS] [-o OUTDIR] [-a "sm75 sm86"] [-c] DIR...
#
# -c compiles only (no runs); -t RESULTS.tsv prints the tables of an
# earlier run's results.tsv and exits.
#
# Sources, by name:
#   *.comp *.mesh *.task (optionally followed by .glsl)  GLSL, glslangValidator
#                                                        -V --target-env vulkan1.3
#   *.asm.comp *.asm.mesh *.asm.task *.spvasm            SPIR-V assembly, spirv-as
#   *.spv                                                SPIR-V binaries as they are
#   *.cs.hlsl *.ms.hlsl *.as.hlsl *_cs.hlsl ...          HLSL, only when dxc is on PATH
#                                                        (entry point "main")
# GLSL gets GL_GOOGLE_include_directive switched on (as glslc does) and the
# source's folder and its parent as include paths. Modules that do not build
# or that spirv-val (vulkan1.3) rejects are counted, not compiled; identical
# modules (same bytes) are compiled once. Each module is compiled with
# `spvsass compile --arch A` and, when that succeeds, run once with
# `spvsass run` (one workgroup, every storage buffer a zero-filled 1 MiB,
# every uniform buffer zero-filled (64 KiB), the push constants 128 zero
# bytes (Vulkan's minimum limit), every image, texel buffer and combined
# image-sampler a small image of the format its OpTypeImage declares (RGBA8
# when Unknown) filled with one mid-range texel, every sampler nearest and
# repeating (valid for every format); descriptor arrays their first 64 elements; at most
# --max-steps 2000000 and 60 s). Exit status 0 is accepted, 1 or 2 a refusal
# (its reason is the error text with numbers, ids and paths blanked), any
# other status (a panic is 101, a signal 128+n, the time limit 124) a crash.
# OUTDIR (default: a fresh temporary folder) keeps results.tsv, one line per
# module, target and step, and each module's .spv.
set -uo pipefail

bin=""
out=""
archs="sm75 sm86"
run=1
tables=""
while getopts "b:o:a:ct:" opt; do
    case $opt in
    b) bin=$OPTARG ;;
    o) out=$OPTARG ;;
    a) archs=$OPTARG ;;
    c) run=0 ;;
    t) tables=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))

# The tables of a results.tsv.
tables() {
awk -F'\t' -v archs="$archs" '
    $3 == "build" { failed++ } $3 == "validate" { invalid++ } $3 == "dedup" { dup++ }
    $3 == "stage" { modules++; stages[$4]++ }
    $3 == "compile" || $3 == "run" {
        n[$3 "\t" $2 "\t" $4]++
        if ($4 != "ok") { r = $3 "\t" $4 "\t" $5; why[r]; cnt[r "\t" $2]++ }
    }
    END {
        na = split(archs, a, " ")
        printf "sources that did not build: %d, modules spirv-val rejects: %d, duplicate modules: %d\n", failed, invalid, dup
        printf "valid distinct modules: %d (compute %d, mesh %d, task %d)\n\n", modules, stages["comp"], stages["mesh"], stages["task"]
        printf "| outcome |"; for (i = 1; i <= na; i++) printf " %s |", a[i]; printf "\n|---|"
        for (i = 1; i <= na; i++) printf "---|"; printf "\n"
        printf "| **compiled** |"; for (i = 1; i <= na; i++) printf " **%d** (%.0f%%) |", n["compile\t" a[i] "\tok"], 100 * n["compile\t" a[i] "\tok"] / (modules ? modules : 1); printf "\n"
        printf "| compile crashed |"; for (i = 1; i <= na; i++) printf " %d |", n["compile\t" a[i] "\tcrashed"]; printf "\n"
        printf "| **ran** (of compiled) |"; for (i = 1; i <= na; i++) printf " **%d** |", n["run\t" a[i] "\tok"]; printf "\n"
        printf "| run crashed |"; for (i = 1; i <= na; i++) printf " %d |", n["run\t" a[i] "\tcrashed"]; printf "\n"
        m = 0; for (r in why) keys[++m] = r
        # Most frequent first (first target).
        for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
            if (cnt[keys[j] "\t" a[1]] + cnt[keys[j] "\t" a[na]] > cnt[keys[i] "\t" a[1]] + cnt[keys[i] "\t" a[na]]) { t = keys[i]; keys[i] = keys[j]; keys[j] = t }
        for (i = 1; i <= m; i++) {
            split(keys[i], k, "\t")
            printf "| %s %s: %s |", k[1], k[2], k[3]
            for (j = 1; j <= na; j++) printf " %d |", cnt[keys[i] "\t" a[j]]
            printf "\n"
        }
    }' "$1"
}
if [ -n "$tables" ]; then
    tables "$tables"
    exit 0
fi
if [ $# -eq 0 ]; then
    echo "usage: $0 [-b SPVSASS] [-o OUTDIR] [-a \"sm75 sm86\"] [-c] DIR..." >&2
    exit 2
fi
if [ -z "$bin" ]; then
    (cd "$(dirname "$0")"/.. && cargo build --quiet --release --bin spvsass) || exit 1
    bin=$(cd "$(dirname "$0")"/.. && pwd)/target/release/spvsass
fi
[ -n "$out" ] || out=$(mktemp -d)
mkdir -p "$out/spv" "$out/tmp"
results=$out/results.tsv
: >"$results"
zeros=$out/tmp/zeros.bin
head -c 65536 /dev/zero >"$zeros"
push=$out/tmp/push.bin
head -c 128 /dev/zero >"$push"
have_dxc=$(command -v dxc || true)

# The reason of a refusal: the first error line, without the file name,
# with ids, numbers and quoted names blanked so equal causes count together.
reason() {
    grep -a -m1 -E 'error|panicked' "$1" |
        sed -E 's/^error: //; s#[^ :]*\.spv:? ##; s#/\*[0-9a-fA-F]+\*/#/*N*/#g; s/%[0-9]+/%N/g; s/\bv[0-9]+\b/vN/g;
                s/0x[0-9a-fA-F]+/N/g; s/[0-9]+/N/g; s/ \(in `.*//; s/[|]/\//g' | cut -c1-110
}

# Records one step: module, target, step, outcome (ok/refused/crashed/...), reason.
record() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$results"; }

# `spvsass run` arguments binding every resource of a module (read from its
# disassembly): storage and uniform buffers to zero-filled memory, the push
# constants to zero bytes, and every image, texel buffer and sampler to
# generated data (`image_args`). A descriptor array gets its first
# min(length, 64) elements (a runtime array 64).
run_args() {
    spirv-dis --raw-id "$1" 2>/dev/null | awk -v zeros="$zeros" -v push="$push" '
        / OpDecorate .* DescriptorSet / { set[$2] = $4 }
        / OpDecorate .* Binding / { bind[$2] = $4 }
        / OpDecorate .* BufferBlock/ { bufblock[$2] = 1 }
        / = OpConstant / { konst[$1] = $5 }
        / = OpTypeInt / { num[$1] = ($5 == 1 ? "int" : "uint") }
        / = OpTypeFloat / { num[$1] = "float" }
        / = OpTypeImage / { image[$1] = num[$4] " " $5 " " $6 " " $7 " " $8 " " $9 " " $10 }
        / = OpTypeSampledImage / { combined[$1] = $4 }
        / = OpTypeSampler/ { sampler[$1] = 1 }
        / = OpTypePointer / { ptrclass[$1] = $4; ptee[$1] = $5 }
        / = OpTypeArray / { elem[$1] = $4; len[$1] = konst[$5] }
        / = OpTypeRuntimeArray / { elem[$1] = $4; len[$1] = 64 }
        / = OpVariable / { var[$1] = $4; cls[$1] = $5 }
        END {
            for (v in var) {
                if (cls[v] == "PushConstant") { print "--push " push; continue }
                if (!(v in bind)) continue
                t = ptee[var[v]]; n = 0
                if (t in elem) { n = len[t] + 0; if (n > 64) n = 64 }
                while (t in elem) t = elem[t]
                key = (set[v] == 0 ? "" : set[v] ".") bind[v]
                if (cls[v] == "StorageBuffer" || (cls[v] == "Uniform" && (t in bufblock)))
                    arg = "--buffer KEY=1048576"
                else if (cls[v] == "Uniform")
                    arg = "--uniform KEY=" zeros
                else if (cls[v] == "UniformConstant" && ((t in image) || (t in combined) || (t in sampler)))
                    # An image: its sampled type, Dim, Depth, Arrayed, MS,
                    # Sampled and Format operands; a sampler: "sampler".
                    arg = "IMAGE KEY " ((t in sampler) ? "sampler" : (t in combined) ? "combined " image[combined[t]] : "image " image[t])
                else continue
                if (n == 0) { a = arg; sub(/KEY/, key, a); print a }
                for (e = 0; e < n; e++) { a = arg; sub(/KEY/, key "[" e "]", a); print a }
            }
        }' | sort -u | while read -r first rest; do
        if [ "$first" = IMAGE ]; then
            # shellcheck disable=SC2086
            image_args $rest
        else
            printf '%s %s\n' "$first" "$rest"
        fi
    done | tr '\n' ' '
}

# The Vulkan format (as spvsass names it) of an image: the format its
# OpTypeImage declares, else by its sampled type: RGBA8 (UNORM, UINT, SINT),
# D32_SFLOAT for a depth image.
vk_format() {
    local num=$1 depth=$2 format=$3
    case $format in
    Rgba32f) echo r32g32b32a32_sfloat ;; Rgba16f) echo r16g16b16a16_sfloat ;;
    Rg32f) echo r32g32_sfloat ;; Rg16f) echo r16g16_sfloat ;;
    R32f) echo r32_sfloat ;; R16f) echo r16_sfloat ;;
    R11fG11fB10f) echo b10g11r11_ufloat_pack32 ;;
    Rgba16) echo r16g16b16a16_unorm ;; Rg16) echo r16g16_unorm ;; R16) echo r16_unorm ;;
    Rgba16Snorm) echo r16g16b16a16_snorm ;; Rg16Snorm) echo r16g16_snorm ;; R16Snorm) echo r16_snorm ;;
    Rgb10A2) echo a2b10g10r10_unorm_pack32 ;; Rgb10a2ui) echo a2b10g10r10_uint_pack32 ;;
    Rgba8) echo r8g8b8a8_unorm ;; Rg8) echo r8g8_unorm ;; R8) echo r8_unorm ;;
    Rgba8Snorm) echo r8g8b8a8_snorm ;; Rg8Snorm) echo r8g8_snorm ;; R8Snorm) echo r8_snorm ;;
    Rgba32i) echo r32g32b32a32_sint ;; Rg32i) echo r32g32_sint ;; R32i) echo r32_sint ;;
    Rgba16i) echo r16g16b16a16_sint ;; Rg16i) echo r16g16_sint ;; R16i) echo r16_sint ;;
    Rgba8i) echo r8g8b8a8_sint ;; Rg8i) echo r8g8_sint ;; R8i) echo r8_sint ;;
    Rgba32ui) echo r32g32b32a32_uint ;; Rg32ui) echo r32g32_uint ;; R32ui) echo r32_uint ;;
    Rgba16ui) echo r16g16b16a16_uint ;; Rg16ui) echo r16g16_uint ;; R16ui) echo r16_uint ;;
    Rgba8ui) echo r8g8b8a8_uint ;; Rg8ui) echo r8g8_uint ;; R8ui) echo r8_uint ;;
    Unknown)
        case $num/$depth in
        float/1) echo d32_sfloat ;; float/*) echo r8g8b8a8_unorm ;;
        uint/*) echo r8g8b8a8_uint ;; *) echo r8g8b8a8_sint ;;
        esac ;;
    *) echo "unsupported-$format" ;;
    esac
}

# One texel of a format, as printf escapes: mid-range values (0.5 for float
# and normalized formats, 1 for integer ones), so that a texel read as an
# index or a count stays small.
texel() {
    local c n=1 one
    case $1 in
    r32g32b32a32_*) n=4 ;; r32g32_*) n=2 ;; r16g16b16a16_*) n=4 ;; r16g16_*) n=2 ;;
    r8g8b8a8_*) n=4 ;; r8g8_*) n=2 ;;
    esac
    case $1 in
    r32*_sfloat | d32_sfloat) one='\x00\x00\x00\x3f' ;;
    r32*) one='\x01\x00\x00\x00' ;;
    r16*_sfloat) one='\x00\x38' ;;
    r16*_unorm | d16_unorm) one='\x00\x80' ;;
    r16*_snorm) one='\x00\x40' ;;
    r16*) one='\x01\x00' ;;
    r8*_unorm | r8*_srgb) one='\x80' ;;
    r8*_snorm) one='\x40' ;;
    r8*) one='\x01' ;;
    a2b10g10r10_unorm*) one='\x00\x02\x08\x20' ;;
    a2b10g10r10_uint*) one='\x01\x04\x10\x00' ;;
    b10g11r11_ufloat*) one='\xc0\x03\x1e\x70' ;;
    *) one='\x00' ;;
    esac
    for ((c = 0; c < n; c++)); do printf '%s' "$one"; done
}

# `--texture`/`--sampler` arguments for one image, sampler or combined
# image-sampler at KEY ([S.]B[[E]]): a 16x16 image (8x8x4 3D, 2 layers for
# arrays, a 256-texel texel buffer) of one generated texel repeated, in a
# file under $out/tmp made once per format and size.
image_args() {
    local key=$1 what=$2
    if [ "$what" = sampler ]; then
        echo "--sampler $key=nearest,repeat"
        return
    fi
    local num=$3 dim=$4 depth=$5 arrayed=$6 sampled=$8 format=$9 kind size slices=1 vk t file
    case $dim/$arrayed in
    1D/0) dim=1d size=16 ;;
    1D/1) dim=1d_array size=16x1x2 slices=2 ;;
    2D/0 | Rect/0) dim=2d size=16x16 ;;
    2D/1 | Rect/1) dim=2d_array size=16x16x2 slices=2 ;;
    3D/*) dim=3d size=8x8x4 slices=4 ;;
    Cube/0) dim=cube size=16x16 slices=6 ;;
    Cube/1) dim=cube_array size=16x16x1 slices=6 ;;
    Buffer/*) dim=buffer size=256 ;;
    *) return ;;
    esac
    case $what/$dim/$sampled in
    combined/*) kind=combined ;;
    image/buffer/2) kind=storage_texel_buffer ;;
    image/buffer/*) kind=uniform_texel_buffer ;;
    image/*/2) kind=storage ;;
    *) kind=sampled ;;
    esac
    vk=$(vk_format "$num" "$depth" "$format")
    t=$(texel "$vk")
    local texels=$((16 * 16 * slices))
    [ "$dim" = 3d ] && texels=$((8 * 8 * slices))
    [ "$dim" = 1d ] || [ "$dim" = 1d_array ] && texels=$((16 * slices))
    [ "$dim" = buffer ] && texels=256
    file=$out/tmp/texels-$vk-$texels.bin
    if [ ! -s "$file" ]; then
        local i
        for ((i = 0; i < texels; i++)); do printf '%b' "$t"; done >"$file"
    fi
    echo "--texture $key=$kind:$vk:$dim:$size:$file"
    [ "$kind" = combined ] && echo "--sampler $key=nearest,repeat"
}

# Compiles and runs one valid module for every target.
try_module() {
    local name=$1 spv=$2 stage=$3 arch rc log=$out/tmp/log
    for arch in $archs; do
        timeout 60 "$bin" compile "$spv" --arch "$arch" >/dev/null 2>"$log"
        rc=$?
        case $rc in
        0) record "$name" "$arch" compile ok "" ;;
        1 | 2) record "$name" "$arch" compile refused "$(reason "$log")" ;;
        *) record "$name" "$arch" compile crashed "exit $rc: $(reason "$log")"; continue ;;
        esac
        [ $rc -eq 0 ] && [ $run -eq 1 ] || continue
        local groups="1,1,1"
        [ "$stage" = comp ] || groups=1
        # shellcheck disable=SC2046
        timeout 60 "$bin" run "$spv" --arch "$arch" --groups "$groups" --max-steps 2000000 \
            $(run_args "$spv") >/dev/null 2>"$log"
        rc=$?
        case $rc in
        0) record "$name" "$arch" run ok "" ;;
        1 | 2) record "$name" "$arch" run refused "$(reason "$log")" ;;
        *) record "$name" "$arch" run crashed "exit $rc: $(reason "$log")" ;;
        esac
    done
}

# Builds one source into $out/spv; prints the module path or nothing.
build() {
    local src=$1 stage=$2 kind=$3 spv tmp
    spv=$out/spv/$(echo "$src" | sed 's#^/##; s#/#__#g').spv
    case $kind in
    glsl)
        tmp=$out/tmp/$(basename "$src")
        # As glslc does: #include on, after the #version line.
        awk 'NR == 1 && !/^#version/ { print "#extension GL_GOOGLE_include_directive : enable" }
             { print } /^[ \t]*#version/ && !done { print "#extension GL_GOOGLE_include_directive : enable"; done = 1 }' \
            "$src" >"$tmp"
        grep -q '^#version' "$src" && sed -i '1{/GL_GOOGLE_include_directive/d}' "$tmp"
        timeout 60 glslangValidator -V --target-env vulkan1.3 -S "$stage" \
            -I"$(dirname "$src")" -I"$(dirname "$src")/.." -o "$spv" "$tmp" >"$out/tmp/log" 2>&1 ||
            return 0
        ;;
    spvasm) timeout 60 spirv-as --target-env vulkan1.3 -o "$spv" "$src" >"$out/tmp/log" 2>&1 || return 0 ;;
    spv) cp "$src" "$spv" ;;
    hlsl)
        local profile=cs_6_6
        [ "$stage" = mesh ] && profile=ms_6_6
        [ "$stage" = task ] && profile=as_6_6
        timeout 60 dxc -spirv -fspv-target-env=vulkan1.3 -T $profile -E main -Fo "$spv" "$src" \
            >"$out/tmp/log" 2>&1 || return 0
        ;;
    esac
    echo "$spv"
}

declare -A seen
for dir in "$@"; do
    while IFS= read -r src; do
        base=$(basename "$src")
        stage="" kind=""
        case $base in
        *.asm.comp | *.asm.mesh | *.asm.task) kind=spvasm stage=${base##*.} ;;
        *.spvasm) kind=spvasm stage=comp ;;
        *.comp | *.mesh | *.task) kind=glsl stage=${base##*.} ;;
        *.comp.glsl | *.mesh.glsl | *.task.glsl) kind=glsl stage=${base%.glsl} stage=${stage##*.} ;;
        *.spv) kind=spv stage=comp ;;
        *.cs.hlsl | *_cs.hlsl) [ -n "$have_dxc" ] && kind=hlsl stage=comp ;;
        *.ms.hlsl | *_ms.hlsl) [ -n "$have_dxc" ] && kind=hlsl stage=mesh ;;
        *.as.hlsl | *_as.hlsl) [ -n "$have_dxc" ] && kind=hlsl stage=task ;;
        esac
        [ -n "$kind" ] || continue
        name=${src#"$dir"/}
        name=$(basename "$dir")/$name
        spv=$(build "$src" "$stage" "$kind")
        if [ -z "$spv" ]; then
            record "$name" - build failed "$(head -c 100 "$out/tmp/log" | tr '\t\n' '  ')"
            continue
        fi
        # Binaries: the stage is the entry point's execution model.
        if [ "$kind" = spv ]; then
            case $(spirv-dis "$spv" 2>/dev/null | grep -m1 OpEntryPoint) in
            *MeshEXT* | *MeshNV*) stage=mesh ;;
            *TaskEXT* | *TaskNV*) stage=task ;;
            *GLCompute*) stage=comp ;;
            *) continue ;;
            esac
        fi
        if ! spirv-val --target-env vulkan1.3 "$spv" >"$out/tmp/log" 2>&1; then
            record "$name" - validate invalid "$(reason "$out/tmp/log")"
            continue
        fi
        sum=$(md5sum <"$spv" | cut -d' ' -f1)
        if [ -n "${seen[$sum]:-}" ]; then
            record "$name" - dedup duplicate "${seen[$sum]}"
            continue
        fi
        seen[$sum]=$name
        record "$name" - stage "$stage" ""
        try_module "$name" "$spv" "$stage"
    done < <(find "$dir" -type f | sort)
done

tables "$results"
echo
echo "per-module results: $results"
