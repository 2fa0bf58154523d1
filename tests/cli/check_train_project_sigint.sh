#!/bin/sh
# SIGINT during `fisura-cli train --project` must exit 130 and leave the run recorded as
# cancelled, with the epochs completed so far and an end time.
# usage: check_train_project_sigint.sh <fisura-cli> <work dir>
set -u
CLI="$1"
WORK="$2"
rm -rf "$WORK" && mkdir -p "$WORK/proj" || exit 1
"$CLI" demo-data "$WORK/d" --segmentation 6 --classification 0 --patch 64 --scan 0 >/dev/null ||
    exit 1
echo '{"format": "fisura-project", "schema": 1}' >"$WORK/proj/project.json"
"$CLI" train --task segment --data "$WORK/d/segmentation" --project "$WORK/proj" --epochs 100000 \
    --patience 0 --batch 4 --size 32 --depth 2 --width 4 --cpu >"$WORK/out.json" 2>"$WORK/err.txt" &
PID=$!
i=0
until grep -q "epoch 2 done" "$WORK/err.txt" 2>/dev/null; do
    i=$((i + 1))
    if [ $i -gt 600 ]; then echo "no epochs seen"; kill $PID; exit 1; fi
    sleep 0.05
done
kill -INT $PID
wait $PID
RC=$?
if [ $RC -ne 130 ]; then echo "exit code $RC, expected 130"; cat "$WORK/err.txt"; exit 1; fi
grep -q '"state": "cancelled"' "$WORK/proj/project.json" ||
    { echo "run not recorded as cancelled"; cat "$WORK/proj/project.json"; exit 1; }
grep -q '"ended_at": "2' "$WORK/proj/project.json" || { echo "no end time"; exit 1; }
grep -q '"epoch": 1' "$WORK/proj/project.json" || { echo "epochs missing from the history"; exit 1; }
exit 0
