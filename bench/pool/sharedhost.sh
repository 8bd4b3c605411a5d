#!/usr/bin/env bash
# Nodes that share a host (#27): `switchyard check --json` against NODES nodes at paths of one
# simulated server on 127.0.0.1 that answers every request DELAY_MS after it came, over HTTP/1.1
# or HTTPS/1.1 (a CA made for the run, trusted through caFile). Prints how long check took and
# every node's latency, the smallest and largest: with no node queued behind another's
# connection they are all about DELAY_MS. Qt's six connections per host and manager showed as
# waves of six, one delay apart: in the latencies while the clock started before the request
# was written, in the time check took since.
#   bench/pool/sharedhost.sh SWITCHYARD [NODES=18] [DELAY_MS=80] [http|https]
# SWITCHYARD is the binary under test (any version: an old one built from git history too);
# simnodes comes from a Release build of its own (<repo>/build-bench), or as built from
# SWITCHYARD_BENCH_BUILD_DIR when that is set. Needs python3, and openssl for https.
set -euo pipefail

switchyard=${1:?usage: sharedhost.sh SWITCHYARD [NODES] [DELAY_MS] [http|https]}
nodes=${2:-18}
delay=${3:-80}
scheme=${4:-http}
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
build=$(benchBuildDir simnodes)
simnodes=$build/bench/simnodes
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

serverArguments=(--one-host --delay="$delay" "$nodes")
if [[ $scheme == https ]]; then
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 \
        -subj /CN=bench-ca -keyout "$work/ca.key" -out "$work/ca.pem" 2>/dev/null
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=127.0.0.1 \
        -keyout "$work/leaf.key" -out "$work/leaf.csr" 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >"$work/leaf.ext"
    openssl x509 -req -in "$work/leaf.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" \
        -CAcreateserial -days 1 -extfile "$work/leaf.ext" -out "$work/leaf.pem" 2>/dev/null
    serverArguments+=("$work/leaf.pem" "$work/leaf.key")
elif [[ $scheme != http ]]; then
    echo "expected http or https, got $scheme" >&2
    exit 2
fi

# simnodes serves until its standard input closes: the coprocess ends with this script.
coproc SERVER { "$simnodes" "${serverArguments[@]}"; }
read -r line <&"${SERVER[0]}"
CONFIG_LINE=$line CA_FILE=$([[ $scheme == https ]] && echo "$work/ca.pem" || true) \
    python3 - >"$work/config.json" <<'PY'
import json, os
config = json.loads(os.environ["CONFIG_LINE"])
config["probe"] = {"timeoutMs": 20000}
if os.environ["CA_FILE"]:
    config["networks"][0]["caFile"] = os.environ["CA_FILE"]
print(json.dumps(config))
PY
status=0
started=$(date +%s%N)
"$switchyard" check --json --config "$work/config.json" >"$work/check.json" || status=$?
tookMs=$((($(date +%s%N) - started) / 1000000))
python3 - "$work/check.json" "$status" "$delay" "$tookMs" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
nodes = report["networks"][0]["nodes"]
latencies = [node["latencyMs"] for node in nodes]
answered = sorted(l for l in latencies if l is not None)
print("check exit %s in %s ms (process start to exit); %d nodes, server delay %s ms"
      % (sys.argv[2], sys.argv[4], len(nodes), sys.argv[3]))
print("latencies (ms, sorted):", " ".join(str(l) for l in answered))
if len(answered) < len(nodes):
    print("without a latency: %d (%s)" % (len(nodes) - len(answered), ", ".join(
        sorted({n["state"] for n in nodes if n["latencyMs"] is None}))))
if answered:
    print("smallest %d ms, largest %d ms, largest/smallest %.2f"
          % (answered[0], answered[-1], answered[-1] / max(answered[0], 1)))
PY
