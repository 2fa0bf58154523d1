#!/bin/bash
# Tiled inference on a GPU machine, one run: build, a pixel-exact check of the whole pipeline on
# the GPU, then end-to-end megapixels/s on a generated SIDE x SIDE scan for
#   (1) Fisura's own U-Net, (2) Fisura running the peer's exported TorchScript U-Net,
#   (3) the Python peer (tifffile + torch, tests/bench/infer_peer.py) with the same weights,
#   and the network alone on the same number of tiles already in GPU memory;
# then the peak RSS on a 50k-px-wide scan.
# Usage: gpu_infer.sh BUILD_DIR OUT_DIR [SIDE] [WORK_DIR]
#   (environment prepared so CMake finds a CUDA LibTorch; python3 with torch and tifffile)
set -u
B=$1
OUT=$2
SIDE=${3:-40000}
W=${4:-/tmp/fisura-infer-bench}
S=$(cd "$(dirname "$0")/../.." && pwd)
PEER="python3 $S/tests/bench/infer_peer.py"
mkdir -p "$W" "$OUT"
log() { echo "== $(date -u +%T) $*" | tee -a "$OUT/session.txt"; }
export PYTHONUNBUFFERED=1

log "build"
{ cmake -S "$S" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFISURA_BUILD_GUI=OFF &&
  cmake --build "$B" -j"$(nproc)" --target fisura-cli bench_infer; } > "$OUT/build.log" 2>&1 ||
  { tail -60 "$OUT/build.log"; exit 1; }
CLI=$B/app/cli/fisura-cli
BI=$B/tests/bench/bench_infer
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee -a "$OUT/session.txt"
git -C "$S" rev-parse --short HEAD 2>/dev/null | tee -a "$OUT/session.txt"

log "pixel-exact check on the GPU: identity TorchScript model, fp32, map == red channel"
$BI scan "$W/small.tif" 3001 2047 deflate
$PEER export-identity "$W/identity.pt"
$CLI infer --model "$W/identity.pt" --in "$W/small.tif" --out "$W/identity_map.tif" --tile 256 \
    --overlap 48 --batch 7 --precision fp32 --compression deflate --json > "$OUT/identity.json" 2>> "$OUT/session.txt"
python3 - "$W/small.tif" "$W/identity_map.tif" <<'PY' | tee -a "$OUT/session.txt"
import sys, numpy as np, tifffile
a = tifffile.imread(sys.argv[1], key=0)[..., 0].astype(int)
b = tifffile.imread(sys.argv[2], key=0).astype(int)
print("identity check: shape", b.shape, "pixels differing:", int((a != b).sum()), "max diff", int(abs(a - b).max()))
PY

log "baseline RSS: the same CLI and U-Net on the small scan (CUDA context, libraries)"
$BI model "$W/unet.fmodel" 16 4
/usr/bin/time -v $CLI infer --model "$W/unet.fmodel" --in "$W/small.tif" --out "$W/small_map.tif" \
    --compression deflate --json > "$OUT/baseline.json" 2> "$OUT/baseline.err"
grep -E "Maximum resident" "$OUT/baseline.err" | tee -a "$OUT/session.txt"

log "scan ${SIDE}x${SIDE}"
[ -f "$W/scan.tif" ] || /usr/bin/time -v $BI scan "$W/scan.tif" "$SIDE" "$SIDE" deflate 2> "$OUT/scan_time.txt"
ls -l "$W/scan.tif" | tee -a "$OUT/session.txt"
$PEER export "$W/peer.pt" --width 16 --depth 4

log "(1) Fisura, own U-Net"
/usr/bin/time -v $CLI infer --model "$W/unet.fmodel" --in "$W/scan.tif" --out "$W/map_native.tif" \
    --compression deflate --json --time-network > "$OUT/native.json" 2> "$OUT/native.err"
grep -E "Maximum resident|Elapsed" "$OUT/native.err" | tee -a "$OUT/session.txt"
BATCH=$(python3 -c "import json;print(json.load(open('$OUT/native.json'))['batch_size'])")
log "batch chosen by the probe: $BATCH"

log "(2) Fisura, the peer's TorchScript U-Net, same batch"
/usr/bin/time -v $CLI infer --model "$W/peer.pt" --in "$W/scan.tif" --out "$W/map_script.tif" \
    --compression deflate --batch "$BATCH" --json --time-network > "$OUT/script.json" 2> "$OUT/script.err"
grep -E "Maximum resident|Elapsed" "$OUT/script.err" | tee -a "$OUT/session.txt"

log "(3) Python peer, same weights, tile, overlap, batch, bf16"
/usr/bin/time -v $PEER run "$W/peer.pt" "$W/scan.tif" "$W/map_peer.tif" --batch "$BATCH" \
    > "$OUT/peer.json" 2> "$OUT/peer.err"
grep -E "Maximum resident|Elapsed" "$OUT/peer.err" | tee -a "$OUT/session.txt"
tail -3 "$OUT/peer.err" | grep -i error | tee -a "$OUT/session.txt"
$PEER compare "$W/map_script.tif" "$W/map_peer.tif" | tee "$OUT/compare.json" | tee -a "$OUT/session.txt"
rm -f "$W/map_peer.tif" "$W/map_script.tif"

log "peak RSS on a 50000 x 12000 scan"
$BI scan "$W/wide.tif" 50000 12000 deflate
/usr/bin/time -v $CLI infer --model "$W/unet.fmodel" --in "$W/wide.tif" --out "$W/map_wide.tif" \
    --compression deflate --batch "$BATCH" --json > "$OUT/wide.json" 2> "$OUT/wide.err"
grep -E "Maximum resident|Elapsed" "$OUT/wide.err" | tee -a "$OUT/session.txt"

log "summary"
python3 - "$OUT" <<'PY' | tee "$OUT/summary.txt"
import json, sys, os
o = sys.argv[1]
n, s, p = (json.load(open(os.path.join(o, f))) for f in ("native.json", "script.json", "peer.json"))
w = json.load(open(os.path.join(o, "wide.json")))
base = json.load(open(os.path.join(o, "baseline.json")))
mp = n["width"] * n["height"] / 1e6
print(f"scan {n['width']}x{n['height']} ({mp:.0f} MP), tile {n['tile']}, overlap {n['overlap']}, batch {n['batch_size']}, {n['precision']}")
for name, r in (("Fisura U-Net", n), ("Fisura TorchScript", s)):
    print(f"{name}: {r['seconds']:.1f} s = {r['megapixels_per_second']:.1f} MP/s; network only "
          f"{r['network_only_seconds']:.1f} s; end-to-end / network {r['end_to_end_over_network']:.2f}; "
          f"peak RSS {r['peak_rss_bytes']/2**20:.0f} MiB; device waited {r['input_wait_seconds']:.1f} s for tiles, "
          f"{r['output_wait_seconds']:.1f} s for the writer; readers busy {r['read_thread_seconds']:.1f} thread-s; "
          f"overviews {r['finish_seconds']:.1f} s; preparation (probe, warm-up) {r['prepare_seconds']:.1f} s")
print(f"Python peer: {p['seconds']:.1f} s = {p['megapixels_per_second']:.1f} MP/s (read {p['read_seconds']:.1f}, "
      f"compute {p['compute_seconds']:.1f}, write {p['write_seconds']:.1f}); peak RSS {p['peak_rss_bytes']/2**20:.0f} MiB")
print(f"Fisura (same TorchScript weights) / peer: {p['seconds']/s['seconds']:.2f}x; Fisura own U-Net / peer: {p['seconds']/n['seconds']:.2f}x")
print(f"  counting Fisura's preparation too: {p['seconds']/(s['seconds']+s['prepare_seconds']):.2f}x and {p['seconds']/(n['seconds']+n['prepare_seconds']):.2f}x")
print(f"baseline (3001x2047 scan, same CLI and model): peak RSS {base['peak_rss_bytes']/2**20:.0f} MiB")
print(f"wide scan {w['width']}x{w['height']}: {w['megapixels_per_second']:.1f} MP/s, peak RSS {w['peak_rss_bytes']/2**20:.0f} MiB, pipeline {w['peak_pipeline_bytes']/2**20:.0f} MiB")
PY
