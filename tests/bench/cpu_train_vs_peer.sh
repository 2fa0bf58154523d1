#!/bin/bash
# U-Net training throughput on the CPU: `fisura-cli train` vs the PyTorch peer running on Debian's
# python3-torch (the same LibTorch 1.13 that Fisura links on Debian). Same network, batch, crop,
# loss, schedule, augmentation and TIFF files; fp32; a short fixed number of steps.
# Runs alternate (Fisura, PyTorch, Fisura, PyTorch, ...) so a background load hits both alike;
# the 1-minute load average is logged after each run.
#
# Usage: cpu_train_vs_peer.sh FISURA_CLI WORK_DIR [PAIRS]
# Environment: PY (default /usr/bin/python3, which has python3-torch), BATCH (8), SIZE (128),
#   DEPTH (4), WIDTH (32), EPOCHS (3: epoch 1 is warm-up), STEPS (batches per epoch, 4),
#   WORKERS (loader threads / DataLoader processes, 1), IMAGES (64 generated scenes).
# Needs: apt-get install python3-torch python3-pil (benchmark only, not a Fisura dependency).
set -u
CLI=$(readlink -f "$1")
W=$2
PAIRS=${3:-2}
PY=${PY:-/usr/bin/python3}
BATCH=${BATCH:-8}
SIZE=${SIZE:-128}
DEPTH=${DEPTH:-4}
WIDTH=${WIDTH:-32}
EPOCHS=${EPOCHS:-3}
STEPS=${STEPS:-4}
WORKERS=${WORKERS:-1}
IMAGES=${IMAGES:-64}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$W"
log() { echo "[$(date +%T)] $*" | tee -a "$W/bench.log"; }
load1() { cut -d' ' -f1 /proc/loadavg; }

if [ ! -d "$W/synth/segmentation" ]; then
    "$CLI" demo-data "$W/synth" --segmentation "$IMAGES" --classification 0 --patch 256 --scan 0 \
        > /dev/null || exit 1
fi
log "cpu: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
log "torch: $($PY -c 'import torch; print(torch.__version__, "threads", torch.get_num_threads())')"
log "load before: $(cat /proc/loadavg)"

: > "$W/results.jsonl"
ours() {
    local t0=$(date +%s.%N)
    "$CLI" train --task segment --data "$W/synth/segmentation" --out "$W/o.fisura" --cpu \
        --precision fp32 --epochs "$EPOCHS" --max-batches "$STEPS" --batch "$BATCH" --size "$SIZE" \
        --depth "$DEPTH" --width "$WIDTH" --workers "$WORKERS" --val 0 --patience 0 --quiet \
        > "$W/fisura_$1.json" 2>> "$W/fisura.log" || { log "fisura failed"; return; }
    local t1=$(date +%s.%N)
    "$PY" - "$W/fisura_$1.json" "$1" "$(load1)" "$t0" "$t1" >> "$W/results.jsonl" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
r = [h["images_per_second"] for h in j["history"]]
s = r[1:] or r
print(json.dumps({"tool": "fisura", "run": int(sys.argv[2]), "epoch_images_per_second": r,
                  "images_per_second": sum(s) / len(s), "final_loss": j["history"][-1]["train_loss"],
                  "wall_seconds": float(sys.argv[5]) - float(sys.argv[4]), "load_after": float(sys.argv[3])}))
PY
}
peer() {
    local t0=$(date +%s.%N)
    "$PY" "$HERE/unet_train_peer.py" --device cpu --precision fp32 --data "$W/synth/segmentation" \
        --epochs "$EPOCHS" --max-batches "$STEPS" --batch "$BATCH" --size "$SIZE" --depth "$DEPTH" \
        --width "$WIDTH" --workers "$WORKERS" > "$W/peer_$1.json" 2>> "$W/peer.log" ||
        { log "peer failed"; return; }
    local t1=$(date +%s.%N)
    "$PY" - "$W/peer_$1.json" "$1" "$(load1)" "$t0" "$t1" >> "$W/results.jsonl" <<'PY'
import json, sys
j = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
print(json.dumps({"tool": "pytorch", "run": int(sys.argv[2]),
                  "epoch_images_per_second": j["epoch_images_per_second"],
                  "images_per_second": j["images_per_second"], "threads": j["threads"],
                  "wall_seconds": float(sys.argv[5]) - float(sys.argv[4]), "load_after": float(sys.argv[3])}))
PY
}
for i in $(seq 1 "$PAIRS"); do
    log "pair $i: fisura"
    ours "$i"
    log "pair $i: pytorch"
    peer "$i"
done
"$PY" - "$W/results.jsonl" <<'PY' | tee -a "$W/bench.log"
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print("| run | tool | img/s (epochs 2..) | per epoch | wall (s) | load after |")
print("|---|---|---:|---|---:|---:|")
for r in rows:
    print(f'| {r["run"]} | {r["tool"]} | {r["images_per_second"]:.2f} | '
          f'{", ".join(f"{v:.2f}" for v in r["epoch_images_per_second"])} | {r["wall_seconds"]:.1f} | {r["load_after"]:.2f} |')
f = [r["images_per_second"] for r in rows if r["tool"] == "fisura"]
p = [r["images_per_second"] for r in rows if r["tool"] == "pytorch"]
if f and p:
    print(f"median img/s: Fisura {statistics.median(f):.2f}, PyTorch {statistics.median(p):.2f}, "
          f"ratio {statistics.median(f) / statistics.median(p):.2f}x; per pair: "
          + ", ".join(f"{a / b:.2f}" for a, b in zip(f, p)))
PY
