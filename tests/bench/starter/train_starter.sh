#!/bin/bash
# The recipe of Fisura's starter crack model (resources/models/starter-crack-unet.fisura):
# procedural scenes from Fisura's own generator plus UAV75 (GPL-3.0), and NOTHING else: the
# CrackForest, DeepCrack and CrackConglomerate copies in ../shared/data are non-commercial and
# are the model's held-out test sets (measure_starter.sh, few_shot.sh). Without UAV75 it trains
# the procedural-only model that shows what the generator alone contributes.
#
# Usage (repository root; one GPU, about 5 minutes after the build):
#   tests/bench/starter/train_starter.sh OUT UAV75_DIR     # the starter model
#   tests/bench/starter/train_starter.sh OUT               # procedural scenes only
# Writes OUT/$NAME (the model, its provenance record stamped in its metadata), OUT/$NAME.json
# (the training summary) and OUT/$NAME.log (the end of the training log); the checkpoint and
# the split stay in WORK.
#
# Settings (environment), with the recipe's values:
#   COUNT=12000 SIZE=256 SEED=1  procedural scenes (fisura-cli synth-data), their edge, the seed
#   UAV_REPEAT=40                each UAV75 image appears this often per epoch (another random
#                                crop each time): about 9 % of an epoch, as 30 images would
#                                otherwise drown in 12000 scenes
#   WIDTH=16 DEPTH=4 CROP=256    the U-Net (1.9 M parameters, 7.5 MB) and its training crop
#   EPOCHS=16 BATCH=32 LR=1e-3   one-cycle schedule over the epochs, AdamW
#   VAL=0.05                     validation share (chooses the best epoch and the threshold)
#   BUDGET=330                   seconds of training at most: then it stops cleanly (SIGINT),
#                                the best model so far kept, so a GPU call ends in time
#   NAME                         starter-crack-unet.fisura, or procedural-crack-unet.fisura
#   CLI, WORK, BUILD, COMMIT     see common.sh; COMMIT names the source commit when the tree
#                                has no .git (the GPU hosts)
source "$(dirname "$0")/common.sh"
OUT=${1:?usage: train_starter.sh OUT [UAV75_DIR]}
UAV=${2:-}
COUNT=${COUNT:-12000} SIZE=${SIZE:-256} SEED=${SEED:-1} UAV_REPEAT=${UAV_REPEAT:-40}
WIDTH=${WIDTH:-16} DEPTH=${DEPTH:-4} CROP=${CROP:-256} EPOCHS=${EPOCHS:-16} BATCH=${BATCH:-32}
LR=${LR:-1e-3} VAL=${VAL:-0.05} BUDGET=${BUDGET:-330}
if [ -n "$UAV" ]; then
    NAME=${NAME:-starter-crack-unet.fisura}
else
    NAME=${NAME:-procedural-crack-unet.fisura}
fi
mkdir -p "$OUT"
ensure_cli || exit 1

# 1. Procedural scenes (reused when the same set is already there).
SYNTH=$WORK/synth-$SEED-$COUNT-$SIZE
if ! grep -q "\"count\": $COUNT," "$SYNTH/manifest.json" 2>/dev/null; then
    log "synth-data: $COUNT scenes of $SIZE px, seed $SEED"
    "$CLI" synth-data "$SYNTH" --count "$COUNT" --size "$SIZE" --seed "$SEED" --json >&2 || exit 1
fi

# 2. The training folder: links to the scenes and to UAV75 (repeated).
DATA=$WORK/train-${NAME%.fisura}
rm -rf "$DATA"
link_all "$(readlink -f "$SYNTH")" "$DATA"
trained_on='"fisura-procedural"'
licence=GPL-3.0-or-later # Fisura's own licence; the procedural scenes are Fisura's
if [ -n "$UAV" ]; then
    U=$(readable_pairs "$UAV" UAV75) || exit 1
    stems_of "$U" | link_pairs "$U" "$DATA" uav75_ "$UAV_REPEAT"
    trained_on="$trained_on, \"UAV75\""
    licence=GPL-3.0-only # UAV75's licence (its LICENSE names version 3) binds the weights
fi
log "training data: $(ls "$DATA/images" | wc -l) pairs in $DATA"

# 3. Train from scratch (a starter has nothing to start from), stopped cleanly at the budget.
# In WORK: the checkpoint and the split stay there; OUT gets the model and two small files.
MODEL=$WORK/$NAME
rm -f "$MODEL" "$MODEL.ckpt" "$MODEL.split.json" "$OUT/$NAME"
log "train $NAME: U-Net width $WIDTH depth $DEPTH, crop $CROP, $EPOCHS epochs, batch $BATCH"
t0=$SECONDS
timeout -s INT "$BUDGET" "$CLI" train --task segment --data "$DATA" --out "$MODEL" \
    --init scratch --width "$WIDTH" --depth "$DEPTH" --size "$CROP" --epochs "$EPOCHS" \
    --batch "$BATCH" --lr "$LR" --val "$VAL" --patience 0 --seed "$SEED" \
    >"$OUT/$NAME.json" 2>"$WORK/train.log"
rc=$?
tail -30 "$WORK/train.log" >"$OUT/$NAME.log"
log "train exited $rc after $((SECONDS - t0)) s"
[ -f "$MODEL" ] || { tail -20 "$WORK/train.log" >&2; exit 1; }

# 4. The provenance record: what it was trained on, its licence, how to make it again.
python3 - "$MODEL.prov.json" <<PY
import json, sys
json.dump({"name": "${NAME%.fisura}", "starter": "$UAV" != "", "licence": "$licence",
           "trained_on": [$trained_on], "recipe": "tests/bench/starter/train_starter.sh",
           "recipe_settings": {"count": $COUNT, "size": $SIZE, "uav_repeat": $UAV_REPEAT,
                               "width": $WIDTH, "depth": $DEPTH, "crop": $CROP,
                               "epochs": $EPOCHS, "batch": $BATCH, "lr": $LR, "val": $VAL,
                               "budget_s": $BUDGET, "train_exit": $rc,
                               "train_seconds": $((SECONDS - t0))},
           "seed": $SEED, "commit": "$(commit_id)", "scores": []},
          open(sys.argv[1], "w"), indent=1)
PY
"$CLI" model-info "$MODEL" --set-provenance "$MODEL.prov.json" >&2 || exit 1
cp "$MODEL" "$OUT/$NAME" || exit 1
log "wrote $OUT/$NAME ($(stat -c %s "$OUT/$NAME") bytes)"
