#!/usr/bin/env bash
# `switchyard track` of COUNT signed Solana transactions from a file (read, decode, verify,
# store, print) against its floor, decoding and verifying them alone, in one run; then the same
# transactions as bare base64 lines, which must draw one note. About 20 seconds with the
# defaults; run it on an otherwise idle machine:
#   bench/tracking/track.sh [COUNT] [RUNS]
# Environment: SWITCHYARD_BENCH_BUILD_DIR (default <repo>/build-bench, configured Release),
#   BENCH_JOBS (build jobs, 1).
set -euo pipefail

count=${1:-10000}
runs=${2:-3}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${SWITCHYARD_BENCH_BUILD_DIR:-$root/build-bench}

mkdir -p "$build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWITCHYARD_BENCH=ON \
    >"$build/configure.log" 2>&1 || { cat "$build/configure.log" >&2; exit 1; }
cmake --build "$build" -j"${BENCH_JOBS:-1}" --target bench_track \
    >"$build/build.log" 2>&1 || { tail -n 40 "$build/build.log" >&2; exit 1; }
"$build/bench/tracking/bench_track" "$count" "$runs"
