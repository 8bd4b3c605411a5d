#!/usr/bin/env bash
# The timeline over one million events: insert rate, first page, tx lookup, CSV export against
# the sqlite3 command line (time, bytes written and peak RSS, each exporter in its own process),
# and a tracker poll round's writes on the filled store (events_tx by id prefix and by whole id).
# With --postgresql, the same on a PostgreSQL 15 server of its own after SQLite, against
# `psql \copy`, and the team store's goals (first page < 10 ms, one tx id < 5 ms, CSV ≤ 1.2×).
# About a minute once built (five with --postgresql); run it on an otherwise idle machine:
#   bench/store/run.sh [EVENTS] [DIR] [--postgresql]
# Environment: SWITCHYARD_BENCH_BUILD_DIR (default <repo>/build-bench, configured Release),
#   BENCH_JOBS (build jobs, 1).
set -euo pipefail

events=${1:-1000000}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${SWITCHYARD_BENCH_BUILD_DIR:-$root/build-bench}
dir=${2:-$build/bench-store-data}
engines=("${@:3}")

command -v sqlite3 >/dev/null || { echo "run.sh: the sqlite3 command line is needed" >&2; exit 1; }
mkdir -p "$build" "$dir"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWITCHYARD_BENCH=ON \
    >"$build/configure.log" 2>&1 || { cat "$build/configure.log" >&2; exit 1; }
cmake --build "$build" -j"${BENCH_JOBS:-1}" --target bench_store \
    >"$build/build.log" 2>&1 || { tail -n 40 "$build/build.log" >&2; exit 1; }
"$build/bench/store/bench_store" "$events" "$dir" "${engines[@]}"
