#!/usr/bin/env bash
# Whether a compute dispatch on N threads fills the machine (issue 21,
# item 3; BENCHMARKS.md, "Does a 16-thread dispatch fill the host?"), on a
# host whose CPUs need not be equally fast (a virtual machine whose
# virtual CPUs share physical cores with others): each round runs the ALU
# kernel
#   - on one thread alone, on three of the CPUs in turn,
#   - on N threads over all N CPUs, three times,
#   - and as N one-thread processes at once, one pinned to each CPU,
# and compares the N-thread dispatch's simulation time with the time one
# dispatch takes at the N processes' summed rate (1 / sum(1 / t_i)): at
# 100% the threads do as much work per second as the N CPUs do running
# one-thread dispatches side by side. It also prints the N-thread
# dispatch's speed-up over the median and over the fastest of the N
# processes, which shows how far a one-thread baseline depends on the CPU
# it lands on.
#
#   scripts/bench-native-fill.sh SPVSASS_BINARY OUTDIR
#
# Environment:
#   CPUS     the CPUs, a taskset list (default 0-<nproc - 1>); N is their
#            number
#   ROUNDS   rounds (default 5)
#   ALU_GROUPS, ALU_ROUNDS  the kernel's size (default issue 21's: 256
#            workgroups of 64 invocations, 16384 rounds)
#   CACHE    the translation cache: warm (default) or off (bench-lib.sh)
#
# Times are the simulation times `--stats` prints (the process's start,
# compile and output are left out: the question is the workers').
# Writes OUTDIR/results.md. Needs the binary, bash, coreutils, taskset and
# python3.
set -euo pipefail

. "$(dirname "$0")/bench-lib.sh"
bench_init "$0" "$@"
cpus=${CPUS:-0-$(($(nproc) - 1))}
rounds=${ROUNDS:-5}
groups=${ALU_GROUPS:-256}
alu_rounds=${ALU_ROUNDS:-16384}
mapfile -t cpu_list < <(python3 -c '
import sys
for part in sys.argv[1].split(","):
    a, _, b = part.partition("-")
    for c in range(int(a), int(b or a) + 1):
        print(c)' "$cpus")
n=${#cpu_list[@]}
python3 -c "import struct, sys; open(sys.argv[1], 'wb').write(struct.pack('<I', int(sys.argv[2])))" \
    "$work/push" "$alu_rounds"
bench_translation_cache

# sim THREADS CPULIST: one run; prints its simulation time in ms.
sim() {
    RAYON_NUM_THREADS=$1 taskset -c "$2" "$bin" run "$repo/benches/data/alu_heavy.comp.spv" \
        --groups "$groups" --buffer 0=$((groups * 256)) --push "$work/push" --tier native \
        --check-ctrl=off --stats 2>&1 >/dev/null |
        sed -n 's/^simulated .* in \([0-9.]*\) ms.*/\1/p'
}

# Untimed first runs (they fill a warm translation cache).
sim 1 "${cpu_list[0]}" >/dev/null
sim "$n" "$cpus" >/dev/null
: >"$work/samples"
for r in $(seq 1 "$rounds"); do
    alone=()
    for c in "${cpu_list[0]}" "${cpu_list[$((n / 2))]}" "${cpu_list[$((n - 1))]}"; do
        alone+=("$(sim 1 "$c")")
    done
    together=()
    for _ in 1 2 3; do
        together+=("$(sim "$n" "$cpus")")
    done
    for c in "${cpu_list[@]}"; do
        sim 1 "$c" >"$work/p$c" &
    done
    wait
    echo "$r alone ${alone[*]} threads ${together[*]} processes $(cat "${cpu_list[@]/#/$work/p}" | tr '\n' ' ')" >>"$work/samples"
done

{
    echo "# Does a dispatch on $n threads fill the machine? $(date -u +'%Y-%m-%d %H:%M UTC')"
    echo
    echo "- binary: $bin ($("$bin" --version))"
    echo "- machine: $(uname -srm), $(nproc) CPUs online, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
    echo "- CPUs: $cpus; ALU kernel, $groups workgroups of 64, $alu_rounds rounds, --tier native; $cache_note"
    echo
    python3 - "$work/samples" "$n" <<'PY'
import statistics, sys
n = int(sys.argv[2])
print(f"| round | one thread alone (3 CPUs) | {n} processes at once: median (range) | one dispatch at their summed rate | {n} threads (median of 3) | filled | speed-up over the median process | over the fastest |")
print("|---|---|---|---|---|---|---|---|")
for line in open(sys.argv[1]):
    w = line.split()
    r = w[0]
    i = w.index("threads"); j = w.index("processes")
    alone = [float(x) for x in w[2:i]]
    threads = [float(x) for x in w[i + 1:j]]
    procs = [float(x) for x in w[j + 1:]]
    if not (alone and threads and len(procs) == n):
        print(f"| {r} | a run printed no --stats line | | | | | | |")
        continue
    summed = 1 / sum(1 / t for t in procs)
    t = statistics.median(threads)
    med = statistics.median(procs)
    print(f"| {r} | {' / '.join(f'{a:.0f}' for a in alone)} ms | {med:.0f} ({min(procs):.0f}–{max(procs):.0f}) ms "
          f"| {summed:.1f} ms | {t:.1f} ms | {100 * summed / t:.0f}% | {med / t:.1f}× | {min(procs) / t:.1f}× |")
PY
    echo
    echo "Per round (round, alone ms..., threads ms..., processes ms...):"
    echo
    sed 's/^/    /' "$work/samples"
} | tee "$out/results.md"
