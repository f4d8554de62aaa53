#!/usr/bin/env bash
# Simulator scaling with cores (BENCHMARKS.md, "Simulator"): runs three
# workloads with a prebuilt release binary at several rayon thread counts,
# each several times, and prints the median simulation time, the simulated
# thread-instructions per second and the speed-up over one thread. It also
# checks that every thread count produced the same bytes (buffers, image,
# the printed JSON). Needs only the binary, bash, coreutils, awk and the files of
# this repository: no cargo, no network.
#
#   scripts/bench-sim-scaling.sh SPVSASS_BINARY OUTDIR
#
# Environment: THREADS (default "1 2 4 8 16"), REPS (default 3).
# Writes OUTDIR/results.md (the tables and the machine) and the outputs of
# the one-thread run of each workload; a differing output is kept as
# NAME.tN.* next to it and the script exits 1.
#
# Workloads:
#   meshlet  the task+mesh draw of benches/draw.rs (benches/data/meshlet.*):
#            128 task workgroups test 4096 meshlets, the survivors expand
#            into mesh workgroups; rasterized to 256x256 (--raw), outputs
#            printed (--json, compared by SHA-256).
#   reduce   tests/shaders/c_reduce256.comp: 4096 workgroups of 256
#            invocations, a shared-memory tree reduction with barriers.
#   alu      benches/data/alu_heavy.comp: 4096 workgroups of 64
#            invocations, ALU_ITERATIONS (default 256) rounds of integer and
#            float arithmetic each.
set -euo pipefail

. "$(dirname "$0")/bench-lib.sh"
bench_init "$0" "$@"
threads=${THREADS:-1 2 4 8 16}
reps=${REPS:-3}
alu_iterations=${ALU_ITERATIONS:-256}

# Inputs. The reduction's 4 MiB are a repeated text, so the same bytes on
# every machine.
reduce_groups=4096
head -c $((reduce_groups * 1024)) < <(yes 0123456789abcdef) >"$work/reduce_in.bin"
printf "\\x$(printf %02x $((alu_iterations & 255)))\\x$(printf %02x $((alu_iterations >> 8 & 255)))\\x00\\x00" \
    >"$work/alu_push.bin"

# The arguments of each workload; @OUT@ becomes the run's output prefix.
args_meshlet=(run "$repo/benches/data/meshlet.mesh.spv" --task "$repo/benches/data/meshlet.task.spv"
    --groups 128 --size 256x256 --raw @OUT@.rgba32f --json --stats)
args_reduce=(run "$repo/tests/shaders/c_reduce256.comp.spv" --groups $reduce_groups
    --buffer "0=$work/reduce_in.bin" --buffer 1=$((reduce_groups * 4)) --out 1=@OUT@.sums.bin
    --json --stats)
args_alu=(run "$repo/benches/data/alu_heavy.comp.spv" --groups 4096
    --buffer 0=$((4096 * 64 * 4)) --out 0=@OUT@.result.bin --push "$work/alu_push.bin"
    --json --stats)

# Seconds since the epoch with nanoseconds.
now() { date +%s.%N; }

# calc EXPR: floating-point arithmetic (awk: bc is not always installed).
calc() { awk "BEGIN { printf \"%.9g\", $1 }"; }

# median V1 V2 ...: the middle value (the lower middle for an even count).
median() { printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"; }

status=0
results=$out/results.md
{
    echo "# Simulator scaling, $(date -u +'%Y-%m-%d %H:%M UTC')"
    echo
    echo "- binary: $bin ($("$bin" --version))"
    echo "- machine: $(uname -srm), $(nproc) CPUs online, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
    echo "- load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "- method: RAYON_NUM_THREADS=N, $reps runs per thread count, medians;"
    echo "  'simulation' is the time --stats prints (the simulation alone: no"
    echo "  compile, file I/O, rasterization or printing), 'process' the whole"
    echo "  command; the rate is the thread-instructions over the median"
    echo "  simulation time; speed-up is the one-thread median over this one."
} | tee "$results"

for name in meshlet reduce alu; do
    declare -n args=args_$name
    {
        echo
        echo "## $name"
        echo
        echo "| threads | simulation (median) | process (median) | thread-instr/s | warp-instr/s | speed-up | output |"
        echo "|---|---|---|---|---|---|---|"
    } | tee -a "$results"
    base_sim=
    for t in $threads; do
        sims=() procs=()
        for r in $(seq 1 "$reps"); do
            prefix=$work/$name.t$t.r$r
            run_args=("${args[@]//@OUT@/$prefix}")
            start=$(now)
            # The printed outputs (tens of MB of JSON) are kept as a hash.
            RAYON_NUM_THREADS=$t "$bin" "${run_args[@]}" --check-ctrl=off 2>"$prefix.stderr" |
                sha256sum >"$prefix.json.sha256"
            end=$(now)
            procs+=("$(calc "$end - $start")")
            # "simulated W warp-instructions, T thread-instructions in X ms: ..."
            warp= thread= ms=
            read -r warp thread ms < <(sed -n 's/^simulated \([0-9]*\) warp-instructions, \([0-9]*\) thread-instructions in \([0-9.]*\) ms.*/\1 \2 \3/p' "$prefix.stderr") || true
            if [ -z "$ms" ]; then
                echo "no --stats line from $name at $t threads:" >&2
                cat "$prefix.stderr" >&2
                exit 1
            fi
            sims+=("$ms")
            # Every output must equal the first run's (one thread, run 1).
            same=yes
            for f in "$prefix".*; do
                suffix=${f#"$prefix".}
                [ "$suffix" = stderr ] && continue
                ref=$out/$name.$suffix
                if [ ! -e "$ref" ]; then
                    mv "$f" "$ref"
                elif cmp -s "$f" "$ref"; then
                    rm "$f"
                else
                    same=no
                    mv "$f" "$out/$name.t$t.r$r.$suffix"
                    echo "$name: $suffix at $t threads (run $r) differs from the first run" >&2
                    status=1
                fi
            done
            rm -f "$prefix.stderr"
        done
        sim=$(median "${sims[@]}")
        proc=$(median "${procs[@]}")
        [ -z "$base_sim" ] && base_sim=$sim
        rate=$(calc "$thread / ($sim / 1000)")
        wrate=$(calc "$warp / ($sim / 1000)")
        speedup=$(calc "$base_sim / $sim")
        printf '| %s | %.1f ms | %.2f s | %.3e | %.3e | %.2f | %s |\n' \
            "$t" "$sim" "$proc" "$rate" "$wrate" "$speedup" \
            "$([ $same = yes ] && echo identical || echo DIFFERS)" | tee -a "$results"
    done
    echo | tee -a "$results"
    echo "$warp warp-instructions, $thread thread-instructions per run." | tee -a "$results"
    unset -n args
done
echo | tee -a "$results"
echo "- load average after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$results"
rm -rf "$work"
exit $status
