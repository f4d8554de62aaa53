#!/usr/bin/env bash
# The long run of the input mutation targets (BENCHMARKS.md, "Input
# mutations"): mutated binaries (disasm, run), listings (asm), run
# descriptions and command-line values, COUNT cases per target, from
# seed SEED. A panic fails the target and proptest shrinks it to the
# fewest edits; the run is under a virtual-memory limit (LIMIT_KB,
# default 8 GiB), so an unbounded allocation fails too, and each target
# under a time limit (TIMEOUT, default 3 h), so a hang is reported.
#
#   scripts/fuzz-inputs.sh COUNT [SEED]
#
# The targets run in the test profile (overflow checks on); each prints
# "mutations TARGET: N executions in T s (R/s)".
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 COUNT [SEED]" >&2
    exit 2
fi
count=$1
seed=${2:-1}
cd "$(dirname "$0")/.."

cargo test --no-run --test integration --bin spvsass >/dev/null
export SPVSASS_MUTATION_CASES=$count SPVSASS_MUTATION_SEED=$seed
status=0
run() {
    ( ulimit -v "${LIMIT_KB:-8388608}"
      timeout "${TIMEOUT:-3h}" cargo test -q "$@" -- --nocapture --test-threads 1 ) \
        2>&1 | grep -E "mutations |panicked|FAILED|error" || status=1
}
run --test integration input_mutations::mutated_
run --bin spvsass mutated_command_lines
exit $status
