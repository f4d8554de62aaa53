#!/usr/bin/env bash
# The simulator's two tiers against Mesa's lavapipe, in one run (issue 21,
# item 4; BENCHMARKS.md, "Native tier"). For each kernel of benches/data it
# runs the same dispatch with `spvsass run --tier interp`, `--tier native`
# and `spvsass reference` (lavapipe, or whatever Vulkan driver
# VK_ICD_FILENAMES picks) at each thread count, several times, and prints
# the median CPU time (user + system of the whole process: compile or
# pipeline creation included), wall time, the simulation time `--stats`
# prints, the speed-up over the first thread count and the ratios to
# lavapipe at the same thread count. The meshlet task+mesh draw
# (benches/data/meshlet.*) runs on the simulator only.
#
#   scripts/bench-native.sh SPVSASS_BINARY OUTDIR
#
# Needs only the release binary, bash, coreutils, awk and python3 (for the
# CPU time of a child process) and, for the lavapipe rows, a Vulkan driver.
#
# Environment:
#   THREADS  thread counts (default "1 <all CPUs>"): the simulator's
#            RAYON_NUM_THREADS and lavapipe's LP_NUM_THREADS
#   REPS     runs per measurement (default 3)
#   KERNELS  default "alu reduce divergent copy meshlet"
#   LAVAPIPE 0 to leave the driver out. The driver rows need lavapipe:
#            VK_ICD_FILENAMES if set, else Mesa's lvp_icd.*.json from the
#            usual ICD folders (so that a machine with a GPU driver still
#            times the CPU driver); without either, or when a first run of
#            `spvsass reference` fails, they are skipped with a note
#   CACHE    the native tier's translation cache: warm (default; an
#            untimed run at each thread count fills it first) or off
#            (bench-lib.sh)
#   ALU_GROUPS, ALU_ROUNDS  the alu kernel's size (default 256 workgroups of
#            64 invocations, 16384 rounds: issue 21's 16384 invocations x
#            16384 iterations, the size its CPU-time ratio to lavapipe and
#            its scaling target are stated for)
#
# Kernels (sizes chosen so that one thread takes about a second in the
# interpreter, the alu kernel's so that it takes seconds natively):
#   alu        alu_heavy.comp: 16384 invocations in workgroups of 64, 16384
#              rounds of integer and float arithmetic on registers
#   reduce     shared_reduce.comp: 1024 workgroups of 256, 8 words per
#              invocation, then a tree in shared memory with barriers
#   divergent  divergent_loop.comp: 4096 workgroups of 64, 64 to 128 rounds
#              per lane with a branch that splits the warp every round
#   copy       copy.comp: 32 MiB copied, 16 bytes per access
#   meshlet    the task+mesh draw of bench-sim-scaling.sh (128 task
#              workgroups, 256x256)
#
# Every simulator output must be the same bytes for both tiers and every
# thread count (the script exits 1 otherwise); whether the driver agrees is
# printed as information (`spvsass compare`; GLSL's fma() need not be
# fused). The control-bit checker is off (`--check-ctrl=off`): these time the
# simulator, not the checker. Each kernel's table ends with the native
# tier's CPU time against lavapipe's at every thread count (issue 21's
# target: at most 1.0 on the alu kernel) and the native tier's median
# translation time per thread count (`--stats`: wall time of the
# translation, and the functions it was compiled into on as many threads).
# Writes OUTDIR/results.md.
set -euo pipefail

. "$(dirname "$0")/bench-lib.sh"
bench_init "$0" "$@"
threads=${THREADS:-1 $(nproc)}
reps=${REPS:-3}
bench_translation_cache
kernels=${KERNELS:-alu reduce divergent copy meshlet}
lavapipe=${LAVAPIPE:-1}
data=$repo/benches/data

# calc EXPR: floating-point arithmetic.
calc() { awk "BEGIN { printf \"%.9g\", $1 }"; }
# median V1 V2 ...: the middle value (the lower middle for an even count).
median() { printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"; }
# u32le N: the 4 little-endian bytes of N.
u32le() { printf "\\x$(printf %02x $(($1 & 255)))\\x$(printf %02x $(($1 >> 8 & 255)))\\x$(printf %02x $(($1 >> 16 & 255)))\\x$(printf %02x $(($1 >> 24 & 255)))"; }
# pattern FILE BYTES: a file of BYTES deterministic bytes.
pattern() {
    python3 -c "import sys; n = int(sys.argv[2]); b = bytes((i * 7 + i // 256) & 255 for i in range(65536)); open(sys.argv[1], 'wb').write((b * (n // 65536 + 1))[:n])" "$1" "$2"
}

# Each kernel: the simulator's arguments (@OUT@ is the run's output
# prefix) and the run description for the driver.
alu_groups=${ALU_GROUPS:-256} alu_rounds=${ALU_ROUNDS:-16384}
u32le $alu_rounds >"$work/alu.push"
args_alu=(run "$data/alu_heavy.comp.spv" --groups $alu_groups --buffer 0=$((alu_groups * 256))
    --out 0=@OUT@.bin --push "$work/alu.push" --stats)
bench_alu_json "$work/alu.json" "$alu_groups" "$alu_rounds" "bench-native.sh alu"

reduce_groups=1024 reduce_per=8
reduce_bytes=$((reduce_groups * 256 * reduce_per * 4))
pattern "$work/reduce.in" $reduce_bytes
u32le $reduce_per >"$work/reduce.push"
args_reduce=(run "$data/shared_reduce.comp.spv" --groups $reduce_groups --buffer "0=$work/reduce.in"
    --buffer 1=$((reduce_groups * 4)) --out 1=@OUT@.bin --push "$work/reduce.push" --stats)
cat >"$work/reduce.json" <<EOF
{ "comment": "bench-native.sh reduce", "stages": { "compute": { "spirv": "$data/shared_reduce.comp.spv" } },
  "groups": [$reduce_groups, 1, 1],
  "buffers": [ { "binding": 0, "kind": "storage", "contents": [ { "file": "$work/reduce.in" } ] },
               { "binding": 1, "kind": "storage", "contents": [ { "zero": $((reduce_groups * 4)) } ], "read_back": true } ],
  "push_constants": [ { "u32": [$reduce_per] } ] }
EOF

divergent_groups=4096 divergent_rounds=64
u32le $divergent_rounds >"$work/divergent.push"
args_divergent=(run "$data/divergent_loop.comp.spv" --groups $divergent_groups
    --buffer 0=$((divergent_groups * 256)) --out 0=@OUT@.bin --push "$work/divergent.push" --stats)
cat >"$work/divergent.json" <<EOF
{ "comment": "bench-native.sh divergent", "stages": { "compute": { "spirv": "$data/divergent_loop.comp.spv" } },
  "groups": [$divergent_groups, 1, 1],
  "buffers": [ { "binding": 0, "kind": "storage", "contents": [ { "zero": $((divergent_groups * 256)) } ], "read_back": true } ],
  "push_constants": [ { "u32": [$divergent_rounds] } ] }
EOF

copy_groups=4096 copy_per=8
copy_bytes=$((copy_groups * 64 * copy_per * 16))
pattern "$work/copy.in" $copy_bytes
u32le $copy_per >"$work/copy.push"
args_copy=(run "$data/copy.comp.spv" --groups $copy_groups --buffer "0=$work/copy.in"
    --buffer 1=$copy_bytes --out 1=@OUT@.bin --push "$work/copy.push" --stats)
cat >"$work/copy.json" <<EOF
{ "comment": "bench-native.sh copy", "stages": { "compute": { "spirv": "$data/copy.comp.spv" } },
  "groups": [$copy_groups, 1, 1],
  "buffers": [ { "binding": 0, "kind": "storage", "contents": [ { "file": "$work/copy.in" } ] },
               { "binding": 1, "kind": "storage", "contents": [ { "zero": $copy_bytes } ], "read_back": true } ],
  "push_constants": [ { "u32": [$copy_per] } ] }
EOF

args_meshlet=(run "$data/meshlet.mesh.spv" --task "$data/meshlet.task.spv" --groups 128
    --size 256x256 --raw @OUT@.rgba32f --stats)

# The driver: lavapipe, found as the comment above says.
lavapipe_note=
if [ "$lavapipe" = 1 ] && [ -z "${VK_ICD_FILENAMES:-}" ]; then
    icd=$(ls /usr/share/vulkan/icd.d/lvp_icd.*.json /usr/local/share/vulkan/icd.d/lvp_icd.*.json \
        /etc/vulkan/icd.d/lvp_icd.*.json 2>/dev/null | head -n1) || true
    if [ -n "$icd" ]; then
        export VK_ICD_FILENAMES=$icd
    else
        lavapipe=0 lavapipe_note="lavapipe not found (no lvp_icd.*.json, VK_ICD_FILENAMES unset): driver rows skipped"
    fi
fi
if [ "$lavapipe" = 1 ]; then
    # One small run first: a driver that cannot run at all is skipped, not
    # an error of the benchmark.
    probe=$work/probe.json
    sed 's/"groups": \[[0-9]*, 1, 1\]/"groups": [1, 1, 1]/' "$work/alu.json" >"$probe"
    if "$bin" reference "$probe" --out "$work/probe" >"$work/probe.stdout" 2>&1; then
        lavapipe_note="driver: $(sed -n 's/.*: ran on \(.*\), wrote.*/\1/p' "$work/probe.stdout") (VK_ICD_FILENAMES=$VK_ICD_FILENAMES)"
    else
        lavapipe=0 lavapipe_note="the Vulkan driver did not run ($(head -c 300 "$work/probe.stdout" | tr '\n' ' ')): driver rows skipped"
    fi
    rm -rf "$work/probe" "$probe" "$work/probe.stdout"
fi

results=$out/results.md
{
    echo "# Native tier against lavapipe, $(date -u +'%Y-%m-%d %H:%M UTC')"
    echo
    echo "- binary: $bin ($("$bin" --version))"
    echo "- machine: $(uname -srm), $(nproc) CPUs online ($(grep -c '^processor' /proc/cpuinfo) listed, $(grep -m1 'siblings' /proc/cpuinfo | cut -d: -f2 | tr -d ' ') threads on $(grep -m1 'cpu cores' /proc/cpuinfo | cut -d: -f2 | tr -d ' ') cores per socket), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
    echo "- load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "- method: $reps runs each, medians; CPU = user + system time of the whole"
    echo "  process, wall = its elapsed time, simulation = what --stats prints;"
    echo "  threads: RAYON_NUM_THREADS (simulator), LP_NUM_THREADS (lavapipe);"
    echo "  speed-up: wall time at the first thread count over this one, per runner;"
    echo "  sim. speed-up: the same for the simulation time;"
    echo "  / lvp: over lavapipe's at the same thread count"
    echo "- $cache_note"
    [ -z "$lavapipe_note" ] || echo "- $lavapipe_note"
} | tee "$results"

status=0
first_threads=${threads%% *}
for name in $kernels; do
    declare -n args=args_$name
    {
        echo
        echo "## $name"
        echo
        echo "| runner | threads | CPU | wall | simulation | thread-instr/s (sim.) | speed-up | sim. speed-up | CPU / lvp | wall / lvp |"
        echo "|---|---|---|---|---|---|---|---|---|---|"
    } | tee -a "$results"
    declare -A lvp_cpu=() lvp_wall=() base=() base_sim=() native_cpu=() native_translate=()
    if [ "$lavapipe" = 1 ] && [ -e "$work/$name.json" ]; then
        for t in $threads; do
            cpus=() walls=()
            for r in $(seq 1 "$reps"); do
                rm -rf "$work/lvp"
                LP_NUM_THREADS=$t bench_measure "$work/t" "$bin" reference "$work/$name.json" \
                    --out "$work/lvp" >"$work/lvp.stdout"
                read -r w c <"$work/t"
                walls+=("$w") cpus+=("$c")
            done
            lvp_cpu[$t]=$(median "${cpus[@]}") lvp_wall[$t]=$(median "${walls[@]}")
        done
        device=$(sed -n 's/.*: ran on \(.*\), wrote.*/\1/p' "$work/lvp.stdout")
    fi
    for tier in interp native; do
        for t in $threads; do
            if [ "$tier" = native ] && [ "${CACHE:-warm}" = warm ]; then
                prefix=$work/$name.prime
                run_args=("${args[@]//@OUT@/$prefix}")
                RAYON_NUM_THREADS=$t "$bin" "${run_args[@]}" --tier native --check-ctrl=off \
                    >/dev/null 2>&1 || true
                rm -f "$prefix".*
            fi
            cpus=() walls=() sims=() translates=()
            for r in $(seq 1 "$reps"); do
                prefix=$work/$name.$tier.t$t.r$r
                run_args=("${args[@]//@OUT@/$prefix}")
                RAYON_NUM_THREADS=$t bench_measure "$work/t" "$bin" "${run_args[@]}" --tier "$tier" --check-ctrl=off \
                    >/dev/null 2>"$prefix.stderr"
                read -r w c <"$work/t"
                walls+=("$w") cpus+=("$c")
                warp= thread= ms=
                read -r warp thread ms < <(sed -n 's/^simulated \([0-9]*\) warp-instructions, \([0-9]*\) thread-instructions in \([0-9.]*\) ms.*/\1 \2 \3/p' "$prefix.stderr") || true
                if [ -z "$ms" ]; then
                    echo "no --stats line from $name ($tier, $t threads):" >&2
                    cat "$prefix.stderr" >&2
                    exit 1
                fi
                sims+=("$ms")
                # The translation (`--stats`: wall time, functions).
                tr=$(sed -n 's/^native tier: translated .* in \([0-9.]*\) ms\(.*\)$/\1 ms\2/p' "$prefix.stderr")
                [ -z "$tr" ] || translates+=("$tr")
                [ -e "$work/$name.native.share" ] || grep '^native tier:.*ran natively' "$prefix.stderr" >"$work/$name.native.share" || rm -f "$work/$name.native.share"
                # Every output must equal the first one (interpreter, first
                # thread count, run 1).
                for f in "$prefix".*; do
                    suffix=${f#"$prefix".}
                    [ "$suffix" = stderr ] && continue
                    if ! bench_keep_first "$f" "$work/$name.first.$suffix"; then
                        echo "$name: $suffix of --tier $tier at $t threads (run $r) differs from the first run" >&2
                        status=1
                    fi
                done
            done
            cpu=$(median "${cpus[@]}") wall=$(median "${walls[@]}") sim=$(median "${sims[@]}")
            [ "$tier" != native ] || native_cpu[$t]=$cpu
            if [ "$tier" = native ] && [ ${#translates[@]} -gt 0 ]; then
                native_translate[$t]="$(printf '%s\n' "${translates[@]}" | sort -g | sed -n "$(( (${#translates[@]} + 1) / 2 ))p")"
            fi
            [ -n "${base[$tier]:-}" ] || base[$tier]=$wall
            [ -n "${base_sim[$tier]:-}" ] || base_sim[$tier]=$sim
            if [ -n "${lvp_cpu[$t]:-}" ]; then
                ratios="$(calc "$cpu / ${lvp_cpu[$t]}" | xargs printf '%.2f') | $(calc "$wall / ${lvp_wall[$t]}" | xargs printf '%.2f')"
            else
                ratios=" | "
            fi
            printf '| spvsass %s | %s | %.3f s | %.3f s | %.1f ms | %.3e | %.2f | %.2f | %s |\n' \
                "$tier" "$t" "$cpu" "$wall" "$sim" "$(calc "$thread / ($sim / 1000)")" \
                "$(calc "${base[$tier]} / $wall")" "$(calc "${base_sim[$tier]} / $sim")" "$ratios" | tee -a "$results"
        done
    done
    for t in $threads; do
        [ -n "${lvp_cpu[$t]:-}" ] || continue
        printf '| %s | %s | %.3f s | %.3f s | | | %.2f | | 1.00 | 1.00 |\n' "$device" "$t" \
            "${lvp_cpu[$t]}" "${lvp_wall[$t]}" "$(calc "${lvp_wall[$first_threads]} / ${lvp_wall[$t]}")" |
            tee -a "$results"
    done
    {
        echo
        echo "$warp warp-instructions, $thread thread-instructions per run."
        for t in $threads; do
            [ -n "${lvp_cpu[$t]:-}" ] && [ -n "${native_cpu[$t]:-}" ] || continue
            printf 'CPU time, spvsass native against lavapipe, %s thread(s): %.3f s / %.3f s = %.2f\n' \
                "$t" "${native_cpu[$t]}" "${lvp_cpu[$t]}" "$(calc "${native_cpu[$t]} / ${lvp_cpu[$t]}")"
        done
        for t in $threads; do
            [ -n "${native_translate[$t]:-}" ] || continue
            printf 'Translation, native tier, %s thread(s): %s (median)\n' "$t" "${native_translate[$t]}"
        done
        [ -e "$work/$name.native.share" ] && cat "$work/$name.native.share"
        if [ -n "${lvp_cpu[$first_threads]:-}" ]; then
            if "$bin" compare "$work/$name.json" --against "$work/lvp" >"$work/compare.txt" 2>&1; then
                echo "The simulator against the driver: identical (spvsass compare)."
            else
                echo "The simulator against the driver: $(grep -m1 'differ' "$work/compare.txt" || echo differs) (spvsass compare; informative)."
            fi
        fi
        true
    } | tee -a "$results"
    unset -n args
    unset lvp_cpu lvp_wall base base_sim native_cpu native_translate
done
{
    echo
    echo "- load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee -a "$results"
rm -rf "$work"
exit $status
