#!/bin/bash
# The adaptive map level's cost on maps of real scans: the shipped starter model's maps of the
# images of each crack set in ../shared/data (fisura-cli infer, fixed level), then
# bench_map_levels on each set's maps (size and speed per ZSTD level).
# HARD=1 adds a map that hardly compresses (about 4.5:1): a U-Net trained here on DeepCrack's train
# split for 6 epochs (width 16, about 3 minutes on 2 cores), run over bench_infer's synthetic
# 4096² scan.
# Usage (repository root, a build with fisura-cli): BUILD=build OUT=dir tests/bench/cpu_map_levels.sh
set -u
B=${BUILD:-build}
OUT=${OUT:-/tmp/fisura-map-levels}
DATA=${DATA:-../shared/data}
mkdir -p "$OUT"
cmake --build "$B" --target fisura-cli bench_map_levels bench_infer > "$OUT/build.log" 2>&1 ||
    { tail -20 "$OUT/build.log"; exit 1; }
for set in UAV75 DeepCrack/test CrackConglomerate CrackForest; do
    [ -d "$DATA/$set/images" ] || { echo "no $DATA/$set"; continue; }
    maps="$OUT/maps_${set//\//_}"
    rm -rf "$maps"
    "$B/app/cli/fisura-cli" infer --model resources/models/starter-crack-unet.fisura \
        --in "$DATA/$set/images" --out "$maps" --fixed-level > "$OUT/infer.log" 2>&1 ||
        { tail -5 "$OUT/infer.log"; exit 1; }
    echo "### $set"
    "$B/tests/bench/bench_map_levels" "$maps"/*.tif
    echo
done | tee "$OUT/levels.md"
if [ -n "${HARD:-}" ] && [ -d "$DATA/DeepCrack/train" ]; then
    "$B/app/cli/fisura-cli" train --task segment --data "$DATA/DeepCrack/train" \
        --out "$OUT/deepcrack16.fisura" --epochs 6 --batch 16 --size 256 --depth 4 --width 16 \
        --patience 0 --quiet > "$OUT/train.json" 2> "$OUT/train.log" || { tail -5 "$OUT/train.log"; exit 1; }
    "$B/tests/bench/bench_infer" scan "$OUT/scan4096.tif" 4096 4096 deflate
    "$B/app/cli/fisura-cli" infer --model "$OUT/deepcrack16.fisura" --in "$OUT/scan4096.tif" \
        --out "$OUT/hard.probability.tif" --fixed-level > "$OUT/infer.log" 2>&1 || { tail -5 "$OUT/infer.log"; exit 1; }
    echo "### A hard-to-compress map (DeepCrack-trained U-Net, synthetic 4096² scan)"
    "$B/tests/bench/bench_map_levels" "$OUT/hard.probability.tif"
fi | tee -a "$OUT/levels.md"
