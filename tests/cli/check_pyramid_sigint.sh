#!/bin/sh
# SIGINT during `fisura-cli pyramid` must exit 130 and leave neither output nor temporaries.
# usage: check_pyramid_sigint.sh <fisura-cli> <work dir>
set -u
CLI="$1"
WORK="$2"
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1
"$CLI" demo-data "$WORK/d" --segmentation 0 --classification 0 --scan 1024 --json >/dev/null || exit 1
IN="$WORK/d/scan/demo_scan.tif"
# Slowest settings so the job is surely still running when the signal arrives.
"$CLI" pyramid "$IN" "$WORK/out.tif" --threads 1 --level 22 2>"$WORK/err.txt" &
PID=$!
i=0
until grep -q "row" "$WORK/err.txt" 2>/dev/null; do
    i=$((i + 1))
    if [ $i -gt 600 ]; then echo "no progress seen"; kill $PID; exit 1; fi
    sleep 0.05
done
kill -INT $PID
wait $PID
RC=$?
if [ $RC -ne 130 ]; then echo "exit code $RC, expected 130"; cat "$WORK/err.txt"; exit 1; fi
grep -q "cancelled" "$WORK/err.txt" || { echo "no cancellation message"; exit 1; }
LEFT=$(ls "$WORK" | grep -v -e '^d$' -e '^err.txt$')
if [ -n "$LEFT" ]; then echo "left behind: $LEFT"; exit 1; fi
echo "cancelled cleanly"
