# Sourced by the scripts/bench-*.sh benchmarks: what every one of them
# sets up from its two arguments.
#
# bench_init "$0" "$@": checks that the arguments are SPVSASS_BINARY
# OUTDIR (else prints the usage and exits 2) and sets bin (the binary,
# absolute), out (OUTDIR, created, absolute), work (OUTDIR/work, created
# empty) and repo (the repository's root).
bench_init() {
    local script=$1
    shift
    if [ $# -ne 2 ]; then
        echo "usage: $script SPVSASS_BINARY OUTDIR" >&2
        exit 2
    fi
    bin=$(realpath "$1")
    repo=$(cd "$(dirname "$script")"/.. && pwd)
    mkdir -p "$2"
    out=$(realpath "$2")
    work=$out/work
    rm -rf "$work"
    mkdir -p "$work"
}

# bench_alu_json FILE GROUPS ROUNDS COMMENT: the run description of the ALU
# kernel (benches/data/alu_heavy.comp) for `spvsass reference`: GROUPS
# workgroups of 64 invocations, ROUNDS iterations (the push constant), the
# output buffer read back.
bench_alu_json() {
    cat >"$1" <<JSON
{ "comment": "$4", "stages": { "compute": { "spirv": "$repo/benches/data/alu_heavy.comp.spv" } },
  "groups": [$2, 1, 1],
  "buffers": [ { "binding": 0, "kind": "storage", "contents": [ { "zero": $(($2 * 256)) } ], "read_back": true } ],
  "push_constants": [ { "u32": [$3] } ] }
JSON
}

# bench_keep_first FILE REF: the first output of a kind becomes REF; a
# later one equal to it is deleted; returns 1 (keeping FILE) if it
# differs.
bench_keep_first() {
    if [ ! -e "$2" ]; then
        mv "$1" "$2"
    elif cmp -s "$1" "$2"; then
        rm "$1"
    else
        return 1
    fi
}

# bench_translation_cache: sets SPVSASS_TRANSLATION_CACHE for the runs
# from CACHE (default warm): "warm", a fresh directory in the work folder
# (untimed first runs fill it, so the timed runs take their code from it, as
# lavapipe's runs take theirs from Mesa's shader cache, on by default), or
# "off" (every run translates). Sets cache_note for the report.
bench_translation_cache() {
    case ${CACHE:-warm} in
    warm)
        export SPVSASS_TRANSLATION_CACHE=$work/translation-cache
        cache_note="translation cache: warm (filled by an untimed first run)"
        ;;
    off)
        export SPVSASS_TRANSLATION_CACHE=off
        cache_note="translation cache: off (every run translates)"
        ;;
    *)
        echo "CACHE must be warm or off, not ${CACHE}" >&2
        exit 2
        ;;
    esac
}

# bench_measure FILE CMD...: runs CMD and writes "WALL CPU" to FILE: its
# elapsed time and the user + system time of the process (seconds);
# returns CMD's exit status. Redirect CMD's output around the call.
bench_measure() {
    python3 - "$@" <<'PY'
import os, subprocess, sys, time
path, cmd = sys.argv[1], sys.argv[2:]
start = time.monotonic()
child = subprocess.Popen(cmd)
_, status, usage = os.wait4(child.pid, 0)
wall = time.monotonic() - start
with open(path, "w") as f:
    f.write(f"{wall:.6f} {usage.ru_utime + usage.ru_stime:.6f}\n")
sys.exit(os.waitstatus_to_exitcode(status))
PY
}

# bench_sim_ms STDERR WHAT: the simulation time (ms) that `--stats` wrote
# to the file STDERR; without one, shows the file and fails (WHAT names the
# run), which stops a script under `set -e` at the assignment.
bench_sim_ms() {
    local sim
    sim=$(sed -n 's/^simulated .* in \([0-9.]*\) ms.*/\1/p' "$1")
    if [ -z "$sim" ]; then
        echo "no --stats line from $2:" >&2
        cat "$1" >&2
        return 1
    fi
    echo "$sim"
}
