#!/bin/sh
# The long random-program run (issue 18): programs from consecutive seeds,
# each compiled for sm75 and sm86, simulated and compared with the IR
# interpreter; every new failure signature is reduced and written to OUT.
#
#   scripts/progfuzz.sh [-j PROCS] [SECONDS] [OUT] [extra progfuzz flags...]
#   e.g. scripts/progfuzz.sh -j 16 3600 /tmp/finds --no-constant-conditions
#        scripts/progfuzz.sh -j 16 3600 /tmp/finds --kind mixed --lavapipe
#
# PROGFUZZ_FEATURES=inproc-glslang builds the in-process GLSL compiler
# (about 12x the programs per second; needs Debian's libshaderc-dev and
# glslang-dev); PROGFUZZ_BIN=PATH runs that binary instead of building.
#
# -j runs PROCS release `progfuzz` processes side by side (one thread
# each, default 1), process k on seeds from BASE + k * 1,000,000,000
# (BASE: --seed S among the extra flags, default 1), writing OUT/k/ and
# OUT/k.log, and prints one summary: programs, programs/s, failing
# programs and failures by signature (with the first seed of each).
set -eu
procs=1
if [ "${1:-}" = "-j" ]; then
    procs=$2
    shift 2
fi
seconds=${1:-600}
out=${2:-progfuzz-finds}
shift 2 2>/dev/null || shift $#
base=1
extra=""
while [ $# -gt 0 ]; do
    if [ "$1" = "--seed" ]; then
        base=$2
        shift 2
    else
        extra="$extra $1"
        shift
    fi
done
cd "$(dirname "$0")/.."
# PROGFUZZ_BIN: a progfuzz built elsewhere (a machine without cargo), e.g.
# with `--features inproc-glslang`, which compiles GLSL in process.
bin=${PROGFUZZ_BIN:-}
if [ -z "$bin" ]; then
    cargo build --release -p spvsass-progfuzz --bin progfuzz ${PROGFUZZ_FEATURES:+--features "$PROGFUZZ_FEATURES"}
    bin=target/release/progfuzz
fi
mkdir -p "$out"
pids=""
k=0
while [ "$k" -lt "$procs" ]; do
    seed=$((base + k * 1000000000))
    # shellcheck disable=SC2086 # the extra flags are words
    "$bin" --seconds "$seconds" --threads 1 --seed "$seed" \
        --out "$out/$k" $extra > "$out/$k.log" 2>&1 &
    pids="$pids $!"
    k=$((k + 1))
done
status=0
for p in $pids; do
    wait "$p" || status=1
done
# Each log ends with "programs run: N", "programs/s: R", and one line per
# signature: "COUNT  first seed SEED  SIGNATURE"; with --lavapipe, one line
# per classification: "lavapipe: COUNT  VERDICT".
awk -v procs="$procs" -v secs="$seconds" '
    /^programs run: / { programs += $3 }
    /^ *[0-9]+  first seed +[0-9]+  / {
        count = $1; seed = $4
        sig = $0; sub(/^ *[0-9]+  first seed +[0-9]+  /, "", sig)
        failing += count; by[sig] += count
        if (!(sig in first) || seed < first[sig]) first[sig] = seed
    }
    /^lavapipe: +[0-9]+  / {
        n = $2; v = $0; sub(/^lavapipe: +[0-9]+  /, "", v); lv[v] += n
    }
    END {
        printf "processes: %d, %d s each\n", procs, secs
        printf "programs run: %d\n", programs
        printf "programs/s: %.2f\n", programs / secs
        printf "failing programs: %d; distinct signatures: %d\n", failing, length(by)
        for (s in by) printf "%6d  first seed %12d  %s\n", by[s], first[s], s
        for (v in lv) printf "lavapipe: %6d  %s\n", lv[v], v
    }' "$out"/*.log
exit "$status"
