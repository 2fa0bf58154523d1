#!/bin/bash
# Few-shot learning curve: a U-Net trained on 1, 2, 5, 10, 20 or all training images of
# CrackForest and DeepCrack, from scratch and from the starter model, 3 seeds each, scored on
# each set's held-out images by the crack protocol (ODS/OIS F1 at 2 px, mIoU). Both starts get
# the same budget: the same epochs of the same number of random crops, the same batch; the
# scratch network is the starter's (its width and depth), each at its own default learning rate
# (scratch 1e-3, fine-tuning 3e-4: FineTuneDefaults). The starter itself, untouched, is the row
# with 0 images.
#
# Splits: DeepCrack its own train/ (80) and test/ (20); CrackForest (no official split here)
# sorted by name, every 4th image held out (22), the other 66 for training. The k images of a
# run are a seeded draw from the training part (the same k for both starts).
#
# Usage: tests/bench/starter/few_shot.sh OUT STARTER DATA_ROOT
# Writes OUT/few_shot.tsv (one row per run), OUT/few_shot_summary.tsv (mean and standard
# deviation over the seeds) and OUT/few_shot.svg (the curve).
# Settings: SIZES="1 2 5 10 20 all" SEEDS="1 2 3" DATASETS="CrackForest DeepCrack"
#   EPOCHS=20 SAMPLES=256 (random crops per epoch) BATCH=16 CROP=256 PARALLEL=4 (runs at once
#   on the one GPU: small networks leave it idle otherwise) WORKERS=3 (loader threads per run)
#   DEADLINE=560 (s after the start: runs not begun by then are left out, and the summary says
#   which; runs go seed by seed, so a cut keeps whole curves) CPU=1 (tests of the script on a
#   processor) CLI, WORK: see common.sh.
source "$(dirname "$0")/common.sh"
T0=$(date +%s)
OUT=${1:?usage: few_shot.sh OUT STARTER DATA_ROOT}
STARTER=${2:?starter model}
ROOT=${3:?data root}
SIZES=${SIZES:-"1 2 5 10 20 all"} SEEDS=${SEEDS:-"1 2 3"}
DATASETS=${DATASETS:-"CrackForest DeepCrack"}
EPOCHS=${EPOCHS:-20} SAMPLES=${SAMPLES:-256} BATCH=${BATCH:-16} CROP=${CROP:-256}
PARALLEL=${PARALLEL:-4} WORKERS=${WORKERS:-3} DEADLINE=${DEADLINE:-560}
END_AT=$((T0 + DEADLINE))
mkdir -p "$OUT"
ensure_cli || exit 1
STARTER=$(readlink -f "$STARTER")
"$CLI" model-info "$STARTER" --json >"$WORK/starter.json" || exit 1
read -r WIDTH DEPTH < <(python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(m["width"], m["depth"])' "$WORK/starter.json")
log "starter $STARTER: width $WIDTH depth $DEPTH"

# Train and test parts of each set, as folders of links.
FS=$WORK/fewshot
rm -rf "$FS"
for ds in $DATASETS; do
    case $ds in
    DeepCrack)
        tr=$(readable_pairs "$ROOT/DeepCrack/train" DeepCrack_train) || exit 1
        te=$(readable_pairs "$ROOT/DeepCrack/test" DeepCrack_test) || exit 1
        stems_of "$tr" | link_pairs "$tr" "$FS/$ds/train" "" 1
        stems_of "$te" | link_pairs "$te" "$FS/$ds/test" "" 1
        ;;
    CrackForest)
        all=$(readable_pairs "$ROOT/CrackForest" CrackForest) || exit 1
        stems_of "$all" | awk 'NR % 4 != 0' | link_pairs "$all" "$FS/$ds/train" "" 1
        stems_of "$all" | awk 'NR % 4 == 0' | link_pairs "$all" "$FS/$ds/test" "" 1
        ;;
    *) log "unknown data set $ds"; exit 1 ;;
    esac
    log "$ds: $(ls "$FS/$ds/train/images" | wc -l) training, $(ls "$FS/$ds/test/images" | wc -l) held-out images"
done

# One run: train k images from a start, score the held-out part; a TSV row in $FS/rows.
one_run() { # dataset init k seed
    local ds=$1 init=$2 k=$3 seed=$4 id="$1-$2-$3-$4" sub model n t0 tsec
    if [ "$(date +%s)" -ge "$END_AT" ]; then
        echo "$id: left out (deadline)" >&2
        return 0
    fi
    sub=$FS/runs/$id
    model=$sub/model.fisura
    mkdir -p "$sub"
    if [ "$k" = 0 ]; then
        model=$STARTER
        tsec=0
    else
        n=$(ls "$FS/$ds/train/images" | wc -l)
        [ "$k" = all ] && k=$n
        # The seeded draw: the same k images for both starts.
        stems_of "$FS/$ds/train" |
            python3 -c 'import random,sys; s=[l.strip() for l in sys.stdin]; random.Random(sys.argv[1]).shuffle(s); print("\n".join(s[:int(sys.argv[2])]))' "$ds-$seed" "$k" |
            link_pairs "$FS/$ds/train" "$sub/data" "" 1
        local start=(--init scratch --width "$WIDTH" --depth "$DEPTH")
        [ "$init" = starter ] && start=(--init "$STARTER")
        t0=$(date +%s.%N)
        "$CLI" train --task segment --data "$sub/data" --out "$model" "${start[@]}" \
            --epochs "$EPOCHS" --samples-per-epoch "$SAMPLES" --batch "$BATCH" --size "$CROP" \
            --val 0 --patience 0 --seed "$seed" --workers "$WORKERS" --quiet ${CPU:+--cpu} \
            >"$sub/train.json" 2>"$sub/train.err" || { echo "$id: train failed" >&2; cat "$sub/train.err" >&2; return 1; }
        tsec=$(python3 -c "import sys; print('%.1f' % ($(date +%s.%N) - $t0))")
    fi
    "$CLI" evaluate --model "$model" --data "$FS/$ds/test" --tolerance 2 --json --quiet \
        ${CPU:+--cpu} >"$sub/eval.json" 2>"$sub/eval.err" || { echo "$id: evaluate failed" >&2; cat "$sub/eval.err" >&2; return 1; }
    python3 - "$sub/eval.json" "$ds" "$init" "$3" "$seed" "$k" "$tsec" >"$FS/rows/$id.tsv" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["crack_scores"]
ds, init, size, seed, k, tsec = sys.argv[2:8]
print("\t".join([ds, init, size, k if size != "0" else "0", seed,
                 "%.4f" % c["ods_f1"], "%.4f" % c["ois_f1"], "%.4f" % c["miou"],
                 "%.4f" % c["f1"], str(c["images"]), tsec]))
PY
    if [ "$k" != 0 ]; then
        rm -f "$model" "$model.ckpt"
    fi
    echo "$id: ODS $(cut -f6 "$FS/rows/$id.tsv")" >&2
}
export -f one_run link_pairs stems_of log
export FS STARTER CLI EPOCHS SAMPLES BATCH CROP WIDTH DEPTH WORKERS END_AT CPU=${CPU:-}
mkdir -p "$FS/rows"

t0=$SECONDS
{
    for ds in $DATASETS; do
        echo "$ds starter 0 0"
    done
    for seed in $SEEDS; do # seed by seed: a deadline cuts whole curves, not sizes
        for ds in $DATASETS; do
            for k in $SIZES; do
                echo "$ds scratch $k $seed"
                echo "$ds starter $k $seed"
            done
        done
    done
} | xargs -P "$PARALLEL" -L 1 bash -c 'one_run "$@"' _
log "$(ls "$FS/rows" | wc -l) runs in $((SECONDS - t0)) s"

TSV=$OUT/few_shot.tsv
printf 'dataset\tinit\tsize\timages\tseed\tods_f1\tois_f1\tmiou\tf1_at_threshold\ttest_images\ttrain_seconds\n' >"$TSV"
cat "$FS"/rows/*.tsv | sort -t$'\t' -k1,1 -k2,2 -k4,4n -k5,5n >>"$TSV"
python3 "$SRC/tests/bench/starter/few_shot_summary.py" "$TSV" "$OUT" \
    "epochs $EPOCHS x $SAMPLES crops, batch $BATCH, crop $CROP, U-Net width $WIDTH depth $DEPTH"
