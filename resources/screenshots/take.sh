#!/usr/bin/env bash
# The README's screenshots: starts Fisura under Xvfb in English and Spanish and photographs the
# Train pane during and after training, the Analyze pane after a scan queue ran, Inspect with
# the true/false-positive colours and labelling in Inspect. Needs a built tree and
# `apt-get install xvfb xauth imagemagick`.
#
#   resources/screenshots/take.sh [BUILD_DIR]
#   FISURA_SHOTS="label" resources/screenshots/take.sh   # only some groups: train analyze inspect label
#
# Writes resources/screenshots/{train-running,train-results,analyze,inspect-truth,label}-{en,es}.png.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-${FISURA_BUILD_DIR:-$root/build}}"
out="$root/resources/screenshots"
gui="$build/app/gui/fisura"
cli="$build/app/cli/fisura-cli"
for tool in xvfb-run import; do
    command -v "$tool" >/dev/null || { echo "take.sh: $tool is missing (apt-get install xvfb xauth imagemagick)" >&2; exit 1; }
done
[ -x "$gui" ] && [ -x "$cli" ] || { echo "take.sh: build Fisura first ($build)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A private settings, data and cache folder: the user's own Fisura is not touched.
export XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_CACHE_HOME="$work/cache"

# A small demo project with one finished run, made with the command line.
"$cli" demo-data "$work/demo" --segmentation 32 --classification 8 --scan 2048 >/dev/null
"$cli" project new "$work/project" --name "Demo" >/dev/null
"$cli" project add-dataset "$work/project" --data "$work/demo/segmentation" --task segment >/dev/null
"$cli" train --project "$work/project" --task segment --data "$work/demo/segmentation" \
    --epochs 8 --size 128 --width 8 --depth 3 --quiet >/dev/null
scan="$work/demo/scan/demo_scan.tif"

# shot NAME SECONDS ARGS...: start Fisura with ARGS, wait, photograph the screen, stop it.
shot() {
    local name="$1" secs="$2"
    shift 2
    xvfb-run -a -s "-screen 0 1440x1000x24" bash -c '
        "$0" -geometry 1440x1000+0+0 "${@:3}" &
        pid=$!
        sleep "$2"
        import -window root "$1"
        kill "$pid"; wait "$pid" 2>/dev/null || true' "$gui" "$out/$name" "$secs" "$@"
    echo "take.sh: $out/$name"
}

want() { [[ " ${FISURA_SHOTS:-train analyze inspect label} " == *" $1 "* ]]; }

# Results first (the newest run is the finished one), then a run in progress: stopping
# Fisura records it as cancelled, so the Analyze pane still preselects the finished run.
want train && for lang in en es; do
    shot "train-results-$lang.png" 15 --lang "$lang" --project "$work/project" --pane train
done
want train && for lang in en es; do
    shot "train-running-$lang.png" 100 --lang "$lang" --project "$work/project" --pane train \
        --start-training
done
want analyze || want inspect && for lang in en es; do
    shot "analyze-$lang.png" 40 --lang "$lang" --project "$work/project" --pane analyze \
        --analyze "$scan"
done
# Inspect with the map of the last analysis and the demo scan's ground truth, at the threshold
# where this briefly trained model does best (so hits, false alarms and misses all show).
want inspect && map="$(ls "$work/project/maps/"*.tif | head -n 1)"
want inspect && best="$("$cli" score --map "$map" --truth "${scan%.tif}_mask.tif" --json --quiet |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["best_threshold"])')"
want inspect && for lang in en es; do
    shot "inspect-truth-$lang.png" 25 --lang "$lang" --project "$work/project" \
        --inspect "$scan" --map "$map" --threshold "$best"
done
# Labelling: a dataset image in Inspect with its label layer and the label tools, the briefly
# trained model ready to propose labels.
image="$(ls "$work/demo/segmentation/images/"*.tif | head -n 1)"
want label && for lang in en es; do
    shot "label-$lang.png" 20 --lang "$lang" --project "$work/project" --label "$image"
done
exit 0
