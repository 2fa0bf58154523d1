#!/bin/bash
# Patch statistics on the GPU host, one command: build core + the benchmark (CUDA LibTorch from
# Python torch, .device-deps for OpenCV/libtiff, see ../shared/device/README.md), run the GPU
# check and the timings (fisura-bench-patchstats), the Python peers (peers.py), and write one
# markdown table + one JSON. Run from anywhere:
#   bash tests/bench/patchstats/run.sh OUT_DIR      (or OUT=... bash tests/bench/patchstats/run.sh)
# Environment: BUILD (build folder, default /tmp/fisura-build-patchstats), REPS (default 20),
# CPU_REPS (default 3), NUMPY_PIXELS (default 200). Exit code: 0 all ran and the check passed.
set -euo pipefail
S=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
OUT=${1:-${OUT:-/tmp/fisura-patchstats}}
B=${BUILD:-/tmp/fisura-build-patchstats}
REPS=${REPS:-20}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
HERE="$S/tests/bench/patchstats"
trap 'echo "run.sh: FAILED at line $LINENO: $BASH_COMMAND (logs in $OUT)" >&2' ERR
log() { echo "[$(date +%T)] $*" | tee -a "$OUT/run.log"; }
status=0

if [ -f "$S/.device-deps/env.sh" ]; then
    # shellcheck disable=SC1091
    set +u; source "$S/.device-deps/env.sh"; set -u
else
    log "no .device-deps/env.sh: relying on the environment's CMAKE_PREFIX_PATH"
fi
# CMake's CUDA language (Fisura's kernels) looks for nvcc on PATH or in CUDACXX.
if ! command -v nvcc > /dev/null && [ -x /usr/local/cuda/bin/nvcc ] && [ -z "${CUDACXX:-}" ]; then
    export CUDACXX=/usr/local/cuda/bin/nvcc
fi
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader \
    > "$OUT/gpu.txt" 2>&1 || log "nvidia-smi failed (no GPU?)"

build() { # build DIR [extra cmake args]: configure + build the benchmark, log in $OUT/build*.log
    local dir=$1; shift
    { cmake -S "$S" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFISURA_BUILD_GUI=OFF \
          -DFISURA_BUILD_TESTS=OFF -DFISURA_BUILD_BENCH=ON "$@" &&
      cmake --build "$dir" -j"$(nproc)" --target fisura-bench-patchstats; } >> "$OUT/build.log" 2>&1
}
log "configure + build in $B"
if ! build "$B"; then
    tail -40 "$OUT/build.log" >&2
    # The kernels are the only part that needs CMake's CUDA language: without them the LibTorch
    # path still gives the check and the timings.
    echo "run.sh: FAILED: build with Fisura's CUDA kernels; trying without them" >&2
    status=1
    B="$B-nokernels"
    if ! build "$B" -DFISURA_ENABLE_CUDA_KERNELS=OFF; then
        tail -60 "$OUT/build.log" >&2
        echo "run.sh: FAILED: build (full log $OUT/build.log)" >&2
        exit 2
    fi
fi
grep "Fisura .*LibTorch" "$OUT/build.log" | tail -1 | tee -a "$OUT/run.log" || true

log "fisura-bench-patchstats"
BENCH="$B/tests/bench/patchstats/fisura-bench-patchstats"
set +e
"$BENCH" --json "$OUT/fisura.json" --reps "$REPS" --cpu-reps "${CPU_REPS:-3}" 2>&1 | tee "$OUT/fisura.log"
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -eq 1 ]; then
    echo "run.sh: FAILED: GPU check (see the FAIL lines in $OUT/fisura.log)" >&2
    status=1
elif [ "$rc" -ne 0 ]; then
    # An error (a kernel fault poisons the CUDA context): keep what it wrote, run again on the
    # LibTorch path only so that the comparison still has Fisura's numbers.
    echo "run.sh: FAILED: fisura-bench-patchstats exit $rc; again without the kernels" >&2
    status=1
    mv -f "$OUT/fisura.json" "$OUT/fisura_failed.json" 2> /dev/null || true
    "$BENCH" --json "$OUT/fisura.json" --reps "$REPS" --cpu-reps "${CPU_REPS:-3}" --no-kernels \
        2>&1 | tee "$OUT/fisura_nokernels.log" ||
        echo "run.sh: FAILED: fisura-bench-patchstats --no-kernels (see $OUT/fisura_nokernels.log)" >&2
fi

log "python peers"
if ! python3 "$HERE/peers.py" --json "$OUT/peers.json" --reps "$REPS" \
        --numpy-pixels "${NUMPY_PIXELS:-200}" 2>&1 | tee "$OUT/peers.log"; then
    echo "run.sh: FAILED: peers.py (see $OUT/peers.log)" >&2
    status=1
fi

log "report"
python3 "$HERE/report.py" "$OUT/fisura.json" "$OUT/peers.json" "$OUT/results.md" \
    "$OUT/results.json" || { echo "run.sh: FAILED: report.py" >&2; status=1; }
log "done: $OUT/results.md, $OUT/results.json (exit $status)"
exit $status
