#!/usr/bin/env bash
# Decoding throughput, switchyard's decoders against what a user would script instead
# (@solana/kit and ethers v6 under Node), on this machine in one go. Prints a table.
# Each round runs both sides once, alternating; the best round of each side is kept, so a
# neighbour's burst of load on a shared machine does not decide the ratio. About 1.5 minutes
# with the defaults; run it on an otherwise idle machine:
#   bench/decode/run.sh [SECONDS_PER_MODE] [ROUNDS]
# Environment: SWITCHYARD_BENCH_BUILD_DIR (default <repo>/build-bench, configured Release),
#   SWITCHYARD_FIXTURES_DIR (default <repo>/tests/fixtures), BENCH_JOBS (build jobs, 1).
set -euo pipefail

seconds=${1:-3}
rounds=${2:-3}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${SWITCHYARD_BENCH_BUILD_DIR:-$root/build-bench}
fixtures=${SWITCHYARD_FIXTURES_DIR:-$root/tests/fixtures}

mkdir -p "$build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWITCHYARD_BENCH=ON \
    >"$build/configure.log" 2>&1 || { cat "$build/configure.log" >&2; exit 1; }
cmake --build "$build" -j"${BENCH_JOBS:-1}" --target bench_decode \
    >"$build/build.log" 2>&1 || { tail -n 40 "$build/build.log" >&2; exit 1; }
if [[ ! -d "$root/bench/node_modules/@solana/kit" || ! -d "$root/bench/node_modules/ethers" ]]; then
    (cd "$root/bench" && npm ci --no-audit --no-fund >/dev/null)
fi

node_version=$(node --version)
kit_version=$(node -p "require('$root/bench/node_modules/@solana/kit/package.json').version")
ethers_version=$(node -p "require('$root/bench/node_modules/ethers/package.json').version")
"$build/bench/bench_decode" --context
echo "peers: @solana/kit $kit_version, ethers $ethers_version, Node $node_version"
echo "fixtures: $fixtures"

declare -A ours peers
keep_best() { # keep_best ARRAY_NAME < "MODE VALUE" lines
    local -n best=$1
    while read -r mode value; do
        if [[ -z ${best[$mode]:-} || $value -gt ${best[$mode]} ]]; then best[$mode]=$value; fi
    done
}
for ((round = 1; round <= rounds; round++)); do
    echo "round $round/$rounds ..." >&2
    keep_best ours < <("$build/bench/bench_decode" "$fixtures" "$seconds")
    keep_best peers < <(node "$root/bench/decode/peers.mjs" "$fixtures" "$seconds")
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", a / b }'; }

echo
echo "Decoding throughput, transactions/s (best of $rounds rounds of ${seconds}s, one thread)"
printf '%-44s %12s %12s %8s\n' "what" "switchyard" "peer" "ratio"
row() { printf '%-44s %12s %12s %8s\n' "$1" "${ours[$2]}" "${peers[$3]}" "$(ratio "${ours[$2]}" "${peers[$3]}")"; }
row "Solana decode (base64 -> id)"               solana-decode solana-decode
row "Solana decode + verify every signature"     solana-verify solana-verify
row "EVM decode (hex -> hash)"                   evm-decode    evm-decode
row "EVM decode + recover sender"                evm-recover   evm-recover
echo
echo "Target (switchyard with verification vs the peer's plain decode):"
row "Solana: ours verify vs kit decode"          solana-verify solana-decode
row "EVM: ours recover vs ethers Transaction.from" evm-recover evm-decode
