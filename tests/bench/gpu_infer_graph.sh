#!/bin/bash
# Inference network at the device's ceiling: what each step gives, network only (bench_infer
# net, MP/s of 512² tiles, batch chosen by the probe) and end to end (fisura-cli infer with its
# network-only time), next to the PyTorch variants of the same network at the same batch
# (infer_fusion_probe.py: eager, folded, folded + the same cuDNN call, torch.compile, and with
# --all-modes torch.compile's reduce-overhead and max-autotune-no-cudagraphs).
#   separate  folded network, convolution with bias then ReLU
#   fused     cuDNN's fused convolution + bias + ReLU
#   kernels   Fisura's max pooling (no indices) and concatenation-with-bias kernels
#   graph     the tile batch's network as one CUDA graph
#   blend     the device stage's blending and row kernels
# Usage (repository root, CUDA LibTorch found by CMake):
#   OUT=dir tests/bench/gpu_infer_graph.sh [SIDE] [--all-modes]
# NET=0 / PROBE=0 / E2E=0 / RSS=0 skip the network-only part / the PyTorch variants / the end
# to end runs / the peak-memory runs. MODEL=file.fmodel runs end to end with that model (a trained
# one: its map is what the writer compresses; the default random-weight network's map is nearly
# uniform and compresses ~1000:1, a trained model's ~3.5:1). E2E_MODES (default: every step) and
# CODECS (default "deflate zstd"; "zstd:9" names a level) choose the end-to-end runs.
set -u
OUT=${OUT:-/tmp/fisura-infer-graph}
B=${BUILD:-/tmp/b-train}
SIDE=${1:-40000}
MODES=${2:-}
W=/tmp/fisura-infer-graph-work
mkdir -p "$OUT" "$W"
log() { echo "[$(date +%T)] $*" | tee -a "$OUT/log.txt"; }
log "build"
{ cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFISURA_BUILD_GUI=OFF &&
  cmake --build "$B" -j"$(nproc)" --target fisura-cli bench_infer bench_writer; } > "$OUT/build.log" 2>&1 ||
  { grep -B2 -A12 error "$OUT/build.log" | head -80; exit 1; }
BI=$B/tests/bench/bench_infer
$BI model "$W/unet.fmodel" 16 4
$BI scan "$W/small.tif" 3001 2047 deflate
ALL="separate fused fused,kernels fused,graph fused,kernels,graph fused,kernels,graph,blend"
[ "${NET:-1}" = 1 ] && log "network only (two rounds, alternating)" && for round in 1 2; do
    for mode in $ALL; do
        $BI net "$W/unet.fmodel" "$W/small.tif" "$W/map_${mode//,/_}.raw" "$mode" |
            sed "s/^{/{\"round\": $round, /" | tee -a "$OUT/net.jsonl"
    done
done
[ "${NET:-1}" = 1 ] && python3 - "$W" $ALL <<'PY' | tee -a "$OUT/log.txt"
import sys, numpy as np
w, modes = sys.argv[1], sys.argv[2:]
ref = np.fromfile(f"{w}/map_separate.raw", np.uint8).astype(int)
for m in modes[1:]:
    b = np.fromfile(f"{w}/map_{m.replace(',', '_')}.raw", np.uint8).astype(int)
    print(f"map {m} vs separate: max grey-level difference {int(abs(ref - b).max())}, "
          f"share differing {float((ref != b).mean()):.2e}")
PY
[ "${PROBE:-1}" = 1 ] && BATCH=$(python3 -c "import json,sys; print(json.loads(open(sys.argv[1]).readline())['batch'])" "$OUT/net.jsonl")
[ "${PROBE:-1}" = 1 ] && log "PyTorch variants at batch $BATCH" && python3 tests/bench/infer_fusion_probe.py --batch "$BATCH" $MODES 2>&1 | grep -v -i warn |
    tee -a "$OUT/probe.txt" | tail -12
[ "${E2E:-1}" = 1 ] && log "end to end ${SIDE}x${SIDE}"
[ "${E2E:-1}" = 1 ] && [ ! -f "$W/scan_$SIDE.tif" ] && $BI scan "$W/scan_$SIDE.tif" "$SIDE" "$SIDE" deflate
E2E_MODEL=$W/unet.fmodel
[ -n "${MODEL:-}" ] && cp "$MODEL" "$W/trained.fmodel" && E2E_MODEL=$W/trained.fmodel
for run in $([ "${E2E:-1}" = 1 ] && echo 1 2); do
    for mode in ${E2E_MODES:-fused,kernels,graph,blend fused,kernels,graph fused,kernels fused}; do
        for codec in ${CODECS:-deflate zstd}; do
            rm -f "$W/map.tif" # replacing a large earlier map costs its deletion, not ours
            $BI e2e "$E2E_MODEL" "$W/scan_$SIDE.tif" "$W/map.tif" "$mode" $codec |
                sed "s/^{/{\"codec\": \"$codec\", /" | tee -a "$OUT/e2e.jsonl"
        done
    done
done
[ "${E2E:-1}" = 1 ] && python3 - "$OUT/e2e.jsonl" <<'PY' | tee -a "$OUT/log.txt"
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line); s = r["stats"]
    print(f"{r['mode']:20s} {r['codec']:8s} wall {s['seconds']:.3f} s  network {r['network_only_seconds']:.3f} s  "
          f"ratio {s['seconds'] / r['network_only_seconds']:.3f}  MP/s {s['megapixels_per_second']:.0f}  "
          f"waits in/out/device {s['input_wait_seconds']:.2f}/{s['output_wait_seconds']:.2f}/"
          f"{s['device_wait_seconds']:.2f}  finish {s['finish_seconds']:.2f}")
PY
if [ "${RSS:-1}" = 1 ]; then
    log "peak RSS of a 50000 x 12000 scan: fisura-cli infer, then each variant in its own process"
    [ -f "$W/wide.tif" ] || $BI scan "$W/wide.tif" 50000 12000 deflate
    $B/app/cli/fisura-cli infer --model "$W/unet.fmodel" --in "$W/wide.tif" --out "$W/wide_map.tif" \
        --json > "$OUT/rss.json" 2> "$OUT/rss.err"
    python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print('fisura-cli: peak RSS MiB', r['peak_rss_bytes']/2**20, 'MP/s', r['megapixels_per_second'])" "$OUT/rss.json" | tee -a "$OUT/log.txt"
    for mode in separate fused,kernels,graph,blend; do
        $BI e2e "$W/unet.fmodel" "$W/wide.tif" "$W/wide_map.tif" "$mode" zstd |
            python3 -c "import json,sys; r=json.loads(sys.stdin.read()); print(r['mode'], 'peak RSS MiB', r['stats']['peak_rss_bytes']/2**20)" | tee -a "$OUT/log.txt"
    done
fi
