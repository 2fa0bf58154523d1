#!/bin/bash
# One GPU-machine session: U-Net training images/s of two Fisura source trees (BASE = before the
# side copy stream, NEW = with it) built side by side and run in alternating order on the same
# GPU, the PyTorch peer once for reference, and the crack classifier on real patches
# (prepare_patches.py over the segmentation sets in DATA).
#
# Usage: gpu_copy_stream.sh BASE_SRC NEW_SRC OUT_DIR [DATA_DIR]
# (environment prepared so CMake finds a CUDA LibTorch, e.g. `source .device-deps/env.sh`)
# Environment: EPOCHS (5), BATCH (32), PAIRS (2), CLS_EPOCHS (30), CLS_BATCH (64).
set -u
BASE=$(readlink -f "$1")
NEW=$(readlink -f "$2")
OUT=$3
DATA=${4:-}
EPOCHS=${EPOCHS:-5}
BATCH=${BATCH:-32}
PAIRS=${PAIRS:-2}
W=/tmp/fisura-cs
mkdir -p "$OUT" "$W/logs"
export PYTHONUNBUFFERED=1
log() { echo "[$(date +%T)] $*" | tee -a "$W/logs/session.log"; }
pack() { tar -C "$W" -czf "$OUT/logs.tar.gz" logs; cp "$W/logs/session.log" "$OUT/session.log"; }

nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > "$W/logs/gpu.txt" 2>&1
log "gpu: $(cat "$W/logs/gpu.txt"); $(nproc) cores"
# zstd off: the GPU host's dependency bundle has libzstd's CMake files but not its shared library
# (tiles are then compressed by libtiff itself; training does not write tiles).
build() { # src build_dir
    cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFISURA_BUILD_GUI=OFF \
        -DFISURA_BUILD_TESTS=OFF -DCMAKE_DISABLE_FIND_PACKAGE_zstd=ON &&
        cmake --build "$2" -j8 --target fisura-cli
}
log "build base and new"
build "$BASE" /tmp/b-base > "$W/logs/build_base.log" 2>&1 &
PB=$!
build "$NEW" /tmp/b-new > "$W/logs/build_new.log" 2>&1 &
PN=$!
wait $PB; RB=$?
wait $PN; RN=$?
log "build rc base=$RB new=$RN"
if [ $RB != 0 ] || [ $RN != 0 ]; then
    tail -n 30 "$W/logs/build_base.log" "$W/logs/build_new.log"
    pack; exit 1
fi
grep -h "CUDA:" "$W/logs/build_new.log" | head -1 | tee -a "$W/logs/session.log"

log "data"
/tmp/b-new/app/cli/fisura-cli demo-data /tmp/synth --segmentation 1024 --classification 0 \
    --patch 256 --scan 0 > /dev/null 2>&1 || log "demo-data failed"
if [ -n "$DATA" ]; then
    python3 "$NEW/tests/bench/prepare_patches.py" "$DATA" /tmp/patches >> "$W/logs/session.log" 2>&1 ||
        log "prepare_patches failed"
fi

unet() { # tree workers tag
    log "unet $1 workers=$2 ($3)"
    timeout 120 "/tmp/b-$1/app/cli/fisura-cli" train --task segment --data /tmp/synth/segmentation \
        --out "/tmp/o_$1.fisura" --epochs "$EPOCHS" --batch "$BATCH" --size 256 --depth 4 --width 32 \
        --precision bf16 --workers "$2" --val 0 --patience 0 --quiet \
        > "$W/logs/unet_$3.json" 2>> "$W/logs/unet.log" || log "rc=$?"
}
for i in $(seq 1 "$PAIRS"); do
    if [ $((i % 2)) = 1 ]; then
        unet base 8 "base_w8_$i"; unet new 8 "new_w8_$i"
    else
        unet new 8 "new_w8_$i"; unet base 8 "base_w8_$i"
    fi
done
pack

if [ -d /tmp/patches ]; then
    log "classifier on real patches"
    timeout 240 /tmp/b-new/app/cli/fisura-cli train --task classify --data /tmp/patches \
        --split /tmp/patches/split.json --out /tmp/cls.fisura --epochs "${CLS_EPOCHS:-30}" \
        --batch "${CLS_BATCH:-64}" --size 96 --workers 8 --patience 0 --quiet \
        > "$W/logs/classifier.json" 2>> "$W/logs/classifier.log" || log "rc=$?"
    cp /tmp/patches/summary.json "$W/logs/patches_summary.json" 2>/dev/null
    pack
fi

log "pytorch peer bf16 workers=8"
timeout 90 python3 "$NEW/tests/bench/unet_train_peer.py" --data /tmp/synth/segmentation \
    --epochs "$EPOCHS" --batch "$BATCH" --workers 8 --precision bf16 \
    > "$W/logs/peer.jsonl" 2>> "$W/logs/peer.log" || log "rc=$?"
unet new 14 new_w14_1
unet base 14 base_w14_1
log "done"

python3 - "$W/logs" > "$W/logs/summary.md" <<'PY'
import glob, json, os, statistics, sys
d = sys.argv[1]
print("| run | workers | img/s (epochs 2..) | per epoch | final loss | peak GPU GB |")
print("|---|---:|---:|---|---:|---:|")
rates = {}
for p in sorted(glob.glob(os.path.join(d, "unet_*.json"))):
    try:
        j = json.load(open(p))
    except ValueError:
        continue
    h = j.get("history", [])
    if not h:
        continue
    r = [e["images_per_second"] for e in h]
    s = r[1:] or r
    tag = os.path.basename(p)[5:-5]
    tree, w = tag.split("_")[0], tag.split("_")[1]
    rates.setdefault((tree, w), []).append(sum(s) / len(s))
    print(f"| {tag} | {w[1:]} | {sum(s) / len(s):.0f} | {', '.join(f'{v:.0f}' for v in r)} | "
          f"{h[-1]['train_loss']:.4f} | {max(e.get('gpu_peak_bytes', 0) for e in h) / 1e9:.2f} |")
for w in ("w8", "w14"):
    if ("base", w) in rates and ("new", w) in rates:
        b, n = statistics.mean(rates[("base", w)]), statistics.mean(rates[("new", w)])
        print(f"\n{w}: base {b:.0f} img/s, new {n:.0f} img/s, new/base {n / b:.3f}")
try:
    j = json.loads(open(os.path.join(d, "peer.jsonl")).read().strip().splitlines()[-1])
    print(f"\npeer: {j['images_per_second']:.0f} img/s ({j['torch']}, {j['device']})")
except (OSError, ValueError, IndexError):
    pass
try:
    j = json.load(open(os.path.join(d, "classifier.json")))
    for e in j["history"][-1:] + [j["best"]]:
        print(f"\nclassifier epoch {e['epoch'] + 1}: " + ", ".join(
            f"{k} {e[k]:.4f}" for k in ("accuracy", "precision", "recall", "f1", "val_loss",
                                        "train_loss", "images_per_second") if k in e))
    print(f"classifier job: {j['seconds']:.1f} s, batch {j['final_batch_size']}, "
          f"precision {j['policy']['precision']}")
except (OSError, ValueError, KeyError):
    pass
PY
cat "$W/logs/summary.md"
cp "$W/logs/summary.md" "$OUT/summary.md"
pack
