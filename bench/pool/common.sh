# shellcheck shell=bash
# What the scripts of bench/pool share; they source it (`source "$(dirname …)/common.sh"`).

# The folder that holds bench/.
benchRoot=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# The build whose benchmarks a script runs, printed: SWITCHYARD_BENCH_BUILD_DIR as it is built
# when that is set; else a Release build of its own (<repo>/build-bench), configured and the
# targets given built (BENCH_JOBS jobs, 1 by default). A step that fails prints its log on
# stderr and fails.
benchBuildDir() {
    if [[ -n ${SWITCHYARD_BENCH_BUILD_DIR:-} ]]; then
        echo "$SWITCHYARD_BENCH_BUILD_DIR"
        return
    fi
    local build=$benchRoot/build-bench
    mkdir -p "$build"
    cmake -S "$benchRoot" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWITCHYARD_BENCH=ON \
        >"$build/configure.log" 2>&1 || { cat "$build/configure.log" >&2; return 1; }
    cmake --build "$build" -j"${BENCH_JOBS:-1}" --target "$@" \
        >"$build/build.log" 2>&1 || { tail -n 40 "$build/build.log" >&2; return 1; }
    echo "$build"
}
