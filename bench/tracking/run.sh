#!/usr/bin/env bash
# One tracker poll round over pending Solana transactions against the simulator (in its own
# process, behind byte-counting relays), then the same ids one getSignatureStatuses call each.
#   bench/tracking/run.sh [COUNT] [ROUNDS]
# Environment: SWITCHYARD_BENCH_BUILD_DIR (default <repo>/build-bench), BENCH_JOBS (1).
set -euo pipefail

count=${1:-10000}
rounds=${2:-3}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${SWITCHYARD_BENCH_BUILD_DIR:-$root/build-bench}

mkdir -p "$build"
if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >"$build/configure.log" 2>&1 \
        || { cat "$build/configure.log" >&2; exit 1; }
fi
cmake --build "$build" -j"${BENCH_JOBS:-1}" --target bench_tracking tracking_simnodes >/dev/null
echo "machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "build: $(grep -m1 '^CMAKE_BUILD_TYPE' "$build/CMakeCache.txt" | cut -d= -f2)"
"$build/bench/tracking/bench_tracking" "$count" "$rounds"
