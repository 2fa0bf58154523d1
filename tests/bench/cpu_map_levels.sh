#!/bin/bash
# The adaptive map level's cost on maps of real scans: the shipped starter model's maps of the
# images of each crack set in ../shared/data (fisura-cli infer, fixed level), then
# bench_map_levels on each set's maps (size and speed per ZSTD level).
# Usage (repository root, a build with fisura-cli): BUILD=build OUT=dir tests/bench/cpu_map_levels.sh
set -u
B=${BUILD:-build}
OUT=${OUT:-/tmp/fisura-map-levels}
DATA=${DATA:-../shared/data}
mkdir -p "$OUT"
cmake --build "$B" --target fisura-cli bench_map_levels > "$OUT/build.log" 2>&1 ||
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
