#!/bin/bash
# GPU check of the whole CLI workflow with a CUDA LibTorch: build core + CLI, then on the GPU
# train a U-Net on demo data (auto batch and precision, project recorded), pause-free resume,
# evaluate, infer a scan, score it against its mask and measure its cracks; one CPU inference of
# the same model for the map comparison. Prints one line per step with its exit code.
# Usage: gpu_cli_workflow.sh BUILD_DIR OUT_DIR   (environment prepared so CMake finds a CUDA LibTorch)
set -u
B=$1
OUT=$2
S=$(cd "$(dirname "$0")/../.." && pwd)
log() { echo "== $*" | tee -a "$OUT/check.txt"; }
step() { # step NAME COMMAND...: run, keep the last lines, report the exit code
    local name=$1; shift
    "$@" > "$OUT/$name.log" 2>&1
    local rc=$?
    log "$name rc=$rc"
    tail -4 "$OUT/$name.log" >> "$OUT/check.txt"
    return $rc
}

log "build $(date -u +%FT%TZ)"
{ cmake -S "$S" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFISURA_BUILD_GUI=OFF \
        -DFISURA_BUILD_TESTS=OFF &&
  cmake --build "$B" -j16 --target fisura-cli; } > "$OUT/build.log" 2>&1 ||
  { tail -60 "$OUT/build.log"; exit 1; }
CLI=$B/app/cli/fisura-cli
W=$(mktemp -d)
step info "$CLI" info
step demo "$CLI" demo-data "$W/demo" --scan 4096
step project "$CLI" project new "$W/proj"
step train "$CLI" train --project "$W/proj" --task segment --data "$W/demo/segmentation" \
    --epochs 3 --size 256 --width 16 --depth 4 --out "$W/proj/models/unet.fisura"
RUN=$(ls -d "$W"/proj/runs/*/ | head -n 1)
step train_resume "$CLI" train --task segment --data "$W/demo/segmentation" --epochs 5 \
    --size 256 --width 16 --depth 4 --out "$W/proj/models/unet.fisura" \
    --resume "$RUN/checkpoint.ckpt" --split "$RUN/split.json"
step evaluate "$CLI" evaluate --model "$W/proj/models/unet.fisura" --data "$W/demo/segmentation" \
    --split "$RUN/split.json"
step infer_gpu "$CLI" infer --model "$W/proj/models/unet.fisura" --in "$W/demo/scan/demo_scan.tif" \
    --out "$W/map_gpu.tif" --compression deflate --json
step infer_cpu "$CLI" infer --model "$W/proj/models/unet.fisura" --in "$W/demo/scan/demo_scan.tif" \
    --out "$W/map_cpu.tif" --compression deflate --cpu --precision fp32 --json
step score "$CLI" score --map "$W/map_gpu.tif" --truth "$W/demo/scan/demo_scan_mask.tif" --json
# GPU (bf16) and CPU (fp32) maps of the same model: how far apart, in grey levels.
step compare_maps python3 - "$W/map_gpu.tif" "$W/map_cpu.tif" <<'PY'
import sys, numpy as np, tifffile
a = tifffile.imread(sys.argv[1]).astype(np.int16)
b = tifffile.imread(sys.argv[2]).astype(np.int16)
d = np.abs(a - b)
print("shape", a.shape, "max |diff|", int(d.max()), "mean", float(d.mean()),
      "share > 2 levels", float((d > 2).mean()), "share > 8 levels", float((d > 8).mean()))
PY
step measure "$CLI" measure --map "$W/map_gpu.tif" --json "$OUT/measure.json" --quiet
step show "$CLI" project show "$W/proj"
grep -h '"seconds"\|megapixels\|images_per_second\|"precision"\|batch_size' \
    "$OUT"/infer_gpu.log "$OUT"/train.log | head -20 >> "$OUT/check.txt"
rm -rf "$W"
