#!/bin/bash
# Fused BatchNorm + ReLU: agreement with LibTorch's modules and time per level (bench_bnrelu),
# then the training step with and without it, from files and with the batch kept on the GPU
# (bench_train), optionally next to the PyTorch peer (PEERS=1).
# Usage (repository root, CUDA LibTorch found by CMake): OUT=dir tests/bench/gpu_bnrelu.sh
set -u
OUT=${OUT:-/tmp/fisura-bnrelu}
B=${BUILD:-/tmp/b-train}
EPOCHS=${EPOCHS:-6}
BATCH=${BATCH:-64}
WORKERS=${WORKERS:-8}
mkdir -p "$OUT"
log() { echo "[$(date +%T)] $*" | tee -a "$OUT/train.log"; }

nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > "$OUT/gpu.txt" 2>&1
log "build"
{ cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFISURA_BUILD_GUI=OFF &&
  cmake --build "$B" -j"$(nproc)" --target fisura-cli bench_train bench_bnrelu; } > "$OUT/build.log" 2>&1 ||
  { tail -40 "$OUT/build.log"; exit 1; }
grep -i "kernels:" "$OUT/build.log" | head -2
log "bench_bnrelu"
"$B/tests/bench/bench_bnrelu" 50 | tee "$OUT/bnrelu.txt" || { log "kernels disagree"; exit 1; }
"$B/app/cli/fisura-cli" demo-data /tmp/synth1024 --segmentation 1024 --classification 0 \
    --patch 256 --scan 0 > /dev/null
D=/tmp/synth1024/segmentation

fisura() { # bn source
    log "fisura bn=$1 source=$2"
    "$B/tests/bench/bench_train" "$D" "$EPOCHS" "$BATCH" "$WORKERS" bf16 auto 0 "$1" "$2" \
        >> "$OUT/fisura.jsonl" 2>> "$OUT/fisura.err"
}
peer() { # label, extra flags
    local label=$1; shift
    log "peer $label"
    python3 tests/bench/unet_train_peer.py --data "$D" --epochs "$EPOCHS" --batch "$BATCH" \
        --workers "$WORKERS" --precision bf16 "$@" 2>> "$OUT/peer.err" |
        sed "s/^{/{\"label\": \"$label\", /" >> "$OUT/peer.jsonl"
}
fisura eager files
fisura fused files
fisura eager gpu
fisura fused gpu
if [ "${PEERS:-0}" = 1 ]; then
    peer eager-gpu-aug --gpu-aug --report-seconds 0.5
    fisura fused files
    peer compile-gpu-aug --gpu-aug --report-seconds 0.5 --compile
    peer ceiling-eager --in-memory --report-seconds 0.5
    fisura fused gpu
    peer ceiling-compile --in-memory --report-seconds 0.5 --compile
fi
log "done"
cat "$OUT/fisura.jsonl" "$OUT/peer.jsonl" 2>/dev/null
