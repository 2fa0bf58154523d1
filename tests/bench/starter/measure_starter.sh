#!/bin/bash
# Zero-shot scores of a crack model on the public sets it was never trained on: the crack
# protocol of `fisura-cli evaluate` (ODS and OIS F1 at 2 px, mIoU; README, "Evaluation
# protocol") on DeepCrack/test, CrackForest and CrackConglomerate, whole images, no split.
#
# Usage: tests/bench/starter/measure_starter.sh OUT MODEL DATA_ROOT [LABEL]
#   DATA_ROOT holds DeepCrack/test, CrackForest and CrackConglomerate (../shared/data, or the
#   copies on a GPU host). Appends one row per set to OUT/zero_shot.tsv:
#   label model set images ods_f1 ods_threshold ois_f1 miou crack_iou f1_at_model_threshold seconds
#   STAMP=1 also writes the scores into the model's provenance record (the starter keeps them).
#   CPU=1 evaluates on the processor. CLI, WORK: see common.sh.
source "$(dirname "$0")/common.sh"
OUT=${1:?usage: measure_starter.sh OUT MODEL DATA_ROOT [LABEL]}
MODEL=${2:?model}
ROOT=${3:?data root}
LABEL=${4:-$(basename "$MODEL" .fisura)}
SETS=${SETS:-"DeepCrack/test CrackForest CrackConglomerate"}
mkdir -p "$OUT"
ensure_cli || exit 1
TSV=$OUT/zero_shot.tsv
[ -f "$TSV" ] || printf 'label\tmodel\tset\timages\tods_f1\tods_threshold\tois_f1\tmiou\tcrack_iou\tf1_at_model_threshold\tseconds\n' >"$TSV"
SCORES=$WORK/scores-$LABEL.jsonl
: >"$SCORES"
for set in $SETS; do
    dir=$(readable_pairs "$ROOT/$set" "$(echo "$set" | tr / _)") || exit 1
    log "evaluate $LABEL on $set"
    "$CLI" evaluate --model "$MODEL" --data "$dir" --tolerance 2 --json --quiet \
        ${CPU:+--cpu} >"$WORK/eval.json" 2>"$WORK/eval.err" ||
        { cat "$WORK/eval.err" >&2; exit 1; }
    python3 - "$WORK/eval.json" "$LABEL" "$MODEL" "$set" "$TSV" "$SCORES" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
c = r["crack_scores"]
label, model, name, tsv, scores = sys.argv[2:7]
row = [label, model, name, c["images"], "%.4f" % c["ods_f1"], "%.3f" % c["ods_threshold"],
       "%.4f" % c["ois_f1"], "%.4f" % c["miou"], "%.4f" % c["crack_iou"], "%.4f" % c["f1"],
       "%.1f" % r["seconds"]]
open(tsv, "a").write("\t".join(map(str, row)) + "\n")
open(scores, "a").write(json.dumps({"dataset": name, "images": c["images"],
                                    "tolerance_px": c["tolerance_px"],
                                    "ods_f1": round(c["ods_f1"], 4),
                                    "ois_f1": round(c["ois_f1"], 4),
                                    "miou": round(c["miou"], 4)}) + "\n")
print("%s %s: ODS %.3f OIS %.3f mIoU %.3f (%d images)" %
      (label, name, c["ods_f1"], c["ois_f1"], c["miou"], c["images"]), file=sys.stderr)
PY
done
if [ "${STAMP:-0}" = 1 ]; then
    "$CLI" model-info "$MODEL" --json >"$WORK/meta.json" || exit 1
    python3 - "$WORK/meta.json" "$SCORES" "$WORK/prov.json" <<'PY'
import json, sys
meta = json.load(open(sys.argv[1]))
prov = meta.get("provenance", {})
prov["scores"] = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
json.dump(prov, open(sys.argv[3], "w"), indent=1)
PY
    "$CLI" model-info "$MODEL" --set-provenance "$WORK/prov.json" >&2 || exit 1
    log "scores stamped into $MODEL"
fi
