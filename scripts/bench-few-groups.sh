#!/usr/bin/env bash
# A dispatch of a few large workgroups whose warps meet at barriers and
# share memory (issue 21, item 3: "warps of a workgroup between
# barriers"; BENCHMARKS.md, "Warps side by side between barriers"), in
# WORKGROUPS workgroups of 256 invocations (8 warps), at each of THREADS,
# and the same for a BASELINE binary in the same rounds (thread counts and
# binaries interleaved, their order alternated by round). KERNEL is
#   reduce       the shared-memory reduction of bench-native.sh
#                (benches/data/shared_reduce.comp), PER words per
#                invocation: memory-bound, one long round then eight short;
#   alu_barrier  benches/data/alu_barrier.comp: PHASES phases of ITERATIONS
#                rounds of the ALU kernel's work, two barriers and a
#                shared-memory exchange after each: ALU-bound rounds.
# Every run's output must be the same bytes (the script exits 1
# otherwise).
#
#   scripts/bench-few-groups.sh SPVSASS_BINARY OUTDIR
#
# Environment:
#   BASELINE  another spvsass binary to time in the same rounds (optional)
#   WORKGROUPS  workgroups (default 4)
#   KERNEL    reduce (default) or alu_barrier
#   PER       reduce: words per invocation (default 4096: 16 MiB in 4
#             workgroups)
#   ITERATIONS, PHASES  alu_barrier: rounds per phase (default 8192) and
#             phases (default 8; a workgroup then issues about 7.3 million
#             warp-instructions, under the default step budget of 10
#             million)
#   TIER      native (default) or interp
#   THREADS   thread counts, the first the base of the speed-ups (default
#             "1 16")
#   ROUNDS    rounds (default 5)
#   CACHE     the translation cache: warm (default) or off (bench-lib.sh)
#
# Columns: simulation = what `--stats` prints (the workers' time, the
# translation inside it); wall = the whole process. Writes
# OUTDIR/results.md. Needs bash, coreutils and python3.
set -euo pipefail

. "$(dirname "$0")/bench-lib.sh"
bench_init "$0" "$@"
groups=${WORKGROUPS:-4}
kernel=${KERNEL:-reduce}
per=${PER:-4096}
iterations=${ITERATIONS:-8192}
phases=${PHASES:-8}
tier=${TIER:-native}
threads=${THREADS:-1 16}
rounds=${ROUNDS:-5}
bins=("$bin")
names=(new)
if [ -n "${BASELINE:-}" ]; then
    bins+=("$(realpath "$BASELINE")")
    names+=(baseline)
fi
bench_translation_cache
case $kernel in
reduce)
    python3 - "$work/reduce.in" $((groups * 256 * per * 4)) "$work/push" "$per" <<'PY'
import struct, sys
n = int(sys.argv[2]) // 4
open(sys.argv[1], "wb").write(struct.pack(f"<{n}I", *((i * 2654435761) & 0xFFFFFFFF for i in range(n))))
open(sys.argv[3], "wb").write(struct.pack("<I", int(sys.argv[4])))
PY
    args=("$repo/benches/data/shared_reduce.comp.spv" --buffer "0=$work/reduce.in"
        --buffer 1=$((groups * 4)))
    output=1
    what="shared_reduce.comp: $groups workgroups of 256, $per words per invocation"
    ;;
alu_barrier)
    python3 -c 'import struct, sys; open(sys.argv[1], "wb").write(struct.pack("<II", int(sys.argv[2]), int(sys.argv[3])))' \
        "$work/push" "$iterations" "$phases"
    args=("$repo/benches/data/alu_barrier.comp.spv" --buffer 0=$((groups * 1024)))
    output=0
    what="alu_barrier.comp: $groups workgroups of 256, $phases phases of $iterations rounds"
    ;;
*)
    echo "KERNEL must be reduce or alu_barrier, not $kernel" >&2
    exit 2
    ;;
esac
args+=(--groups "$groups" --push "$work/push" --check-ctrl=off --tier "$tier")

# run B T R: binary number B at T threads, round R; appends "B T R WALL SIM"
# to the samples.
run() {
    local b=$1 t=$2 r=$3 prefix=$work/b$1.t$2.r$3
    RAYON_NUM_THREADS=$t bench_measure "$prefix.time" "${bins[$b]}" run "${args[@]}" \
        --out "$output=$prefix.bin" --stats >/dev/null 2>"$prefix.stderr"
    local sim
    sim=$(bench_sim_ms "$prefix.stderr" "${names[$b]} at $t threads, round $r")
    echo "${names[$b]} $t $r $(cut -d' ' -f1 "$prefix.time") $sim" >>"$work/samples"
    if ! bench_keep_first "$prefix.bin" "$work/first.bin"; then
        echo "output of ${names[$b]} at $t threads, round $r differs from the first run" >&2
        exit 1
    fi
}

# Untimed first runs fill the translation cache for each binary and count.
for b in "${!bins[@]}"; do
    for t in $threads; do
        RAYON_NUM_THREADS=$t "${bins[$b]}" run "${args[@]}" >/dev/null
    done
done
for r in $(seq 1 "$rounds"); do
    order=$threads
    [ $((r % 2)) = 1 ] || order=$(echo "$threads" | tr ' ' '\n' | tac | tr '\n' ' ')
    for t in $order; do
        bs=("${!bins[@]}")
        [ $((r % 2)) = 1 ] || bs=($(printf '%s\n' "${bs[@]}" | tac))
        for b in "${bs[@]}"; do
            run "$b" "$t" "$r"
        done
    done
done

{
    echo "# A few large workgroups with barriers, $(date -u +'%Y-%m-%d %H:%M UTC')"
    echo
    for b in "${!bins[@]}"; do
        echo "- ${names[$b]}: ${bins[$b]} ($("${bins[$b]}" --version))"
    done
    echo "- machine: $(uname -srm), $(nproc) CPUs online, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
    echo "- $what, --tier $tier, $rounds rounds; $cache_note"
    echo
    echo "| binary | threads | simulation (median) | wall (median) | speed-up, simulation (median of rounds) |"
    echo "|---|---|---|---|---|"
    python3 - "$work/samples" "${threads%% *}" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
base = sys.argv[2]
sim = {(b, t, r): float(s) for b, t, r, _, s in rows}
wall = {(b, t, r): float(w) for b, t, r, w, _ in rows}
seen = []
for b, t, _, _, _ in rows:
    if (b, t) not in seen:
        seen.append((b, t))
for b, t in sorted(seen, key=lambda k: (k[0] != "new", int(k[1]))):
    rs = [r for (bb, tt, r) in sim if (bb, tt) == (b, t)]
    ups = [sim[b, base, r] / sim[b, t, r] for r in rs if (b, base, r) in sim]
    print(f"| {b} | {t} | {statistics.median(sim[b, t, r] for r in rs):.1f} ms"
          f" | {statistics.median(wall[b, t, r] for r in rs):.4f} s | {statistics.median(ups):.2f} |")
PY
    echo
    echo "Per run (binary, threads, round, wall s, simulation ms):"
    echo
    sed 's/^/    /' "$work/samples"
} | tee "$out/results.md"
