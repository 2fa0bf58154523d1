#!/bin/bash
# Follow-up on a warm machine after gpu_train_vs_peer.sh: is the PyTorch peer limited by its loader?
# Peer with one batch kept on the GPU (compute ceiling) and with more workers; Fisura again.
set -u
OUT=${OUT:-/tmp/fisura-bench}
B=${BUILD:-/tmp/b}
log() { echo "[$(date +%T)] $*" | tee -a "$OUT/bench2.log"; }
if [ ! -x "$B/app/cli/fisura-cli" ] || [ ! -d /tmp/synth ]; then
    log "cold machine: full set-up"
    cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFISURA_BUILD_GUI=OFF -DFISURA_BUILD_TESTS=OFF > "$OUT/build2.log" 2>&1
    cmake --build "$B" -j16 --target fisura-cli >> "$OUT/build2.log" 2>&1 || { tail -30 "$OUT/build2.log"; exit 1; }
    "$B/app/cli/fisura-cli" demo-data /tmp/synth --segmentation 1024 --classification 0 --patch 256 --scan 0 > /dev/null
fi
peer() {
    log "pytorch $*"
    PYTHONUNBUFFERED=1 python3 tests/bench/unet_train_peer.py --data /tmp/synth/segmentation --epochs 6 --batch 32 "$@" \
        >> "$OUT/peer2.jsonl" 2>> "$OUT/peer2.log"
}
peer --workers 8 --precision bf16 --in-memory
peer --workers 14 --precision bf16
log "fisura bf16 14 workers"
"$B/app/cli/fisura-cli" train --task segment --data /tmp/synth/segmentation --out /tmp/o2.fisura --epochs 6 --batch 32 \
    --size 256 --depth 4 --width 32 --precision bf16 --workers 14 --val 0 --patience 0 --quiet > "$OUT/fisura_bf16_w14.json" 2>> "$OUT/fisura2.log"
peer --workers 8 --precision fp32 --in-memory
log "done"
