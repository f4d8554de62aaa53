#!/bin/sh
# The long random-program run (issue 18): programs from consecutive seeds,
# each compiled for sm75 and sm86, simulated and compared with the IR
# interpreter; every new failure signature is reduced and written to OUT.
# Prints programs/s, programs run and failures by signature.
#
#   scripts/progfuzz.sh [SECONDS] [OUT] [extra progfuzz flags...]
#   e.g. scripts/progfuzz.sh 1800 /tmp/finds --threads 2 --no-constant-conditions
set -eu
seconds=${1:-600}
out=${2:-progfuzz-finds}
shift 2 2>/dev/null || shift $#
cd "$(dirname "$0")/.."
cargo build --release -p spvsass-progfuzz --bin progfuzz
exec target/release/progfuzz --seconds "$seconds" --out "$out" "$@"
