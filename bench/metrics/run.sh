#!/usr/bin/env bash
# The cost of one /metrics scrape over 200 nodes (the issue asks for < 10 ms). Seconds once built.
#   bench/metrics/run.sh [ROUNDS]
# Environment: SWITCHYARD_BENCH_BUILD_DIR (default <repo>/build-bench, configured Release),
#   BENCH_JOBS (build jobs, 1).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${SWITCHYARD_BENCH_BUILD_DIR:-$root/build-bench}
mkdir -p "$build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWITCHYARD_BENCH=ON \
    >"$build/configure.log" 2>&1 || { cat "$build/configure.log" >&2; exit 1; }
cmake --build "$build" -j"${BENCH_JOBS:-1}" --target bench_scrape \
    >"$build/build.log" 2>&1 || { tail -n 40 "$build/build.log" >&2; exit 1; }
"$build/bench/metrics/bench_scrape" "${1:-1000}"
