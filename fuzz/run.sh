#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) and runs each for SECONDS, one after the
# other, seeded from the signed vectors in tests/fixtures. Exits non-zero on any crash, leak or failed check.
#   fuzz/run.sh SECONDS
# Environment: SWITCHYARD_FUZZ_BUILD_DIR (default <repo>/build-fuzz),
#   SWITCHYARD_FIXTURES_DIR (default <repo>/tests/fixtures), FUZZ_JOBS (build jobs, 1),
#   FUZZ_TARGETS (space-separated subset of the targets below, default all).
set -euo pipefail

if [[ $# -ne 1 || ! $1 =~ ^[0-9]+$ ]]; then
    echo "usage: fuzz/run.sh SECONDS" >&2
    exit 2
fi
seconds=$1
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${SWITCHYARD_FUZZ_BUILD_DIR:-$root/build-fuzz}
fixtures=${SWITCHYARD_FIXTURES_DIR:-$root/tests/fixtures}
read -r -a targets <<<"${FUZZ_TARGETS:-fuzz_base58 fuzz_base64 fuzz_solana fuzz_rlp fuzz_evm}"

# clang 14 cannot emit -fsanitize=function's prologue data for coroutine functions (the core's
# QCoro code): "Cannot represent a difference across sections". The rest of UBSan stays on.
sanitizers="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize=function -fno-sanitize-recover=all"
mkdir -p "$build"
cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS="$sanitizers -fno-omit-frame-pointer" \
    -DSWITCHYARD_FUZZ=ON -DBUILD_TESTING=OFF >"$build/configure.log" 2>&1 \
    || { cat "$build/configure.log" >&2; exit 1; }
if [[ ! -f "$build/fuzz/build.ninja" && ! -d "$build/fuzz" ]]; then
    echo "fuzz/ is not part of the build: the top-level CMakeLists.txt needs" >&2
    echo "  if(SWITCHYARD_FUZZ) add_subdirectory(fuzz) endif()" >&2
    exit 1
fi
cmake --build "$build" -j"${FUZZ_JOBS:-1}" --target fuzz_make_seeds "${targets[@]}"

rm -rf "$build/fuzz-seeds"
ASAN_OPTIONS=detect_leaks=0 "$build/fuzz/fuzz_make_seeds" "$fixtures" "$build/fuzz-seeds"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=0
summary=()
for target in "${targets[@]}"; do
    corpus="$build/fuzz-corpus/$target"
    artifacts="$build/fuzz-artifacts/$target"
    mkdir -p "$corpus" "$artifacts"
    log="$build/fuzz-$target.log"
    echo "== $target: ${seconds}s"
    if "$build/fuzz/$target" -max_total_time="$seconds" -print_final_stats=1 -max_len=4096 \
        -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$artifacts/" \
        "$corpus" "$build/fuzz-seeds/$target" >"$log" 2>&1; then
        status=clean
    else
        status="FINDING (see $log and $artifacts)"
        failed=1
        tail -n 40 "$log" >&2
    fi
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -n 1 || echo "?")
    corpus_size=$(find "$corpus" -type f | wc -l)
    summary+=("$(printf '%-12s %-40s execs %-12s %-24s corpus %s' "$target" "$status" "$execs" "$cov" "$corpus_size")")
done
echo
printf '%s\n' "${summary[@]}"
exit $failed
