#!/usr/bin/env bash
# The prober's CPU against the bare QNetworkAccessManager floor (#22 item 3, #27): for each
# transport and each layout (every node on a host of its own, and all on one host told apart by
# the path), bench_probing runs the prober and then the bare floor back to back, ROUNDS times
# alternating, SECONDS each, and prints the median of each and their ratio. The floor is
# bench_probing --bare: the same batch posted to every node each round, no request queued behind
# another's connection (see the head of bench_probing.cpp). Goals: at most 1.2 times the floor
# over http, https and h2, 1.3 times with WebSocket pushes (ws).
#   bench/pool/probecost.sh [SECONDS=20] [ROUNDS=3] [NODES=200] [TRANSPORTS="http https h2 ws"]
# Configures and builds its own Release build (<repo>/build-bench), or uses the benchmarks of
# SWITCHYARD_BENCH_BUILD_DIR as they are built when that is set. Each run's full output goes to
# $PROBECOST_LOG (default /tmp/probecost.log); LAYOUTS="one" or "many" runs one layout only.
# Run it on an otherwise idle machine: about
# 2 x ROUNDS x (SECONDS + 5) s per cell, 8 cells.
set -euo pipefail

seconds=${1:-20}
rounds=${2:-3}
nodes=${3:-200}
transports=${4:-http https h2 ws}
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
build=$(benchBuildDir bench_probing simnodes)
bench=$build/bench/bench_probing
log=${PROBECOST_LOG:-/tmp/probecost.log}
: >"$log"

# One run's mean CPU, % of one core.
run() {
    local output
    output=$("$bench" "$seconds" "$nodes" "$@" 2>>"$log")
    printf '%s\n\n' "$output" >>"$log"
    sed -n 's/^mean CPU \([0-9.]*\) %.*/\1/p' <<<"$output"
}

median() {
    sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $seconds s a run, $rounds rounds, $nodes nodes"
printf '%-6s %-11s %-24s %-24s %s\n' transport hosts "prober (runs)" "bare (runs)" "ratio"
for transport in $transports; do
    for layout in ${LAYOUTS:-many one}; do
        hosts=()
        [[ $layout == one ]] && hosts=(--one-host)
        ours=()
        bare=()
        for ((round = 0; round < rounds; ++round)); do
            ours+=("$(run --transport="$transport" "${hosts[@]}")")
            bare+=("$(run --bare --transport="$transport" "${hosts[@]}")")
        done
        oursMedian=$(printf '%s\n' "${ours[@]}" | median)
        bareMedian=$(printf '%s\n' "${bare[@]}" | median)
        printf '%-6s %-11s %-24s %-24s %.2f\n' "$transport" "$layout" \
            "$oursMedian (${ours[*]})" "$bareMedian (${bare[*]})" \
            "$(awk -v o="$oursMedian" -v b="$bareMedian" 'BEGIN { print o / b }')"
    done
done
grep -m1 '^build:' "$log"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
