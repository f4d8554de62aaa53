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
# `spvsass run` (one workgroup, every set-0 storage buffer a zero-filled
# 64 KiB, every uniform buffer zero-filled (64 KiB), the push constants 128
# zero bytes (Vulkan's minimum limit), at most
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
    grep -m1 -E 'error|panicked' "$1" |
        sed -E 's/^error: //; s#[^ :]*\.spv: ##; s/%[0-9]+/%N/g; s/\bv[0-9]+\b/vN/g;
                s/0x[0-9a-fA-F]+/N/g; s/[0-9]+/N/g; s/ \(in `.*//; s/[|]/\//g' | cut -c1-110
}

# Records one step: module, target, step, outcome (ok/refused/crashed/...), reason.
record() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$results"; }

# `spvsass run` arguments binding every set-0 resource of a module (read
# from its disassembly) to zero-filled memory.
run_args() {
    spirv-dis --raw-id "$1" 2>/dev/null | awk -v zeros="$zeros" -v push="$push" '
        / OpDecorate .* DescriptorSet / { set[$2] = $4 }
        / OpDecorate .* Binding / { bind[$2] = $4 }
        / OpDecorate .* BufferBlock/ { bufblock[$2] = 1 }
        / = OpTypePointer / { ptrclass[$1] = $4; ptee[$1] = $5 }
        / = OpTypeArray | = OpTypeRuntimeArray / { elem[$1] = $4 }
        / = OpVariable / { var[$1] = $4; cls[$1] = $5 }
        END {
            for (v in var) {
                if (cls[v] == "PushConstant") { print "--push " push; continue }
                if (!(v in bind)) continue
                t = ptee[var[v]]; while (t in elem) t = elem[t]
                key = (set[v] == 0 ? "" : set[v] ".") bind[v]
                if (cls[v] == "StorageBuffer" || (cls[v] == "Uniform" && (t in bufblock)))
                    print "--buffer " key "=65536"
                else if (cls[v] == "Uniform")
                    print "--uniform " key "=" zeros
            }
        }' | sort -u | tr '\n' ' '
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
