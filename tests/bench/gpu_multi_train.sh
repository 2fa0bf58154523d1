#!/bin/bash
# Data-parallel training on the GPUs of one host: Fisura 1 GPU against N GPUs (one process per
# GPU under torchrun, NCCL), with the batch kept on the device and with data read from files;
# the same N-GPU job with NCCL kept off NVLink/shared memory (NCCL_P2P_DISABLE, NCCL_SHM_DISABLE:
# the transport two hosts would use), fisura-cli's own launcher (--gpus), and the PyTorch DDP
# peer (tests/bench/unet_ddp_peer.py) on the same data; then the loss per epoch of 1 GPU with the
# N-GPU global batch against the N-GPU job. Writes $OUT/dist.md (a table) and the JSON lines.
# U-Net depth 4, width 32, 256 px, bf16, AdamW, clipping 1.0, batch $BATCH per GPU.
# Usage (repository root of the GPU host; .device-deps from ../shared/device/README.md):
#   OUT=dir GPUS=2 tests/bench/gpu_multi_train.sh
set -u
OUT=${OUT:-/tmp/fisura-dist}
B=${BUILD:-/tmp/b-dist}
EPOCHS=${EPOCHS:-4}
BATCH=${BATCH:-64}
WORKERS=${WORKERS:-6}
IMAGES=${IMAGES:-2048}
GPUS=${GPUS:-$(nvidia-smi -L | wc -l)}
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}
mkdir -p "$OUT"
log() { echo "[$(date +%T)] $*" | tee -a "$OUT/dist.log"; }
[ -f .device-deps/env.sh ] && source .device-deps/env.sh

nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > "$OUT/gpu.txt" 2>&1
nvidia-smi topo -m > "$OUT/topo.txt" 2>&1
log "build ($GPUS GPUs)"
{ cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFISURA_BUILD_GUI=OFF &&
  cmake --build "$B" -j"$(nproc)" --target fisura-cli bench_train_dist; } > "$OUT/build.log" 2>&1 ||
  { tail -40 "$OUT/build.log"; exit 1; }
grep -q "data-parallel training: .*NCCL ON" "$OUT/build.log" "$B/CMakeCache.txt" 2>/dev/null ||
  grep "data-parallel" "$OUT/build.log"
grep -q "data-parallel training: gloo [A-Z]*, NCCL ON" "$OUT/build.log" ||
  { log "NCCL not found by CMake (see $B/CMakeFiles/CMakeConfigureLog.yaml; -DNCCL_INCLUDE_DIR=...)"; exit 1; }
D=/tmp/synth$IMAGES
[ -d "$D/segmentation" ] || "$B/app/cli/fisura-cli" demo-data "$D" --segmentation "$IMAGES" \
    --classification 0 --patch 256 --scan 0 > /dev/null
D=$D/segmentation
RUN="python3 -m torch.distributed.run --standalone --nproc-per-node"

fisura() { # label world source [env...]
    local label=$1 world=$2 source=$3; shift 3
    log "fisura $label"
    if [ "$world" -eq 1 ]; then
        env "$@" "$B/tests/bench/bench_train_dist" "$D" "$EPOCHS" "$BATCH" "$WORKERS" "$source"
    else
        env "$@" $RUN "$world" --no-python "$B/tests/bench/bench_train_dist" "$D" "$EPOCHS" \
            "$BATCH" "$WORKERS" "$source"
    fi 2>> "$OUT/fisura.err" | sed "s/^{/{\"label\": \"$label\", /" >> "$OUT/fisura.jsonl"
}
peer() { # label world [flags]
    local label=$1 world=$2; shift 2
    log "peer $label"
    $RUN "$world" tests/bench/unet_ddp_peer.py --data "$D" --epochs "$EPOCHS" --batch "$BATCH" \
        --workers "$WORKERS" "$@" 2>> "$OUT/peer.err" |
        sed "s/^{/{\"label\": \"$label\", /" >> "$OUT/peer.jsonl"
}
rm -f "$OUT/fisura.jsonl" "$OUT/peer.jsonl"
fisura gpu-1 1 gpu
fisura "gpu-$GPUS" "$GPUS" gpu
peer "ddp-gpu-1" 1 --in-memory
peer "ddp-gpu-$GPUS" "$GPUS" --in-memory
fisura files-1 1 files
fisura "files-$GPUS" "$GPUS" files
peer "ddp-files-1" 1
peer "ddp-files-$GPUS" "$GPUS"
fisura "files-$GPUS-sockets" "$GPUS" files NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1
# The loss curve: one GPU with the N-GPU global batch (BATCH x GPUS) from files.
BATCH_SAVED=$BATCH; BATCH=$((BATCH * GPUS)); fisura "files-1-global-batch" 1 files; BATCH=$BATCH_SAVED

log "fisura-cli train --gpus $GPUS (launcher, model written once, exit 0)"
rm -f /tmp/dist-cli.fisura*
"$B/app/cli/fisura-cli" train --task segment --data "$D" --out /tmp/dist-cli.fisura --epochs 1 \
    --max-batches 20 --batch "$BATCH" --size 256 --depth 4 --width 32 --precision bf16 \
    --gpus "$GPUS" > "$OUT/cli.json" 2> "$OUT/cli.err"
echo "fisura-cli --gpus $GPUS: exit $?, model $(ls /tmp/dist-cli.fisura 2>/dev/null || echo missing)" |
    tee -a "$OUT/dist.log"
grep "policy: \(data_parallel\|gpu\|batch_per_process\|training_step\)" "$OUT/cli.err" | tee -a "$OUT/dist.log"

python3 - "$OUT" "$GPUS" <<'PY' | tee "$OUT/dist.md"
import json, sys
out, n = sys.argv[1], sys.argv[2]
rows = {}
for f in ("fisura.jsonl", "peer.jsonl"):
    try:
        for line in open(f"{out}/{f}"):
            j = json.loads(line); rows[j["label"]] = j
    except FileNotFoundError:
        pass
def ips(k): return rows.get(k, {}).get("images_per_second", 0.0)
print(f"| run | 1 GPU img/s | {n} GPUs img/s | scaling |\n|---|---|---|---|")
for name, a, b in [("Fisura, batch on the device", "gpu-1", f"gpu-{n}"),
                   ("PyTorch DDP, batch on the device", "ddp-gpu-1", f"ddp-gpu-{n}"),
                   ("Fisura, from files", "files-1", f"files-{n}"),
                   ("PyTorch DDP, from files", "ddp-files-1", f"ddp-files-{n}"),
                   ("Fisura, from files, NCCL over sockets", "files-1", f"files-{n}-sockets")]:
    x, y = ips(a), ips(b)
    print(f"| {name} | {x:.0f} | {y:.0f} | {y / x if x else 0:.2f}x |")
print()
print("loss per epoch, 1 GPU with the global batch:", rows.get("files-1-global-batch", {}).get("epoch_loss"))
print(f"loss per epoch, {n} GPUs:                    ", rows.get(f"files-{n}", {}).get("epoch_loss"))
print("step:", rows.get(f"gpu-{n}", {}).get("training_step"), "| 1 GPU:", rows.get("gpu-1", {}).get("training_step"))
PY
log "done"
