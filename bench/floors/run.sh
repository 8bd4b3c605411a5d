#!/usr/bin/env bash
# The headline paths at their floors (issue #22), each measured against its floor or peer in
# the same run, printed as one markdown table: measure, ours, floor or peer, ratio, goal, met,
# and the load average when its benchmark started; with the build type and the versions.
#
#   bench/floors/run.sh [BUILD_DIR]
#
# It builds nothing. BUILD_DIR (default $SWITCHYARD_BENCH_BUILD_DIR, else <repo>/build-bench)
# is a tree configured with -DSWITCHYARD_BENCH=ON (Release for figures to compare) in which
# these are built:
#   cmake --build BUILD_DIR --target switchyard bench_track bench_store bench_rpccall simnodes \
#       bench_tracking tracking_simnodes
# It needs sqlite3 and curl, which the project itself does not (apt-get install sqlite3 curl),
# nghttpx (nghttp2-proxy) and openssl, as the tests do.
#
# The benchmarks run one after the other, never two at once; each peer (sqlite3, curl) and each
# simulator runs in a process of its own. Four to five minutes; run it on an otherwise idle
# machine. Every benchmark's whole output is kept in BUILD_DIR/floors/.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-${SWITCHYARD_BENCH_BUILD_DIR:-$root/build-bench}}
logs=$build/floors

missing=()
for program in app/switchyard bench/tracking/bench_track bench/store/bench_store \
    bench/bench_rpccall bench/simnodes bench/tracking/bench_tracking \
    bench/tracking/tracking_simnodes; do
    [[ -x $build/$program ]] || missing+=("$program")
done
if ((${#missing[@]})); then
    echo "run.sh: not built in $build: ${missing[*]}" >&2
    echo "  build them: cmake --build $build --target switchyard bench_track bench_store" \
        "bench_rpccall simnodes bench_tracking tracking_simnodes" >&2
    exit 1
fi
for tool in sqlite3 curl; do
    command -v $tool >/dev/null ||
        { echo "run.sh: $tool is needed: apt-get install $tool" >&2; exit 1; }
done

mkdir -p "$logs"
# name, then the command; each prints its context, its figures and its floor-row lines.
run() {
    local name=$1
    shift
    echo "running $name: $*" >&2
    if ! "$@" >"$logs/$name.log" 2>&1; then
        echo "run.sh: $name failed; its output:" >&2
        tail -n 30 "$logs/$name.log" >&2
        exit 1
    fi
}
run track "$build/bench/tracking/bench_track" 10000 5
run csv "$build/bench/store/bench_store" 1000000 "$logs/store-data"
rm -rf "$logs/store-data"
run rpc "$build/bench/bench_rpccall" 200
run poll "$build/bench/tracking/bench_tracking" 10000 5

build_type=$(sed -n 's/^build: //p' "$logs/track.log" | head -n 1)
echo "## Headline paths at their floors ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo
echo "build: $build_type"
sed -n 's/^machine: \([0-9]* cores\) (\(.*\)),.*/machine: \1, \2/p' "$logs/track.log" | head -n 1
echo "versions: Qt $(sed -n 's/.*, Qt \([^ ]*\) .*/\1/p' "$logs/track.log" | head -n 1)," \
    "$(sqlite3 -version | cut -d' ' -f1-2 | sed 's/^/sqlite3 /'), $(curl --version | head -n 1 |
        cut -d' ' -f1-2), nghttpx $(nghttpx --version 2>/dev/null | sed -n 's/.*nghttpx \([^ ]*\).*/\1/p' |
        head -n 1), $(uname -sr)"
echo
echo "| measure | ours | floor or peer (same run) | ratio | goal | met? | load (1 min) |"
echo "|---|---:|---:|---:|---|---|---:|"
for name in track csv rpc poll; do
    load=$(sed -n 's/^machine: .*load average \([^ ]*\) .*/\1/p' "$logs/$name.log" | head -n 1)
    awk -F'\t' -v load="$load" \
        '$1 == "floor-row" { printf "| %s | %s | %s | %s | %s | %s | %s |\n", $2, $3, $4, $5, $6, $7, load }' \
        "$logs/$name.log"
done
