#!/usr/bin/env bash
# How the native tier scales with cores on one kernel (issue 21, item 3;
# BENCHMARKS.md, "Native tier"), measured so that a machine whose speed
# drifts between runs (a shared or virtual host) cannot fake or hide a
# speed-up: the thread counts are interleaved within every round (odd
# rounds run 1 thread then 16, even rounds 16 then 1), each round
# gives one speed-up per thread count against the same round's first
# count, and the script prints the median and the best of those per-round
# speed-ups next to the median times, and (the cautious figure, for a
# host whose single core sometimes runs far faster than when all are
# busy) the median time over the fastest run of the base count.
# Optionally every run is confined to
# a list of CPUs (taskset), e.g. sixteen cores of one socket of a larger
# machine. With BASE_LOAD=1 a run at fewer threads than the largest count
# keeps the CPUs it does not use busy (a shell loop on each), so that it
# runs at the clock the cores have when all are busy, as the largest
# count's run does: a host whose single busy core boosts far above its
# all-core clock then measures how well the threads fill the cores, not
# the boost.
#
#   scripts/bench-native-scaling.sh SPVSASS_BINARY OUTDIR
#
# Environment:
#   THREADS  thread counts, the first the base (default "1 16")
#   ROUNDS   rounds (default 7)
#   CPUS     a taskset CPU list for every run (default: none)
#   BASE_LOAD  1: a run at T threads, fewer than the largest count, is
#            pinned to the first T CPUs of CPUS (which it then needs) and
#            the others are kept busy while it runs (default 0)
#   TIER     native or interp (default native)
#   ALU_GROUPS, ALU_ROUNDS  the ALU kernel's size (default issue 21's:
#            256 workgroups of 64 invocations, 16384 rounds)
#   CACHE    the native tier's translation cache: warm (default; filled
#            by an untimed run first) or off (bench-lib.sh)
#
# Every run's output buffer must be the same bytes (the script exits 1
# otherwise). Columns: wall = elapsed time of the whole process; CPU =
# user + system; simulation and translation = what `--stats` prints
# (the translation is inside the simulation: the first warp waits for it);
# "simulation proper" = the median of simulation less translation, whose
# speed-up is what the worker threads themselves give.
# Writes OUTDIR/results.md. Needs the binary, bash, coreutils, awk, python3
# and taskset if CPUS is set.
set -euo pipefail

. "$(dirname "$0")/bench-lib.sh"
bench_init "$0" "$@"
threads=${THREADS:-1 16}
rounds=${ROUNDS:-7}
cpus=${CPUS:-}
tier=${TIER:-native}
groups=${ALU_GROUPS:-256}
alu_rounds=${ALU_ROUNDS:-16384}

python3 -c "import struct, sys; open(sys.argv[1], 'wb').write(struct.pack('<I', int(sys.argv[2])))" \
    "$work/push" "$alu_rounds"
pin=()
[ -z "$cpus" ] || pin=(taskset -c "$cpus")
base_load=${BASE_LOAD:-0}
if [ "$base_load" = 1 ] && [ -z "$cpus" ]; then
    echo "BASE_LOAD=1 needs CPUS" >&2
    exit 2
fi
# The CPUs of CPUS, one per line (e.g. 0-3,8 gives 0 1 2 3 8).
cpu_list=()
if [ -n "$cpus" ]; then
    mapfile -t cpu_list < <(python3 -c '
import sys
for part in sys.argv[1].split(","):
    a, _, b = part.partition("-")
    for c in range(int(a), int(b or a) + 1):
        print(c)' "$cpus")
fi
most=$(echo "$threads" | tr ' ' '\n' | sort -n | tail -1)
loaders=()
# unload: stops the busy loops of load.
unload() {
    [ ${#loaders[@]} = 0 ] || kill "${loaders[@]}" 2>/dev/null || true
    [ ${#loaders[@]} = 0 ] || wait "${loaders[@]}" 2>/dev/null || true
    loaders=()
}
trap unload EXIT
# load T: with BASE_LOAD=1 and T below the largest count, pins the runs to
# the first T CPUs and starts a busy loop on each of the others; else the
# runs use CPUS.
load() {
    local t=$1 c
    pin=()
    [ -z "$cpus" ] || pin=(taskset -c "$cpus")
    if [ "$base_load" = 1 ] && [ "$t" -lt "$most" ]; then
        pin=(taskset -c "$(IFS=,; echo "${cpu_list[*]:0:$t}")")
        for c in "${cpu_list[@]:$t}"; do
            taskset -c "$c" sh -c 'while :; do :; done' &
            loaders+=($!)
        done
        # Time for the clocks to settle under the load.
        [ ${#loaders[@]} = 0 ] || sleep 0.2
    fi
}
bench_translation_cache

# run T R: one run at T threads; appends "T R WALL CPU SIM TRANSLATE" to
# the samples.
run() {
    local t=$1 r=$2 prefix=$work/t$1.r$2
    RAYON_NUM_THREADS=$t bench_measure "$prefix.time" "${pin[@]}" "$bin" run \
        "$repo/benches/data/alu_heavy.comp.spv" --groups "$groups" --buffer 0=$((groups * 256)) \
        --out "0=$prefix.bin" --push "$work/push" --stats --tier "$tier" --check-ctrl=off \
        >/dev/null 2>"$prefix.stderr"
    local sim tr
    sim=$(bench_sim_ms "$prefix.stderr" "$t threads, round $r")
    tr=$(sed -n 's/^native tier: translated .* in \([0-9.]*\) ms.*/\1/p' "$prefix.stderr")
    echo "$t $r $(cat "$prefix.time") $sim ${tr:-0}" >>"$work/samples"
    if ! bench_keep_first "$prefix.bin" "$work/first.bin"; then
        echo "output at $t threads, round $r differs from the first run" >&2
        exit 1
    fi
}

# An untimed first run at each count (it fills a warm translation cache:
# the translation is cut into pieces by the thread count, so each count
# has functions of its own).
for t in $threads; do
    RAYON_NUM_THREADS=$t "$bin" run "$repo/benches/data/alu_heavy.comp.spv" --groups "$groups" \
        --buffer 0=$((groups * 256)) --push "$work/push" --tier "$tier" --check-ctrl=off >/dev/null
done
for r in $(seq 1 "$rounds"); do
    # Alternate the order, so that neither count always runs first.
    order=$threads
    [ $((r % 2)) = 1 ] || order=$(echo "$threads" | tr ' ' '\n' | tac | tr '\n' ' ')
    for t in $order; do
        load "$t"
        run "$t" "$r"
        unload
    done
done

{
    echo "# Native-tier scaling, $(date -u +'%Y-%m-%d %H:%M UTC')"
    echo
    echo "- binary: $bin ($("$bin" --version))"
    echo "- machine: $(uname -srm), $(nproc) CPUs online, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
    echo "- CPUs used: ${cpus:-any}; load average before the report: $(cut -d' ' -f1-3 /proc/loadavg)"
    [ "$base_load" != 1 ] || echo "- BASE_LOAD=1: runs at fewer than $most threads were pinned to their first CPUs of $cpus, the others kept busy by a shell loop each"
    echo "- ALU kernel, $groups workgroups of 64, $alu_rounds rounds, --tier $tier, $rounds interleaved rounds; $cache_note"
    echo
    echo "| threads | wall (median) | CPU | simulation | translation | speed-up, wall (median / best round) | speed-up, simulation (median / best round) | speed-up, wall, over the fastest base run | speed-up, simulation proper (medians) |"
    echo "|---|---|---|---|---|---|---|---|---|"
    awk -v base="${threads%% *}" '
        function median(list, n,    a, i, j, t) {
            n = split(list, a, " ")
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
            return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        }
        function best(list,    a, n, i, m) {
            n = split(list, a, " "); m = a[1]
            for (i = 2; i <= n; i++) if (a[i] > m) m = a[i]
            return m
        }
        function least(list,    a, n, i, m) {
            n = split(list, a, " "); m = a[1]
            for (i = 2; i <= n; i++) if (a[i] < m) m = a[i]
            return m
        }
        { t = $1; r = $2; wall[t, r] = $3; cpu[t] = cpu[t] " " $4; sim[t, r] = $5; tr[t] = tr[t] " " $6
          proper[t] = proper[t] " " ($5 - $6)
          walls[t] = walls[t] " " $3; sims[t] = sims[t] " " $5; seen[t] = 1; rounds[r] = 1
          if (!(t in order)) { order[t] = ++n; name[n] = t } }
        END {
            for (k = 1; k <= n; k++) {
                t = name[k]; ws = ""; ss = ""
                for (r in rounds) { ws = ws " " wall[base, r] / wall[t, r]; ss = ss " " sim[base, r] / sim[t, r] }
                printf "| %s | %.4f s | %.3f s | %.1f ms | %.1f ms | %.2f / %.2f | %.2f / %.2f | %.2f | %.2f |\n",
                    t, median(walls[t]), median(cpu[t]), median(sims[t]), median(tr[t]),
                    median(ws), best(ws), median(ss), best(ss), least(walls[base]) / median(walls[t]),
                    median(proper[base]) / median(proper[t])
            }
        }' "$work/samples"
    echo
    echo "Per run (threads, round, wall s, CPU s, simulation ms, translation ms):"
    echo
    sed 's/^/    /' "$work/samples"
} | tee "$out/results.md"
