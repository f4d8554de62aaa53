#!/usr/bin/env bash
# The native tier's CPU time against lavapipe's on issue 21's ALU kernel
# (BENCHMARKS.md, "Native tier"), with the two runs side by side in time:
# every round runs lavapipe and the native tier back to back (odd rounds
# lavapipe first, even rounds the native tier first) at each thread count,
# so that a machine whose speed drifts over minutes (a shared container)
# slows both alike. Prints per thread count the median CPU time of each,
# the ratio of the medians and the median of the per-round ratios.
# (scripts/bench-native.sh times all of a runner's runs in a row.)
#
#   scripts/bench-native-ratio.sh SPVSASS_BINARY OUTDIR
#
# Environment: BASELINE (another spvsass binary, e.g. main's before a
# change: timed in the same rounds, after the native tier, and compared with
# it; its own translation cache entries, as its sources differ), THREADS
# (default "1 2"), ROUNDS (default 9), ALU_GROUPS and
# ALU_ROUNDS (default 256 and 16384: 16384 invocations x 16384
# iterations), CACHE (the translation cache, warm or off: bench-lib.sh). The driver is VK_ICD_FILENAMES if set, else Mesa's
# lvp_icd.*.json. CPU = user + system time of the whole process (pipeline
# creation and the translation included). Whether the outputs agree
# (`spvsass compare` on the last round) is printed as information: GLSL's
# fma() need not be fused, so a driver may differ in the float bits (at
# the default size both reach the same words).
# Writes OUTDIR/results.md. Needs the binary, bash, awk and python3.
set -euo pipefail

. "$(dirname "$0")/bench-lib.sh"
bench_init "$0" "$@"
threads=${THREADS:-1 2}
rounds=${ROUNDS:-9}
groups=${ALU_GROUPS:-256}
alu_rounds=${ALU_ROUNDS:-16384}
if [ -z "${VK_ICD_FILENAMES:-}" ]; then
    icd=$(ls /usr/share/vulkan/icd.d/lvp_icd.*.json /usr/local/share/vulkan/icd.d/lvp_icd.*.json \
        /etc/vulkan/icd.d/lvp_icd.*.json 2>/dev/null | head -n1) || true
    [ -n "$icd" ] || { echo "lavapipe not found (no lvp_icd.*.json)" >&2; exit 1; }
    export VK_ICD_FILENAMES=$icd
fi

bench_alu_json "$work/alu.json" "$groups" "$alu_rounds" "bench-native-ratio.sh alu"
python3 -c "import struct, sys; open(sys.argv[1], 'wb').write(struct.pack('<I', int(sys.argv[2])))" \
    "$work/push" "$alu_rounds"
bench_translation_cache

# cpu CMD...: runs CMD (output discarded) and prints its user + system time.
cpu() {
    python3 - "$@" <<'PY'
import os, subprocess, sys
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
if os.waitstatus_to_exitcode(status) != 0:
    sys.exit(f"{sys.argv[1:]} failed")
print(f"{usage.ru_utime + usage.ru_stime:.6f}")
PY
}
lavapipe() {
    rm -rf "$work/lvp"
    LP_NUM_THREADS=$1 cpu "$bin" reference "$work/alu.json" --out "$work/lvp"
}
baseline=${BASELINE:-}
native() {
    RAYON_NUM_THREADS=$1 cpu "${2:-$bin}" run "$repo/benches/data/alu_heavy.comp.spv" --groups "$groups" \
        --buffer 0=$((groups * 256)) --out "0=$work/native.bin" --push "$work/push" \
        --tier native --check-ctrl=off
}

# Untimed first runs of both at each count (they fill the caches when
# warm; the translation's pieces depend on the thread count).
for t in $threads; do
    lavapipe "$t" >/dev/null
    native "$t" >/dev/null
    [ -z "$baseline" ] || native "$t" "$baseline" >/dev/null
done
for r in $(seq 1 "$rounds"); do
    for t in $threads; do
        if [ $((r % 2)) = 1 ]; then
            l=$(lavapipe "$t") n=$(native "$t")
        else
            n=$(native "$t") l=$(lavapipe "$t")
        fi
        b=$n
        [ -z "$baseline" ] || b=$(native "$t" "$baseline")
        echo "$t $r $l $n $b" >>"$work/samples"
    done
done
# The median of a space-separated list, for the tables' awk programs.
awk_median='function median(list,    a, n, i, j, t) {
    n = split(list, a, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}'
# ratio_table COLUMN: per thread count, the median CPU time of the
# reference in COLUMN of the samples (3: lavapipe, 5: the baseline) and of
# the native tier (4), the ratio of the medians, the median of the
# per-round ratios and the per-round ratios (native over reference).
ratio_table() {
    awk -v ref="$1" "$awk_median"'
        { t = $1; r[t] = r[t] " " $ref; n[t] = n[t] " " $4; q[t] = q[t] " " sprintf("%.2f", $4 / $ref)
          if (!(t in seen)) { seen[t] = 1; order[++k] = t } }
        END {
            for (i = 1; i <= k; i++) {
                t = order[i]
                printf "| %s | %.3f s | %.3f s | %.2f | %.2f |%s |\n", t, median(r[t]), median(n[t]),
                    median(n[t]) / median(r[t]), median(q[t]), q[t]
            }
        }' "$work/samples"
}
same="identical"
"$bin" compare "$work/alu.json" --against "$work/lvp" --tier native >"$work/compare.txt" 2>&1 ||
    same="not identical ($work/compare.txt)"

{
    echo "# Native tier against lavapipe, interleaved, $(date -u +'%Y-%m-%d %H:%M UTC')"
    echo
    echo "- binary: $bin ($("$bin" --version)); driver: VK_ICD_FILENAMES=$VK_ICD_FILENAMES"
    echo "- machine: $(uname -srm), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); load average now: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "- ALU kernel, $groups workgroups of 64, $alu_rounds iterations; $rounds rounds; outputs: $same (spvsass compare); $cache_note; Mesa's shader cache: $([ -n "${MESA_SHADER_CACHE_DISABLE:-}" ] && echo "MESA_SHADER_CACHE_DISABLE=$MESA_SHADER_CACHE_DISABLE" || echo "on (its default)")"
    echo
    echo "| threads | lavapipe CPU (median) | native CPU (median) | ratio of medians | median of per-round ratios | per-round ratios |"
    echo "|---|---|---|---|---|---|"
    ratio_table 3
    if [ -n "$baseline" ]; then
        echo
        echo "Baseline: $baseline ($("$baseline" --version)), in the same rounds."
        echo
        echo "| threads | baseline CPU (median) | native CPU (median) | ratio of medians | median of per-round ratios | per-round ratios |"
        echo "|---|---|---|---|---|---|"
        ratio_table 5
    fi
} | tee "$out/results.md"
