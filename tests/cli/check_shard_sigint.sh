#!/bin/sh
# A folder run stopped by a signal (as Slurm stops a task at its time limit): exit 143 (128 +
# SIGTERM, as shells report it), the scan in progress recorded as cancelled in a manifest that
# is still valid, the scans before it done, no half-written map; merge-manifests lists the
# cancelled scan to redo.
# usage: check_shard_sigint.sh <fisura-cli> <work dir>
set -u
CLI="$1"
WORK="$2"
rm -rf "$WORK" && mkdir -p "$WORK/in" "$WORK/out" || exit 1
"$CLI" demo-data "$WORK/d" --segmentation 4 --classification 0 --patch 64 --scan 1024 --json \
    >/dev/null || exit 1
"$CLI" train --task segment --data "$WORK/d/segmentation" --out "$WORK/m.fisura" --epochs 1 \
    --batch 2 --size 32 --depth 2 --width 4 --cpu --quiet >/dev/null 2>&1 ||
    { echo "train failed"; exit 1; }
# In name order: a small scan (done quickly), then the large one (stopped).
cp "$WORK/d/segmentation/images/$(ls "$WORK/d/segmentation/images" | head -n 1)" "$WORK/in/a_small.tif"
cp "$WORK/d/scan/demo_scan.tif" "$WORK/in/b_large.tif"
"$CLI" infer --model "$WORK/m.fisura" --in "$WORK/in" --out "$WORK/out" --shard 1/1 --tile 32 \
    --overlap 8 --batch 1 --cpu >"$WORK/out.txt" 2>"$WORK/err.txt" &
PID=$!
M="$WORK/out/fisura-manifest.1-of-1.json"
# The manifest says the small scan is done: the large one (thousands of tiles, batch 1) is
# under way.
i=0
until grep -q '"status": "done"' "$M" 2>/dev/null; do
    i=$((i + 1))
    if [ $i -gt 1200 ]; then echo "the small scan never finished"; kill $PID; exit 1; fi
    sleep 0.05
done
sleep 0.2
kill -TERM $PID
wait $PID
RC=$?
if [ $RC -ne 143 ]; then echo "exit code $RC, expected 143"; cat "$WORK/err.txt"; exit 1; fi
[ -f "$M" ] || { echo "no manifest"; exit 1; }
LEFT=$(ls -A "$WORK/out" | grep -v -e '^fisura-manifest.1-of-1.json$' -e '^a_small.probability.tif$')
if [ -n "$LEFT" ]; then echo "left behind: $LEFT"; exit 1; fi
"$CLI" merge-manifests "$WORK/out" --expect-in "$WORK/in" --redo-list "$WORK/redo.txt" >"$WORK/merge.txt"
RC=$?
cat "$WORK/merge.txt"
[ $RC -eq 1 ] || { echo "merge exited $RC, expected 1"; exit 1; }
grep -q "^  done *a_small.tif" "$WORK/merge.txt" || { echo "the small scan is not done"; exit 1; }
grep -q "^  CANCELLED *b_large.tif: cancelled" "$WORK/merge.txt" || { echo "the large scan is not cancelled"; exit 1; }
[ "$(cat "$WORK/redo.txt")" = "$(cd "$WORK/in" && pwd -P)/b_large.tif" ] ||
    { echo "redo list: $(cat "$WORK/redo.txt")"; exit 1; }
echo "stopped cleanly, manifest valid"
