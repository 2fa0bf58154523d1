#!/bin/sh
# Under a memory limit (ulimit -v) `fisura-cli infer` either fits or fails cleanly: exit 0, or
# exit 3 with out_of_memory / resource in its JSON error; never an abort (134), a crash (139) or
# any other code, and the previous map is left as it was. The limits tried start where the
# program itself can just start (found here: it depends on the libraries) and rise to where
# the job fits; at least one of them must fail.
# usage: check_ulimit.sh <fisura-cli> <work dir>
set -u
CLI="$1"
WORK="$2"
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1
"$CLI" demo-data "$WORK/d" --segmentation 4 --classification 0 --patch 64 --scan 1024 --json \
    >/dev/null || exit 1
"$CLI" train --task segment --data "$WORK/d/segmentation" --out "$WORK/m.fisura" --epochs 1 \
    --batch 2 --size 32 --depth 2 --width 4 --cpu --quiet >/dev/null 2>&1 ||
    { echo "train failed"; exit 1; }
IN="$WORK/d/scan/demo_scan.tif"
MAP="$WORK/map.tif"
run_infer() { # $1: limit in MiB (0: none)
    (
        [ "$1" -gt 0 ] && ulimit -v $(($1 * 1024))
        exec "$CLI" infer --model "$WORK/m.fisura" --in "$IN" --out "$MAP" --tile 64 --cpu --json
    ) >"$WORK/out.json" 2>"$WORK/err.txt"
}
run_infer 0 || { echo "infer without a limit failed"; cat "$WORK/err.txt"; exit 1; }
BEFORE=$(cksum <"$MAP")
# The smallest limit (64 MiB steps) at which the program starts at all.
START=64
until (ulimit -v $((START * 1024)) && exec "$CLI" --version) >/dev/null 2>&1; do
    START=$((START + 64))
    [ $START -gt 65536 ] && { echo "fisura-cli does not start under 64 GiB"; exit 1; }
done
echo "fisura-cli starts from $START MiB"
FAILED=0
LIMIT=$START
while [ $LIMIT -le $((START + 4096)) ]; do
    run_infer $LIMIT
    RC=$?
    case $RC in
    0)
        echo "$LIMIT MiB: fits"
        break
        ;;
    3)
        if ! grep -q '"error": "\(out_of_memory\|resource\)"' "$WORK/out.json"; then
            echo "$LIMIT MiB: exit 3 without an out_of_memory/resource error:"
            cat "$WORK/out.json" "$WORK/err.txt"
            exit 1
        fi
        echo "$LIMIT MiB: $(head -c 300 "$WORK/err.txt")"
        FAILED=$((FAILED + 1))
        ;;
    *)
        echo "$LIMIT MiB: exit code $RC (expected 0 or 3)"
        cat "$WORK/err.txt"
        exit 1
        ;;
    esac
    [ "$(cksum <"$MAP")" = "$BEFORE" ] || { echo "$LIMIT MiB: the previous map changed"; exit 1; }
    LIMIT=$((LIMIT + 64))
done
[ $FAILED -gt 0 ] || { echo "no limit was tight enough to fail"; exit 1; }
ls -A "$WORK" | grep -q '\.part' && { echo "a .part file was left"; exit 1; }
echo "every limit fitted or failed cleanly"
