#!/usr/bin/env bash
# The pool: router overhead per call against a bare QNetworkAccessManager post, then 200 nodes
# probed every second by the prober and by the bare floor (CPU and memory). The nodes are served
# by simnodes in a process of its own, over cleartext HTTP/1.1, HTTPS/1.1, HTTPS/2 and WebSocket
# pushes (probes every 30 s). About 8.5 minutes with the defaults; run it on an otherwise idle
# machine:
#   bench/pool/run.sh [CALLS] [PROBING_SECONDS] [NODES]
# Environment: SWITCHYARD_BENCH_BUILD_DIR (default <repo>/build-bench, configured Release),
#   BENCH_JOBS (build jobs, 1).
set -euo pipefail

calls=${1:-2000}
seconds=${2:-60}
nodes=${3:-200}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${SWITCHYARD_BENCH_BUILD_DIR:-$root/build-bench}

mkdir -p "$build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWITCHYARD_BENCH=ON \
    >"$build/configure.log" 2>&1 || { cat "$build/configure.log" >&2; exit 1; }
cmake --build "$build" -j"${BENCH_JOBS:-1}" --target bench_router bench_probing simnodes \
    >"$build/build.log" 2>&1 || { tail -n 40 "$build/build.log" >&2; exit 1; }
"$build/bench/bench_router" "$calls"
echo
# Each transport: the prober, then the bare floor on the same wire (https and h2 need openssl;
# h2 runs nghttpx from nghttp2-proxy in front of the simulator; ws pushes heights from every
# node's WebSocket).
for transport in http https h2 ws; do
    echo
    "$build/bench/bench_probing" "$seconds" "$nodes" --transport=$transport
    echo
    "$build/bench/bench_probing" "$seconds" "$nodes" --bare --transport=$transport
done
