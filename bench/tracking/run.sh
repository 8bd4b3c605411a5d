#!/usr/bin/env bash
# One tracker poll round over pending Solana transactions against the simulator (in its own
# process, behind byte-counting relays), then the same ids one getSignatureStatuses call each.
# About a minute with the defaults; run it on an otherwise idle machine:
#   bench/tracking/run.sh [COUNT] [ROUNDS]
# Environment: SWITCHYARD_BENCH_BUILD_DIR (default <repo>/build-bench, configured Release),
#   BENCH_JOBS (build jobs, 1).
set -euo pipefail

count=${1:-10000}
rounds=${2:-3}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${SWITCHYARD_BENCH_BUILD_DIR:-$root/build-bench}

mkdir -p "$build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWITCHYARD_BENCH=ON \
    >"$build/configure.log" 2>&1 || { cat "$build/configure.log" >&2; exit 1; }
cmake --build "$build" -j"${BENCH_JOBS:-1}" --target bench_tracking tracking_simnodes \
    >"$build/build.log" 2>&1 || { tail -n 40 "$build/build.log" >&2; exit 1; }
"$build/bench/tracking/bench_tracking" "$count" "$rounds"
