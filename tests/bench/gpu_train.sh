#!/bin/bash
# Training on one GPU: Fisura (fused BatchNorm + ReLU kernels, the step as one CUDA graph, fused
# AdamW, no per-step read-back) from files and with the batch kept on the GPU, Fisura before the
# BatchNorm fusion, against the PyTorch peer eager and with torch.compile, from files and with
# one batch kept on the GPU. Same U-Net (depth 4, width 32), same BCE + Dice
# loss, AdamW, clipping 1.0, one-cycle schedule, 1024 generated 256-px TIFF scenes read from
# files every epoch, batch 64, bf16, 8 loader threads / workers.
# Usage (repository root, CUDA LibTorch found by CMake): OUT=dir tests/bench/gpu_train.sh
set -u
OUT=${OUT:-/tmp/fisura-train}
B=${BUILD:-/tmp/b-train}
EPOCHS=${EPOCHS:-6}
BATCH=${BATCH:-64}
WORKERS=${WORKERS:-8}
mkdir -p "$OUT"
log() { echo "[$(date +%T)] $*" | tee -a "$OUT/train.log"; }

nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > "$OUT/gpu.txt" 2>&1
log "build"
{ cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFISURA_BUILD_GUI=OFF &&
  cmake --build "$B" -j"$(nproc)" --target fisura-cli bench_train bench_loader; } > "$OUT/build.log" 2>&1 ||
  { tail -40 "$OUT/build.log"; exit 1; }
"$B/app/cli/fisura-cli" demo-data /tmp/synth1024 --segmentation 1024 --classification 0 \
    --patch 256 --scan 0 > /dev/null
D=/tmp/synth1024/segmentation
"$B/tests/bench/bench_loader" "$D" "$WORKERS" 3 "$BATCH" 256 pinned >> "$OUT/loader.jsonl"

fisura() { # label bn source step
    local label=$1; shift
    log "fisura $label"
    "$B/tests/bench/bench_train" "$D" "$EPOCHS" "$BATCH" "$WORKERS" bf16 auto 0 "$@" \
        2>> "$OUT/fisura.err" | sed "s/^{/{\"label\": \"$label\", /" >> "$OUT/fisura.jsonl"
}
peer() { # label, extra flags
    local label=$1; shift
    log "peer $label"
    python3 tests/bench/unet_train_peer.py --data "$D" --epochs "$EPOCHS" --batch "$BATCH" \
        --workers "$WORKERS" --precision bf16 "$@" 2>> "$OUT/peer.err" |
        sed "s/^{/{\"label\": \"$label\", /" >> "$OUT/peer.jsonl"
}
# Alternate the sides so that clocks and caches treat them alike.
fisura files fused files graph
peer eager-gpu-aug --gpu-aug --report-seconds 0.5
fisura batch-on-gpu fused gpu graph
peer compile-gpu-aug --gpu-aug --report-seconds 0.5 --compile
fisura before-bn-fusion eager files eager
peer eager-cpu-aug-loader-bound
fisura files-op-by-op fused files eager
peer ceiling-eager --in-memory --report-seconds 0.5
peer ceiling-compile --in-memory --report-seconds 0.5 --compile
fisura files-run2 fused files graph
log "done"
cat "$OUT/fisura.jsonl" "$OUT/peer.jsonl"
