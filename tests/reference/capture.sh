#!/usr/bin/env bash
# Captures reference results: runs every run description tests/runs/*.json
# (or the ones named) with `spvsass reference` on this machine's Vulkan
# driver and writes OUT/NAME/result.json (driver, device, statistics,
# buffers, and the command that made it) and, for mesh runs,
# OUT/NAME/image.rgba32f. See docs/RUNS.md.
#
# Usage: tests/reference/capture.sh SPVSASS [OUT] [RUN.json ...]
#   SPVSASS  a release build of spvsass (e.g. target/release/spvsass)
#   OUT      output folder (default: tests/reference)
#   RUN      run descriptions to capture, relative to the repository root
#            (default: all of tests/runs/*.json)
# Environment: VALIDATE=1 adds the Khronos validation layer (its messages go
# to OUT/NAME/log.txt); TIMEOUT=seconds per run (default 120).
#
# One failing run does not stop the others: each run's result or error is
# listed in the summary (also written to OUT/summary.txt), and the script
# exits 1 if any run failed. A failed run leaves OUT/NAME/error.txt and no
# result.json, so stale results are never mistaken for new ones.
set -uo pipefail

if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
    sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
spvsass=$1
shift
out=tests/reference
if [ $# -ge 1 ] && [[ "$1" != *.json ]]; then
    out=$1
    shift
fi
if [ ! -x "$spvsass" ]; then
    echo "capture.sh: $spvsass is not an executable spvsass build" >&2
    exit 2
fi
spvsass=$(cd "$(dirname "$spvsass")" && pwd)/$(basename "$spvsass")
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
# Run from the repository root, so the recorded commands name repository paths.
cd "$(dirname "$0")/../.." || exit 2
# A path inside the repository relative to its root; others stay absolute.
relative() {
    local r
    r=$(realpath --relative-to=. "$1" 2>/dev/null) || r=$1
    case $r in ../*) echo "$1" ;; *) echo "$r" ;; esac
}
spvsass_cmd=$(relative "$spvsass")
case $spvsass_cmd in /*|./*) ;; *) spvsass_cmd=./$spvsass_cmd ;; esac

if [ $# -ge 1 ]; then
    runs=("$@")
else
    runs=(tests/runs/*.json)
fi
timeout_s=${TIMEOUT:-120}
if [ "${VALIDATE:-0}" = 1 ]; then
    export VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation
fi

summary=()
failed=0
for run in "${runs[@]}"; do
    name=$(basename "$run" .json)
    dir=$out/$name
    rm -rf "$dir"
    mkdir -p "$dir"
    log=$(mktemp)
    cmd=("$spvsass_cmd" reference "$run" --out "$(relative "$dir")")
    if command -v timeout >/dev/null; then
        timeout "$timeout_s" "${cmd[@]}" >"$log" 2>&1
    else
        "${cmd[@]}" >"$log" 2>&1
    fi
    rc=$?
    if [ $rc -eq 0 ] && [ -f "$dir/result.json" ]; then
        line="ok      $name"
        # Keep driver or validation messages beside the result.
        if grep -v "^$name: ran on " "$log" | grep -q .; then
            grep -v "^$name: ran on " "$log" >"$dir/log.txt"
            line="$line (messages in $name/log.txt)"
        fi
    else
        failed=$((failed + 1))
        [ $rc -eq 124 ] && echo "timed out after ${timeout_s} s" >>"$log"
        rm -f "$dir/result.json" "$dir/image.rgba32f"
        cp "$log" "$dir/error.txt"
        line="FAILED  $name (exit $rc): $(grep -m1 . "$log")"
    fi
    rm -f "$log"
    echo "$line"
    summary+=("$line")
done

{
    echo "spvsass reference capture, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "binary: $spvsass"
    if command -v nvidia-smi >/dev/null; then
        echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
    fi
    echo "runs: ${#runs[@]}, ok: $((${#runs[@]} - failed)), failed: $failed"
    printf '%s\n' "${summary[@]}"
} >"$out/summary.txt"
echo
cat "$out/summary.txt"
[ $failed -eq 0 ]
