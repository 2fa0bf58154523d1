#!/bin/sh
# A signal during a long `fisura-cli pyramid`, `infer` or `propose` cancels the job: exit code
# 128 + the signal (130 SIGINT, 143 SIGTERM, 129 SIGHUP, 131 SIGQUIT, as a shell reports a
# process the signal ended), a cancellation message, neither output nor temporary (`.part`).
# usage: check_sigint.sh <fisura-cli> <work dir> pyramid|infer|propose [INT|TERM|HUP|QUIT]
set -u
CLI="$1"
WORK="$2"
MODE="$3"
SIG="${4:-INT}"
case "$SIG" in
INT) EXPECT=130 ;;
TERM) EXPECT=143 ;;
HUP) EXPECT=129 ;;
QUIT) EXPECT=131 ;;
*) echo "unknown signal $SIG"; exit 2 ;;
esac
rm -rf "$WORK" && mkdir -p "$WORK/out" || exit 1
"$CLI" demo-data "$WORK/d" --segmentation 4 --classification 0 --patch 64 --scan 1024 --json \
    >/dev/null || exit 1
IN="$WORK/d/scan/demo_scan.tif"
# Slowest settings, so the job is surely still running when the signal arrives.
case "$MODE" in
pyramid)
    "$CLI" pyramid "$IN" "$WORK/out/out.tif" --threads 1 --level 22 2>"$WORK/err.txt" &
    ;;
infer)
    "$CLI" train --task segment --data "$WORK/d/segmentation" --out "$WORK/m.fisura" --epochs 1 \
        --batch 2 --size 32 --depth 2 --width 4 --cpu --quiet >/dev/null 2>&1 ||
        { echo "train failed"; exit 1; }
    "$CLI" infer --model "$WORK/m.fisura" --in "$IN" --out "$WORK/out/map.tif" --tile 32 \
        --overlap 8 --batch 1 --cpu 2>"$WORK/err.txt" &
    ;;
propose)
    "$CLI" train --task segment --data "$WORK/d/segmentation" --out "$WORK/m.fisura" --epochs 1 \
        --batch 2 --size 32 --depth 2 --width 4 --cpu --quiet >/dev/null 2>&1 ||
        { echo "train failed"; exit 1; }
    "$CLI" propose --model "$WORK/m.fisura" --in "$IN" --out "$WORK/out" --tile 32 --batch 1 \
        --cpu 2>"$WORK/err.txt" &
    ;;
*) echo "unknown mode $MODE"; exit 2 ;;
esac
PID=$!
i=0
until grep -qE "row|tile|image" "$WORK/err.txt" 2>/dev/null; do
    i=$((i + 1))
    if [ $i -gt 600 ]; then echo "no progress seen"; kill $PID; exit 1; fi
    sleep 0.05
done
kill -"$SIG" $PID
wait $PID
RC=$?
if [ $RC -ne $EXPECT ]; then echo "SIG$SIG: exit code $RC, expected $EXPECT"; cat "$WORK/err.txt"; exit 1; fi
grep -q "cancelled" "$WORK/err.txt" || { echo "no cancellation message"; exit 1; }
LEFT=$(ls -A "$WORK/out")
if [ -n "$LEFT" ]; then echo "left behind: $LEFT"; exit 1; fi
echo "SIG$SIG: cancelled cleanly"
