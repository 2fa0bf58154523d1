#!/bin/bash
# Inference on several GPUs: one 40000 x 40000 scan end to end with `fisura-cli infer --gpus 1`,
# `--gpus 2` (and `--gpus 4` where the machine has 4 GPUs), each twice, alternating; the maps
# compared byte for byte (cmp) with the first one-GPU map (the adaptive ZSTD level follows the
# timing, so without EXTRA=--fixed-level the bytes may differ: their pixels are compared then);
# a Markdown table of wall time, MP/s
# and speed-up over one GPU in $OUT/TABLE.md (targets of issue 16: >= 1.8x on 2 GPUs, >= 3.2x
# on 4 GPUs, the map identical to the one-GPU map).
#
# Usage, on the GPU host, in the repository root (build recipe of ../shared/device/README.md):
#   source .device-deps/env.sh
#   OUT=dir tests/bench/gpu_multi_infer.sh [SIDE]
# BUILD (default /tmp/b-train) is the build folder; SIDE (default 40000) the scan's edge;
# ROUNDS (default 2) the alternating rounds; CODEC (default zstd, the CLI's) the maps' codec;
# MODEL a trained .fmodel (default: random weights, whose map is nearly uniform and much cheaper
# to compress than a trained model's); DEEPCRACK a DeepCrack folder (train/, test/) to train the
# model on first (U-Net width 32, depth 4, 40 epochs, as gpu_train_vs_peer.sh: its map of the
# synthetic scan compresses about 4:1, hard for the writer); PHOTOS a folder holding the crack
# sets of ../shared/data, to scan their photographs repeated (photo_mosaic.py: a map harder to
# compress, about 3.3:1) instead of the synthetic texture; EXTRA more `infer` arguments (e.g.
# --fixed-level).
set -u
OUT=${OUT:-/tmp/fisura-multi-infer}
B=${BUILD:-/tmp/b-train}
SIDE=${1:-40000}
ROUNDS=${ROUNDS:-2}
CODEC=${CODEC:-zstd}
W=${WORK:-/tmp/fisura-multi-infer-work}
export NCCL_NVLS_ENABLE=0 # not used by inference; kept set on these machines
mkdir -p "$OUT" "$W"
log() { echo "[$(date +%T)] $*" | tee -a "$OUT/log.txt"; }

# Debian's libtiff + OpenCV for a host without them (../shared/device/prepare-deps.sh).
[ -f .device-deps/env.sh ] && source .device-deps/env.sh
log "build"
{ cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFISURA_BUILD_GUI=OFF &&
  cmake --build "$B" -j"$(nproc)" --target fisura-cli bench_infer fisura_map_diff; } > "$OUT/build.log" 2>&1 ||
  { grep -B2 -A12 error "$OUT/build.log" | head -80; exit 1; }
CLI=$B/app/cli/fisura-cli
BI=$B/tests/bench/bench_infer

GPUS=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
[ "$GPUS" -ge 1 ] 2>/dev/null || GPUS=$(python3 -c 'import torch; print(torch.cuda.device_count())' 2>/dev/null || echo 0)
log "$GPUS GPU(s): $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
[ "$GPUS" -ge 2 ] || { log "needs at least 2 GPUs"; exit 1; }
COUNTS="1 2"
[ "$GPUS" -ge 4 ] && COUNTS="1 2 4"

[ -f "$W/unet.fmodel" ] || $BI model "$W/unet.fmodel" 16 4
[ -n "${MODEL:-}" ] && cp "$MODEL" "$W/unet.fmodel"
if [ -n "${DEEPCRACK:-}" ] && [ ! -f "$W/deepcrack.fisura" ]; then
    log "training on DeepCrack"
    python3 tests/bench/prepare_deepcrack.py "$DEEPCRACK" "$W/deepcrack" > "$OUT/deepcrack.log" 2>&1 &&
    "$CLI" train --task segment --data "$W/deepcrack" --split "$W/deepcrack/split.json" \
        --out "$W/deepcrack.fisura" --epochs 40 --batch 16 --size 256 --depth 4 --width 32 \
        --workers 8 --patience 0 --quiet > "$OUT/deepcrack.json" 2>> "$OUT/deepcrack.log" ||
        { log "training failed"; tail -5 "$OUT/deepcrack.log"; exit 1; }
fi
[ -n "${DEEPCRACK:-}" ] && cp "$W/deepcrack.fisura" "$W/unet.fmodel"
if [ -n "${PHOTOS:-}" ]; then # real photographs repeated (photo_mosaic.py), not the synthetic texture
    SCAN=$W/scan_photo_$SIDE.tif
    if [ ! -f "$SCAN" ]; then
        log "scan of photographs ${SIDE} x ${SIDE}"
        python3 tests/bench/photo_mosaic.py "$W/mosaic.tif" "$PHOTOS/UAV75" "$PHOTOS/DeepCrack/train" \
            "$PHOTOS/DeepCrack/test" "$PHOTOS/CrackConglomerate" "$PHOTOS/CrackForest" | tee -a "$OUT/log.txt" &&
        $BI scan "$SCAN" "$SIDE" "$SIDE" deflate "$W/mosaic.tif" || { log "scan failed"; exit 1; }
    fi
else
    SCAN=$W/scan_$SIDE.tif
    [ -f "$SCAN" ] || { log "scan ${SIDE} x ${SIDE}"; $BI scan "$SCAN" "$SIDE" "$SIDE" deflate; }
fi

: > "$OUT/runs.jsonl"
for round in $(seq 1 "$ROUNDS"); do
    for n in $COUNTS; do
        map="$W/map_g${n}_r${round}.tif"
        log "round $round: --gpus $n"
        rm -f "$map"
        t0=$(date +%s.%N)
        "$CLI" infer --model "$W/unet.fmodel" --in "$SCAN" --out "$map" --gpus "$n" \
            --compression "$CODEC" ${EXTRA:-} --json > "$W/run.json" 2> "$OUT/err_g${n}_r${round}.txt"
        rc=$?
        t1=$(date +%s.%N)
        if [ $rc -ne 0 ]; then log "--gpus $n failed ($rc):"; tail -5 "$OUT/err_g${n}_r${round}.txt" | tee -a "$OUT/log.txt"; exit 1; fi
        same=reference
        if [ "$n$round" != 11 ]; then
            if cmp -s "$W/map_g1_r1.tif" "$map"; then same=identical; else same=DIFFERENT; fi
        fi
        python3 - "$W/run.json" "$n" "$round" "$t0" "$t1" "$same" >> "$OUT/runs.jsonl" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
gpus = [c for c in r["policy"]["choices"] if c["what"] == "gpus"]
print(json.dumps({"gpus": int(sys.argv[2]), "round": int(sys.argv[3]),
                  "process_seconds": float(sys.argv[5]) - float(sys.argv[4]),
                  "map_vs_first_one_gpu_map": sys.argv[6], "devices": r.get("devices"),
                  "gpus_choice": gpus[0] if gpus else None, "stats": r}))
PY
        tail -n 1 "$OUT/runs.jsonl" | python3 -c "import json,sys; r=json.loads(sys.stdin.read()); s=r['stats']; print(f\"  {s['seconds']:.3f} s, {s['megapixels_per_second']:.0f} MP/s, devices {r['devices']}, tiles {s['tiles']} (computed {s['tiles_computed']}), batch {s['batch_size']} (band graphs {s.get('band_graph_seconds', 0):.3f} s), waits in/out/device {s['input_wait_seconds']:.2f}/{s['output_wait_seconds']:.2f}/{s['device_wait_seconds']:.2f} s, rows to the writer {s.get('join_seconds', 0):.2f} s (waiting for bands {s.get('join_wait_seconds', 0):.2f}), compressing {s['writer'].get('compress_seconds', 0):.1f} core-s, zstd levels {s['writer'].get('lowest_level')}..{s['writer'].get('highest_level')} ({s['writer'].get('bands_below_level')} of {s['writer'].get('bands')} bands lower), map {s['writer'].get('bytes_out', 0) / 1e6:.1f} MB {r['map_vs_first_one_gpu_map']}\")" | tee -a "$OUT/log.txt"
        # Keep the reference, and maps that differ from it (compared below); drop the rest.
        [ "$same" = identical ] && rm -f "$map"
    done
done

# Where a map differs: by how much (fisura_map_diff reads level 0 of both, any codec; mean is
# the mean absolute difference in grey levels).
for n in $COUNTS; do
    for r in $(seq 1 "$ROUNDS"); do
        m="$W/map_g${n}_r${r}.tif"
        [ "$n$r" = 11 ] || [ ! -f "$m" ] && continue
        echo "map --gpus $n round $r vs --gpus 1 round 1: $("$B/tests/gpu/fisura_map_diff" "$W/map_g1_r1.tif" "$m")"
    done
done | tee -a "$OUT/log.txt"

python3 - "$OUT/runs.jsonl" "$SIDE" > "$OUT/TABLE.md" <<'PY'
import json, sys, statistics
runs = [json.loads(l) for l in open(sys.argv[1])]
side = int(sys.argv[2])
by = {}
for r in runs:
    by.setdefault(r["gpus"], []).append(r)
base = statistics.median(r["stats"]["seconds"] for r in by[1])
base_proc = statistics.median(r["process_seconds"] for r in by[1])
dev = runs[0]["stats"]["policy"]["choices"][0]["value"]
print(f"Inference on several GPUs: {side} x {side} scan ({side * side / 1e6:.0f} MP), "
      f"`fisura-cli infer --gpus N`, {dev}, batch {runs[0]['stats']['batch_size']}, "
      f"tile {runs[0]['stats']['tile']}\n")
print("| GPUs | run s (per round) | MP/s (median) | speed-up vs 1 GPU | process wall s (median) | "
      "process speed-up | tiles computed | map vs the 1-GPU map |")
print("|---:|---|---:|---:|---:|---:|---:|---|")
for n in sorted(by):
    rs = by[n]
    sec = statistics.median(r["stats"]["seconds"] for r in rs)
    proc = statistics.median(r["process_seconds"] for r in rs)
    same = ", ".join(r["map_vs_first_one_gpu_map"] for r in rs)
    per_round = " / ".join("%.3f" % r["stats"]["seconds"] for r in rs)
    print(f"| {n} | {per_round} | "
          f"{side * side / 1e6 / sec:.0f} | **{base / sec:.2f}x** | {proc:.2f} | {base_proc / proc:.2f}x | "
          f"{rs[0]['stats']['tiles_computed']} of {rs[0]['stats']['tiles']} | {same} |")
print("\nrun s: the engine's wall time for the scan (reading, compute, blending, writing, "
      "overviews); process wall s adds loading the model, placing it on every GPU, the batch "
      "probe and warm-up. Targets: >= 1.8x on 2 GPUs, >= 3.2x on 4 GPUs, maps identical.")
PY
cat "$OUT/TABLE.md" | tee -a "$OUT/log.txt"
