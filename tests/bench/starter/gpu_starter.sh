#!/bin/bash
# One GPU call that makes both models of the starter measurements and scores them: the build
# (when there is none yet), the procedural scenes once, then the starter model (procedural +
# UAV75) and the procedural-only model trained side by side on the one GPU (small networks
# leave most of it idle alone), then both scored zero-shot on DeepCrack/test, CrackForest and
# CrackConglomerate (the starter keeps its scores in its metadata). The training stops cleanly
# in time for the whole call to end within DEADLINE seconds of its start.
#
# Usage (repository root of the GPU host): tests/bench/starter/gpu_starter.sh OUT DATA_ROOT
#   DATA_ROOT holds UAV75, DeepCrack, CrackForest and CrackConglomerate (images/ + masks/).
#   OUT gets 7 files: both models, their training summaries (.json) and log tails (.log), and
#   zero_shot.tsv. DEADLINE=570 (s); the recipe's settings as in train_starter.sh.
#
# On a GPU host without Qt, OpenCV or libtiff (../shared/device/README.md), from the repository
# root, with .device-deps (its env.sh and usr/ are enough) and the data copied into the ignored
# folder .gpu-data beside the sources:
#   mkdir -p .gpu-data/DeepCrack && cp -r ../shared/data/{UAV75,CrackForest,CrackConglomerate} \
#       .gpu-data/ && cp -r ../shared/data/DeepCrack/test .gpu-data/DeepCrack/
#   COMMIT=<commit> tests/bench/starter/gpu_starter.sh "$OUT" "$PWD/.gpu-data"
# A build already in build-gpu is reused, so a second call on the same host trains longer.
source "$(dirname "$0")/common.sh"
T0=$SECONDS
OUT=${1:?usage: gpu_starter.sh OUT DATA_ROOT}
ROOT=${2:?data root}
DEADLINE=${DEADLINE:-570}
mkdir -p "$OUT"
ensure_cli || exit 1
export CLI WORK
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader >&2 2>/dev/null
COUNT=${COUNT:-12000} SIZE=${SIZE:-256} SEED=${SEED:-1}
SYNTH=$WORK/synth-$SEED-$COUNT-$SIZE
log "synth-data: $COUNT scenes"
"$CLI" synth-data "$SYNTH" --count "$COUNT" --size "$SIZE" --seed "$SEED" --json >&2 || exit 1
# The zero-shot sets converted now, while the GPU is still idle.
for set in DeepCrack/test CrackForest CrackConglomerate; do
    readable_pairs "$ROOT/$set" "$(echo "$set" | tr / _)" >/dev/null || exit 1
done
# Both trainings share what is left, less two minutes for scoring and stamping.
BUDGET=$((DEADLINE - (SECONDS - T0) - 120))
[ "$BUDGET" -gt 60 ] || { log "no time left to train ($BUDGET s)"; exit 1; }
log "training both models, at most $BUDGET s"
export BUDGET COUNT SIZE SEED
for w in starter procedural; do # each its own work folder, the scenes shared
    mkdir -p "$WORK/$w"
    ln -sfn "$SYNTH" "$WORK/$w/synth-$SEED-$COUNT-$SIZE"
done
WORK=$WORK/starter "$SRC/tests/bench/starter/train_starter.sh" "$OUT" "$ROOT/UAV75" &
a=$!
WORK=$WORK/procedural "$SRC/tests/bench/starter/train_starter.sh" "$OUT" &
b=$!
wait $a; ra=$?
wait $b; rb=$?
log "trainings exited $ra and $rb after $((SECONDS - T0)) s"
[ -f "$OUT/procedural-crack-unet.fisura" ] &&
    "$SRC/tests/bench/starter/measure_starter.sh" "$OUT" "$OUT/procedural-crack-unet.fisura" "$ROOT" procedural-only
[ -f "$OUT/starter-crack-unet.fisura" ] &&
    STAMP=1 "$SRC/tests/bench/starter/measure_starter.sh" "$OUT" "$OUT/starter-crack-unet.fisura" "$ROOT" starter
log "done in $((SECONDS - T0)) s"
cat "$OUT/zero_shot.tsv" 2>/dev/null
[ "$ra" = 0 ] || [ "$ra" = 124 ]
