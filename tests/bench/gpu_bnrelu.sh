#!/bin/bash
# Fused BatchNorm + ReLU: agreement with LibTorch's BatchNorm2d + ReLU (outputs, gradients,
# running statistics; exit status 1 when they disagree) and forward + backward time per U-Net
# level (bench_bnrelu). The training comparison with and without it is gpu_train.sh.
# Usage (repository root, CUDA LibTorch found by CMake): OUT=dir tests/bench/gpu_bnrelu.sh
set -u
OUT=${OUT:-/tmp/fisura-bnrelu}
B=${BUILD:-/tmp/b-train}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > "$OUT/gpu.txt" 2>&1
{ cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFISURA_BUILD_GUI=OFF &&
  cmake --build "$B" -j"$(nproc)" --target bench_bnrelu; } > "$OUT/build.log" 2>&1 ||
  { tail -40 "$OUT/build.log"; exit 1; }
"$B/tests/bench/bench_bnrelu" 50 | tee "$OUT/bnrelu.txt"
