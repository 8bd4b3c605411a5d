#!/usr/bin/env bash
# A team on one PostgreSQL store, walked as its users see it (#24): two collectors (`switchyard
# serve`, one active, one standing by), an operator desk and a support desk, each connected as a
# login of its own group role (`switchyard db grant`), under a real X server. It screenshots both
# desks' Nodes, Pending and Timeline tabs, kills the active collector with -9, and screenshots
# them again once the standby has taken over. The nodes are tracking_simnodes (bench/tracking):
# 60 signed transfers, about half of them landing, tracked by the operator.
#   xdesk 1920x1080 -- tests/ui/team-walk.sh BUILD_DIR OUT_DIR
# (xdesk: the team's Xvfb desktop with a window manager, a tray and a notification daemon; any
# X server with a window manager will do, with xdotool and ImageMagick's import.)
# BUILD_DIR holds switchyard, postgres_holder (tests) and tracking_simnodes (-DSWITCHYARD_BENCH=ON).
# OUT_DIR receives the screenshots and every process's log.
set -euo pipefail

build=$(cd "${1:?usage: team-walk.sh BUILD_DIR OUT_DIR}" && pwd)
out=${2:?usage: team-walk.sh BUILD_DIR OUT_DIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
switchyard=$build/app/switchyard
psql=$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n 1)/psql
work=$(mktemp -d)
chmod 755 "$work"
pids=()
cleanup() {
    ((${#pids[@]})) && kill "${pids[@]}" 2>/dev/null
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

say() { printf '%s  %s\n' "$(date -u +%H:%M:%S)" "$*"; }

# HELPER OUTPUT ARGS...: starts a helper that serves until its stdin closes (at exit) and waits
# for the first line it prints.
hold() {
    local output=$work/$2
    mkfifo "$work/$2.in"
    exec {fd}<>"$work/$2.in"
    "$1" "${@:3}" <&$fd >"$output" 2>"$out/$2.log" &
    pids+=($!)
    for _ in $(seq 1 600); do
        (($(wc -l <"$output") > 0)) && return
        sleep 0.2
    done
    echo "team-walk.sh: $1 printed nothing; see $out/$2.log" >&2
    exit 1
}

hold "$build/tests/support/postgres_holder" postgres
read -r _ pg_folder owner_url <"$work/postgres"
port=${owner_url##*:}
port=${port%%/*}
say "PostgreSQL in $pg_folder, port $port"
url_of() { printf '%s' "${owner_url/switchyard@/$1@}"; }

"$switchyard" db grant --db "$owner_url"
"$psql" -q -h "$pg_folder" -p "$port" -U switchyard -d switchyard -v ON_ERROR_STOP=1 <<'SQL'
CREATE ROLE collector LOGIN;
GRANT switchyard_collector TO collector;
CREATE ROLE olga LOGIN;
GRANT switchyard_operator TO olga;
CREATE ROLE sam LOGIN;
GRANT switchyard_support TO sam;
SQL

hold "$build/bench/tracking/tracking_simnodes" nodes 60 "$work/records.jsonl" 3
head -n 1 "$work/nodes" >"$work/config.json"

"$switchyard" track --config "$work/config.json" --db "$(url_of olga)" "@$work/records.jsonl" \
    >"$out/track.log"
say "tracked $(wc -l <"$out/track.log") transactions as olga (operator)"

serve() {
    "$switchyard" serve --config "$work/config.json" --db "$(url_of collector)" \
        --listen 127.0.0.1:0 2>"$out/$1.log" &
    pids+=($!)
}
serve collector-a
collector_a=$!
sleep 3
serve collector-b
collector_b=$!

desk() { # NAME ROLE
    local home=$work/$1
    mkdir -p "$home"
    HOME=$home XDG_CONFIG_HOME=$home/config XDG_DATA_HOME=$home/data \
        "$switchyard" --config "$work/config.json" --db "$(url_of "$2")" >"$out/$1.log" 2>&1 &
    pids+=($!)
}
desk operator olga
operator=$!
desk support sam
support=$!

window_of() { # PID: its largest visible window (the tray icon is one of its windows too)
    local id area best=0 chosen=
    for _ in $(seq 1 100); do
        for id in $(xdotool search --onlyvisible --pid "$1" 2>/dev/null); do
            eval "$(xdotool getwindowgeometry --shell "$id")"
            area=$((WIDTH * HEIGHT))
            ((area > best)) && { best=$area; chosen=$id; }
        done
        ((best > 100000)) && { printf '%s' "$chosen"; return; }
        sleep 0.2
    done
    echo "team-walk.sh: no window of process $1" >&2
    exit 1
}
declare -A window
window[operator]=$(window_of "$operator")
window[support]=$(window_of "$support")

lease() {
    "$psql" -qtA -h "$pg_folder" -p "$port" -U switchyard -d switchyard \
        -c "SELECT holder || ' on ' || host FROM collector_lease"
}

# Each desk's Nodes, Pending and Timeline tabs (Ctrl+1, Ctrl+4, Ctrl+5).
shoot() { # STEP
    for desk in operator support; do
        xdotool windowactivate --sync "${window[$desk]}"
        for tab in 1:nodes 4:pending 5:timeline; do
            xdotool key --window "${window[$desk]}" "ctrl+${tab%%:*}"
            sleep 1
            import -window "${window[$desk]}" "$out/$1-$desk-${tab#*:}.png"
        done
    done
    import -window root "$out/$1-screen.png"
}

sleep 20
say "collector: $(lease) (a: process $collector_a, b: process $collector_b)"
shoot 1-shared

kill -9 "$collector_a"
killed=$(date +%s%N)
say "killed collector a (process $collector_a) with -9"
until [[ $(lease) == *" pid=$collector_b "* ]]; do
    (($(date +%s%N) - killed < 60000000000)) || { echo "team-walk.sh: no handover" >&2; exit 1; }
    sleep 0.2
done
say "collector: $(lease), $((($(date +%s%N) - killed) / 1000000)) ms after the kill"
sleep 5
shoot 2-after-handover
say "screenshots in $out"
