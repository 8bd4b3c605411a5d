#!/usr/bin/env bash
# The pending-transaction board: 10,000 cards, 1,000 transitions a second and a moving block
# height for ten seconds of wall clock while the board is shown offscreen at 1920x1080; paint
# time, event-loop gaps, update cost, poll time, RSS. About 15 seconds with the defaults; run it
# on an otherwise idle machine:
#   bench/board/run.sh [CARDS] [SECONDS] [TRANSITIONS_PER_SECOND]
# Environment: SWITCHYARD_BENCH_BUILD_DIR (default <repo>/build-bench, configured Release),
#   BENCH_JOBS (build jobs, 1).
set -euo pipefail

cards=${1:-10000}
seconds=${2:-10}
rate=${3:-1000}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${SWITCHYARD_BENCH_BUILD_DIR:-$root/build-bench}

mkdir -p "$build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWITCHYARD_BENCH=ON \
    >"$build/configure.log" 2>&1 || { cat "$build/configure.log" >&2; exit 1; }
cmake --build "$build" -j"${BENCH_JOBS:-1}" --target bench_board \
    >"$build/build.log" 2>&1 || { tail -n 40 "$build/build.log" >&2; exit 1; }
QT_QPA_PLATFORM=offscreen "$build/bench/board/bench_board" "$cards" "$seconds" "$rate"
