#!/usr/bin/env bash
# The simulator's native tier against its interpreter and against Mesa's
# lavapipe on the ALU kernel (benches/data/alu_heavy.comp; BENCHMARKS.md,
# "Native tier"): runs the same dispatch with `spvsass run --tier interp`,
# `--tier native` and `spvsass reference` (lavapipe, or whatever Vulkan
# driver VK_ICD_FILENAMES picks), several times each, and prints the median
# CPU time of each, the simulated thread-instructions per second of the
# simulator and the ratios. It checks that both tiers wrote the same bytes
# and reports whether the simulator agrees with the driver (`spvsass
# compare`; informative: GLSL's fma() need not be fused).
#
#   scripts/bench-native.sh SPVSASS_BINARY OUTDIR
#
# Environment: ALU_ITERATIONS (default 256), ALU_GROUPS (default 4096
# workgroups of 64 invocations), REPS (default 3), THREADS (default 1: the
# simulator's rayon threads and lavapipe's LP_NUM_THREADS).
# Writes OUTDIR/results.md; exits 1 when the two tiers' outputs differ.
set -euo pipefail

if [ $# -ne 2 ]; then
    echo "usage: $0 SPVSASS_BINARY OUTDIR" >&2
    exit 2
fi
bin=$(realpath "$1")
out=$2
iterations=${ALU_ITERATIONS:-256}
groups=${ALU_GROUPS:-4096}
reps=${REPS:-3}
threads=${THREADS:-1}
repo=$(cd "$(dirname "$0")"/.. && pwd)
mkdir -p "$out"
out=$(realpath "$out")
work=$out/work
mkdir -p "$work"
kernel=$repo/benches/data/alu_heavy.comp.spv
bytes=$((groups * 64 * 4))

printf "\\x$(printf %02x $((iterations & 255)))\\x$(printf %02x $((iterations >> 8 & 255)))\\x00\\x00" \
    >"$work/push.bin"
# The same dispatch as a run description for the Vulkan driver.
cat >"$work/alu.json" <<EOF
{
  "comment": "scripts/bench-native.sh: the ALU kernel",
  "stages": { "compute": { "spirv": "$kernel" } },
  "groups": [$groups, 1, 1],
  "buffers": [ { "binding": 0, "kind": "storage", "contents": [ { "zero": $bytes } ],
                 "read_back": true } ],
  "push_constants": [ { "u32": [$iterations] } ]
}
EOF

calc() { awk "BEGIN { printf \"%.9g\", $1 }"; }
median() { printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"; }

# cpu_of FILE: user + system seconds from /usr/bin/time -f '%U %S'.
cpu_of() { awk 'END { printf "%.3f", $1 + $2 }' "$1"; }

results=$out/results.md
{
    echo "# Native tier, $(date -u +'%Y-%m-%d %H:%M UTC')"
    echo
    echo "- binary: $bin ($("$bin" --version))"
    echo "- machine: $(uname -srm), $(nproc) CPUs online, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
    echo "- load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "- kernel: benches/data/alu_heavy.comp, $groups workgroups of 64, $iterations iterations"
    echo "- method: $reps runs each, medians; CPU = user + system time of the whole"
    echo "  process (compile or pipeline creation included); 'simulation' is the"
    echo "  time --stats prints; $threads thread(s) (RAYON_NUM_THREADS, LP_NUM_THREADS)"
} | tee "$results"

status=0
declare -A cpu sim rate
for tier in interp native; do
    cpus=() sims=()
    for r in $(seq 1 "$reps"); do
        prefix=$work/$tier.r$r
        RAYON_NUM_THREADS=$threads /usr/bin/time -f '%U %S' -o "$prefix.time" \
            "$bin" run "$kernel" --groups "$groups" --buffer "0=$bytes" \
            --out "0=$prefix.bin" --push "$work/push.bin" --stats --tier "$tier" \
            >/dev/null 2>"$prefix.stderr"
        cpus+=("$(cpu_of "$prefix.time")")
        read -r thread ms < <(sed -n 's/^simulated [0-9]* warp-instructions, \([0-9]*\) thread-instructions in \([0-9.]*\) ms.*/\1 \2/p' "$prefix.stderr")
        sims+=("$ms")
        if ! cmp -s "$prefix.bin" "$work/interp.r1.bin"; then
            echo "$tier run $r wrote other bytes than the interpreter" >&2
            status=1
        fi
    done
    grep '^native tier' "$work/$tier.r1.stderr" | tee -a "$results" || true
    cpu[$tier]=$(median "${cpus[@]}")
    sim[$tier]=$(median "${sims[@]}")
    rate[$tier]=$(calc "$thread / (${sim[$tier]} / 1000)")
done

lcpus=()
for r in $(seq 1 "$reps"); do
    rm -rf "$work/lvp"
    LP_NUM_THREADS=$threads /usr/bin/time -f '%U %S' -o "$work/lvp.r$r.time" \
        "$bin" reference "$work/alu.json" --out "$work/lvp" >"$work/lvp.stdout"
    lcpus+=("$(cpu_of "$work/lvp.r$r.time")")
done
lvp=$(median "${lcpus[@]}")
device=$(sed -n 's/.*: ran on \(.*\), wrote.*/\1/p' "$work/lvp.stdout")
# The simulator against the driver, informative only: GLSL's fma() need
# not be fused, and the driver's float results may differ in low bits.
if "$bin" compare "$work/alu.json" --against "$work/lvp" >"$work/compare.txt" 2>&1; then
    agree=identical
else
    agree="differs ($(sed -n 's/^buffer 0 ([^)]*): \([0-9]* of [0-9]* words differ\).*/\1/p' "$work/compare.txt"))"
fi

{
    echo
    echo "| run | CPU (median) | simulation (median) | thread-instr/s | CPU / lavapipe |"
    echo "|---|---|---|---|---|"
    for tier in interp native; do
        printf '| spvsass --tier %s | %.3f s | %.1f ms | %.3e | %.2f |\n' "$tier" "${cpu[$tier]}" \
            "${sim[$tier]}" "${rate[$tier]}" "$(calc "${cpu[$tier]} / $lvp")"
    done
    printf '| %s | %.3f s | | | 1.00 |\n' "$device" "$lvp"
    echo
    echo "$thread thread-instructions per run. Native over interpreter: CPU $(calc "${cpu[interp]} / ${cpu[native]}")x,"
    echo "simulation $(calc "${sim[interp]} / ${sim[native]}")x. Outputs: tiers identical (cmp),"
    echo "simulator against the driver: $agree (spvsass compare)."
    echo
    echo "- load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee -a "$results"
rm -rf "$work"
exit $status
