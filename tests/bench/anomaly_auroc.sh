#!/bin/sh
# Pixel AUROC of the anomaly models on the real crack sets (../shared/data): every model is fitted
# or trained on crack-free 64 x 64 tiles (tiles whose mask is empty) of the training images and
# scored on all tiles of held-out images against their masks (bench_anomaly auroc: float scores,
# non-overlapping tiles, the same for every model).
#   CrackForest: the first 70 % of the images (by name) for fitting, the rest for scoring
#   DeepCrack:   train/ for fitting, test/ for scoring
# Usage: tests/bench/anomaly_auroc.sh [BUILD_DIR] [WORK_DIR]   (needs fisura-cli and bench_anomaly
# built in BUILD_DIR; CPU only; prints one JSON line per model and data set)
set -eu
BUILD=${1:-build}
WORK=${2:-/tmp/fisura-anomaly-auroc}
DATA=${FISURA_DATA:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/data}
SIZE=64
AE_EPOCHS=${AE_EPOCHS:-15}
CLI="$BUILD/app/cli/fisura-cli"
[ -x "$CLI" ] || CLI=$(find "$BUILD" -name fisura-cli -type f | head -n 1)
BENCH=$(find "$BUILD" -name bench_anomaly -type f | head -n 1)
mkdir -p "$WORK"

run_set() { # name fitDir fitFraction testDir testFraction
    name=$1
    testDir=$4
    testFraction=$5
    tiles="$WORK/$name/tiles"
    rm -rf "$WORK/$name"
    mkdir -p "$WORK/$name"
    echo "$name: $("$BENCH" tiles "$2" "$tiles" $SIZE "$3")" >&2
    fit() { # model-name extra-args...
        model="$WORK/$name/$1.fisura"
        shift
        start=$(date +%s)
        "$CLI" train --task anomaly --data "$tiles" --out "$model" --size $SIZE --cpu --quiet \
            --val 0.1 "$@" > "$model.json"
        secs=$(( $(date +%s) - start ))
        echo "$("$BENCH" auroc "$model" "$testDir" "$testFraction" | sed "s/}\$/, \"set\": \"$name\", \"fit_seconds\": $secs}/")"
    }
    fit pg_cnn_pooled --model patch-gaussian --features cnn --feature-dim 32 --batch 32
    fit pg_cnn_position --model patch-gaussian --features cnn --feature-dim 32 --batch 32 --per-position
    fit pg_pixels_pooled --model patch-gaussian --features pixels --patch-radius 2 --batch 32
    fit ae --epochs "$AE_EPOCHS" --batch 32 --patience 0 --precision fp32
}

run_set CrackForest "$DATA/CrackForest" 0.7 "$DATA/CrackForest" 0.7
run_set DeepCrack "$DATA/DeepCrack/train" 1.0 "$DATA/DeepCrack/test" 0.0
