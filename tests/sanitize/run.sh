#!/bin/bash
# Builds Fisura with sanitizers and runs its tests under them (see tests/sanitize/RESULTS.md).
#
#   tests/sanitize/run.sh asan   # ASan + UBSan: every test except the package test, in build-asan
#   tests/sanitize/run.sh tsan   # ThreadSanitizer: core and the tests of its threaded parts, in build-tsan
#   tests/sanitize/run.sh        # both
#
# Environment: JOBS (ninja -j, default 2), BUILD_WRAPPER (a command put before every ninja, e.g.
# "flock /path/to/build.lock" where several builds share a machine), CTEST_ARGS (extra ctest
# arguments, e.g. "-R tst_infer").
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/tests/sanitize"
jobs=${JOBS:-2}
wrap=${BUILD_WRAPPER:-}
# -O1 keeps the builds and the instrumented tests reasonably fast; -g1 gives line numbers in the
# reports without full debug information.
flags="-O1 -g1 -DNDEBUG"

# The threaded parts of core: tile cache and parallel tile decoding, one decode per block
# (tst_tiledimage), the map writer's task pool, band and file threads (tst_tiledimage,
# tst_taskpool, tst_serialworker), the batch loader's queue (tst_dataset, tst_train), the
# inference pipeline with CPU models, also split into column bands (tst_infer, tst_infer_multi),
# the telemetry sampler (tst_device) and training on its own thread (tst_train); tst_progress
# starts no thread but is cheap.
tsan_tests="tst_tiledimage tst_tiledwriter tst_taskpool tst_serialworker tst_dataset tst_device tst_progress tst_infer tst_infer_multi tst_train"

run_asan() {
    cmake -S "$root" -B "$root/build-asan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DFISURA_SANITIZE=ON -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$flags"
    $wrap ninja -C "$root/build-asan" -j"$jobs"
    export ASAN_OPTIONS="detect_leaks=1:check_initialization_order=1:strict_init_order=1"
    export LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    # The package test builds .debs and installs them into a fresh Debian root: it tests the
    # packaging, not Fisura's code, and a sanitized build is not what gets packaged.
    # tst_dataset checks that the loader's resident memory stays flat over an epoch; ASan keeps
    # freed blocks in a quarantine (256 MiB by default) before reusing them, so resident memory
    # grows with everything the epoch allocated. That one test runs with a quarantine smaller than
    # the 16 MiB the test allows; every other test keeps the default.
    local rc=0
    (cd "$root/build-asan" && ctest -LE package -E '^tst_dataset$' --output-on-failure ${CTEST_ARGS:-}) || rc=$?
    (cd "$root/build-asan" && ASAN_OPTIONS="$ASAN_OPTIONS:quarantine_size_mb=4" \
        ctest -R '^tst_dataset$' --output-on-failure) || rc=$?
    return $rc
}

run_tsan() {
    cmake -S "$root" -B "$root/build-tsan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DFISURA_TSAN=ON -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$flags"
    # shellcheck disable=SC2086
    $wrap ninja -C "$root/build-tsan" -j"$jobs" fisura_core $tsan_tests
    export TSAN_OPTIONS="suppressions=$here/tsan.supp:second_deadlock_stack=1"
    local regex
    regex="^($(echo $tsan_tests | tr ' ' '|'))\$"
    (cd "$root/build-tsan" && ctest -R "$regex" --output-on-failure ${CTEST_ARGS:-})
}

case "${1:-all}" in
asan) run_asan ;;
tsan) run_tsan ;;
all) run_asan && run_tsan ;;
*) echo "usage: $0 [asan|tsan|all]" >&2; exit 2 ;;
esac
