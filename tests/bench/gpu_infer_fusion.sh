#!/bin/bash
# Inference with cuDNN's fused convolution + bias + ReLU on the folded U-Net: network-only MP/s
# and the map against the unfused network (bench_infer net), the PyTorch variants of the same
# network (infer_fusion_probe.py: eager, folded, folded + the same cuDNN call, torch.compile), and
# Fisura end to end on a scan with its network-only time (fisura-cli infer --time-network).
# Usage (repository root, CUDA LibTorch found by CMake): OUT=dir tests/bench/gpu_infer_fusion.sh [SIDE]
set -u
OUT=${OUT:-/tmp/fisura-infer-fusion}
B=${BUILD:-/tmp/b-train}
SIDE=${1:-20000}
W=/tmp/fisura-fusion
mkdir -p "$OUT" "$W"
log() { echo "[$(date +%T)] $*" | tee -a "$OUT/log.txt"; }
log "build"
{ cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFISURA_BUILD_GUI=OFF &&
  cmake --build "$B" -j"$(nproc)" --target fisura-cli bench_infer; } > "$OUT/build.log" 2>&1 ||
  { grep -B2 -A12 error "$OUT/build.log" | head -60; exit 1; }
BI=$B/tests/bench/bench_infer
$BI model "$W/unet.fmodel" 16 4
$BI scan "$W/small.tif" 3001 2047 deflate
for mode in separate fused separate fused; do
    $BI net "$W/unet.fmodel" "$W/small.tif" "$W/map_$mode.raw" $mode | tee -a "$OUT/net.jsonl"
done
python3 - "$W/map_separate.raw" "$W/map_fused.raw" <<'PY' | tee -a "$OUT/log.txt"
import sys, numpy as np
a = np.fromfile(sys.argv[1], np.uint8).astype(int); b = np.fromfile(sys.argv[2], np.uint8).astype(int)
print("map fused vs separate: pixels", a.size, "max grey-level difference", int(abs(a - b).max()),
      "share differing", float((a != b).mean()))
PY
log "PyTorch variants"
python3 tests/bench/infer_fusion_probe.py 2>&1 | grep -v -i warn | tee -a "$OUT/probe.txt" | tail -8
log "end to end ${SIDE}x${SIDE}"
[ -f "$W/scan.tif" ] || $BI scan "$W/scan.tif" "$SIDE" "$SIDE" deflate
$B/app/cli/fisura-cli infer --model "$W/unet.fmodel" --in "$W/scan.tif" --out "$W/map.tif" \
    --compression deflate --json --time-network > "$OUT/e2e.json" 2> "$OUT/e2e.err"
python3 - "$OUT/e2e.json" <<'PY' | tee -a "$OUT/log.txt"
import json, sys
r = json.load(open(sys.argv[1]))
keys = {k: r[k] for k in r if any(s in k for s in ("second", "megapixel", "network", "batch", "precision"))}
print(json.dumps(keys))
PY
