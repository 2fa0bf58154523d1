#!/bin/sh
# Builds the libFuzzer targets (clang, FISURA_FUZZ) and runs each for SECONDS (default 60), one
# at a time, niced, with seed corpora made on the fly. Crashes land in
# BUILD/corpus/artifacts-<target>/; copy a minimised one into tests/fuzz/regressions/<target>/
# (see README.md here) once fixed.
# Usage: tests/fuzz/run_fuzzers.sh [SECONDS] [BUILD_DIR]   (from the repository root)
set -eu
secs=${1:-60}
build=${2:-build-fuzz}
src=$(cd "$(dirname "$0")/../.." && pwd)
shared="$src/../shared/data"

# FISURA_FUZZ_TARGETS: a subset, e.g. "project manifest" (default: all).
names=${FISURA_FUZZ_TARGETS:-"tiff model_meta project split manifest options container jsontext labels queue"}
targets=""
for t in $names; do targets="$targets fuzz_$t"; done

if [ ! -f "$build/build.ninja" ]; then
    cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_COMPILER=clang++-14 -DFISURA_FUZZ=ON -DFISURA_BUILD_GUI=OFF
fi
# FISURA_BUILD_LOCK: a lock file that queues builds on a shared machine (flock).
if [ -n "${FISURA_BUILD_LOCK:-}" ]; then
    flock "$FISURA_BUILD_LOCK" ninja -C "$build" -j2 $targets
else
    ninja -C "$build" $targets
fi

corpus="$build/corpus"
for t in $names; do
    mkdir -p "$corpus/$t" "$corpus/seeds-$t" "$corpus/artifacts-$t"
    cp "$src/tests/fuzz/seeds/$t/"* "$corpus/seeds-$t/" 2>/dev/null || true
done
if [ "$(ls "$corpus/seeds-tiff" | wc -l)" -lt 20 ]; then
    sh "$src/tests/fuzz/make_tiff_seeds.sh" "$corpus/seeds-tiff" "$shared" >/dev/null || true
    find "$corpus/seeds-tiff" -size +128k -delete
fi

run() { # run TARGET DICT MAXLEN
    t=$1
    nice -n 19 "$build/tests/fuzz/fuzz_$t" "$corpus/$t" "$corpus/seeds-$t" -dict="$2" \
        -max_len="$3" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 \
        -artifact_prefix="$corpus/artifacts-$t/" -print_final_stats=1 >"$corpus/fuzz_$t.log" 2>&1 ||
        true # a finding: its input is in artifacts-$t, the other targets still run
    echo "fuzz_$t: $(grep -E '^#[0-9]+.*(DONE|cov:)' "$corpus/fuzz_$t.log" | tail -1)"
    grep -E 'stat::(number_of_executed_units|average_exec_per_sec)' "$corpus/fuzz_$t.log" || true
    ls "$corpus/artifacts-$t"
}
for t in $names; do
    case $t in
    tiff) run tiff "$src/tests/fuzz/tiff.dict" 131072 ;;
    container) run container "$src/tests/fuzz/zip.dict" 65536 ;;
    project | manifest) run "$t" "$src/tests/fuzz/json.dict" 16384 ;;
    *) run "$t" "$src/tests/fuzz/json.dict" 4096 ;;
    esac
done
