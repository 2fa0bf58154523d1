#!/bin/bash
# U-Net training throughput, Fisura (fisura-cli train) vs the PyTorch peer, on one GPU machine,
# plus a real-data run on DeepCrack. Run from the repository root with OUT set; DEEPCRACK points
# at the DeepCrack folder (train/, test/). Writes everything under $OUT.
set -u
OUT=${OUT:-/tmp/fisura-bench}
mkdir -p "$OUT"
B=${BUILD:-/tmp/b}
EPOCHS=${EPOCHS:-6}
BATCH=${BATCH:-32}
WORKERS=${WORKERS:-8}
log() { echo "[$(date +%T)] $*" | tee -a "$OUT/bench.log"; }

nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > "$OUT/gpu.txt" 2>&1
log "build"
if ! { cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFISURA_BUILD_GUI=OFF -DFISURA_BUILD_TESTS=OFF \
       && cmake --build "$B" -j16 --target fisura-cli; } > "$OUT/build.log" 2>&1; then
    tail -40 "$OUT/build.log"; exit 1
fi
CLI="$B/app/cli/fisura-cli"
"$CLI" info --json > "$OUT/info.json"
log "data"
"$CLI" demo-data /tmp/synth --segmentation 1024 --classification 0 --patch 256 --scan 0 --json >> "$OUT/bench.log"
python3 tests/bench/prepare_deepcrack.py "$DEEPCRACK" /tmp/deepcrack >> "$OUT/bench.log" 2>&1

ours() { # precision
    log "fisura $1"
    "$CLI" train --task segment --data /tmp/synth/segmentation --out /tmp/o_$1.fisura --epochs "$EPOCHS" \
        --batch "$BATCH" --size 256 --depth 4 --width 32 --precision "$1" --workers "$WORKERS" --val 0 \
        --patience 0 --quiet > "$OUT/fisura_$1.json" 2>> "$OUT/fisura.log"
}
peer() { # precision [--compile]
    log "pytorch $*"
    PYTHONUNBUFFERED=1 python3 tests/bench/unet_train_peer.py --data /tmp/synth/segmentation --epochs "$EPOCHS" \
        --batch "$BATCH" --workers "$WORKERS" --precision "$@" >> "$OUT/peer.jsonl" 2>> "$OUT/peer.log"
}
ours bf16
peer bf16
log "deepcrack"
timeout ${DEEPCRACK_SECONDS:-150} "$CLI" train --task segment --data /tmp/deepcrack --split /tmp/deepcrack/split.json \
    --out /tmp/deepcrack.fisura --epochs ${DEEPCRACK_EPOCHS:-60} --batch 16 --size 256 --depth 4 --width 32 \
    --workers "$WORKERS" --patience 0 --quiet > "$OUT/deepcrack.json" 2>> "$OUT/deepcrack.log"
ours fp32
peer fp32
peer bf16 --compile
log "done"
