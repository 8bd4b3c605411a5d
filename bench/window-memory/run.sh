#!/usr/bin/env bash
# The window's memory over time: the demo (`switchyard --demo`, its simulated cluster and
# transactions in the same process) left open, its resident set and heap sampled once a minute,
# then the growth between minute 10 (start-up and the first caches done) and the last minute.
# An hour with the defaults; run it by hand on an otherwise idle machine:
#   bench/window-memory/run.sh [MINUTES] [SAMPLE_SECONDS]   (a sample a minute; fewer seconds only to try it)
# It draws on $DISPLAY when set (e.g. under Xvfb), else offscreen. It builds nothing: it runs
# app/switchyard from SWITCHYARD_BUILD_DIR (default <repo>/build). The demo's store, settings
# and data go to a fresh temporary folder that is removed afterwards; the app is ended with
# SIGTERM, as a logout would.
set -euo pipefail

minutes=${1:-60}
sample_seconds=${2:-60}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${SWITCHYARD_BUILD_DIR:-$root/build}
app=$build/app/switchyard
[ -x "$app" ] || { echo "run.sh: no $app: build the switchyard target first" >&2; exit 2; }
[[ $minutes =~ ^[0-9]+$ && $minutes -ge 11 ]] || { echo "run.sh: MINUTES must be 11 or more" >&2; exit 2; }

work=$(mktemp -d)
pid=""
cleanup() {
    [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
export HOME=$work XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_CACHE_HOME=$work/cache
[ -n "${DISPLAY:-}" ] || export QT_QPA_PLATFORM=offscreen

echo "$("$app" --version), Qt $(qtpaths6 --qt-version 2>/dev/null || echo '?'), platform ${QT_QPA_PLATFORM:-xcb on $DISPLAY}"
echo "build: $(grep -E '^CMAKE_BUILD_TYPE:|^CMAKE_CXX_FLAGS_RELWITHDEBINFO:' "$build/CMakeCache.txt" 2>/dev/null | tr '\n' ' ')"
echo "load at start: $(uptime)"
"$app" --demo --db "$work/demo.db" >"$work/app.log" 2>&1 &
pid=$!

# Resident set and the [heap] mapping's resident part, in KiB.
sample() {
    local rss heap
    rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status")
    heap=$(awk '/\[heap\]/ { inheap = 1; next } /^[0-9a-f]+-/ { inheap = 0 }
                inheap && /^Rss:/ { sum += $2 } END { print sum + 0 }' "/proc/$pid/smaps")
    echo "$rss $heap"
}

printf '%6s %10s %10s\n' minute rss_MiB heap_MiB
declare -a rss_at
for ((minute = 0; minute <= minutes; ++minute)); do
    if ((minute > 0)); then sleep "$sample_seconds"; fi
    kill -0 "$pid" 2>/dev/null || { echo "run.sh: the app ended early:" >&2; cat "$work/app.log" >&2; exit 1; }
    read -r rss heap < <(sample)
    rss_at[minute]=$rss
    awk -v m="$minute" -v r="$rss" -v h="$heap" 'BEGIN { printf "%6d %10.1f %10.1f\n", m, r / 1024, h / 1024 }'
done
echo "load at end: $(uptime)"
awk -v a="${rss_at[10]}" -v b="${rss_at[minutes]}" -v m="$minutes" \
    'BEGIN { printf "growth from minute 10 to minute %d: %+.1f MiB (%.1f -> %.1f MiB)\n", m, (b - a) / 1024, a / 1024, b / 1024 }'
