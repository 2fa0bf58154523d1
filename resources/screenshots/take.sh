#!/usr/bin/env bash
# The README's pictures of the complete loop at 1280 × 720, in English and Spanish: starts Fisura
# under Xvfb on a 1280 × 720 screen and photographs the Train pane during and after training, the
# Analyze pane after a scan queue ran, Inspect with the crack overlay and with the cracks
# measured, the first page of the PDF report, and labelling in
# Inspect. Needs a built tree and `apt-get install xvfb xauth imagemagick poppler-utils`.
#
#   resources/screenshots/take.sh [BUILD_DIR]
#   FISURA_SHOTS="label" resources/screenshots/take.sh   # only some: train analyze inspect report label
#
# Writes resources/screenshots/loop/<step>-{en,es}.png, quantized to 256 colours (small files).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-${FISURA_BUILD_DIR:-$root/build}}"
out="$root/resources/screenshots/loop"
gui="$build/app/gui/fisura"
cli="$build/app/cli/fisura-cli"
for tool in xvfb-run import convert pdftoppm; do
    command -v "$tool" >/dev/null || { echo "take.sh: $tool is missing (apt-get install xvfb xauth imagemagick poppler-utils)" >&2; exit 1; }
done
[ -x "$gui" ] && [ -x "$cli" ] || { echo "take.sh: build Fisura first ($build)" >&2; exit 1; }
mkdir -p "$out"

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

# small FILE: 256 colours, no metadata (keeps the repository small).
small() { convert "$1" -strip -colors 256 "PNG8:$1"; }

# shot NAME SECONDS ARGS...: start Fisura with ARGS on a 1280 × 720 screen, wait, photograph the
# screen, stop it.
shot() {
    local name="$1" secs="$2"
    shift 2
    xvfb-run -a -s "-screen 0 1280x720x24" bash -c '
        "$0" -geometry 1280x720+0+0 "${@:3}" &
        pid=$!
        sleep "$2"
        import -window root "$1"
        kill "$pid"; wait "$pid" 2>/dev/null || true' "$gui" "$out/$name" "$secs" "$@"
    small "$out/$name"
    echo "take.sh: $out/$name"
}

want() { [[ " ${FISURA_SHOTS:-train analyze inspect report label} " == *" $1 "* ]]; }

# Results first (the newest run is the finished one), then a run in progress: stopping
# Fisura records it as cancelled, so the Analyze pane still preselects the finished run.
want train && for lang in en es; do
    shot "train-results-$lang.png" 15 --lang "$lang" --project "$work/project" --pane train
done
want train && for lang in en es; do
    shot "train-running-$lang.png" 60 --lang "$lang" --project "$work/project" --pane train \
        --start-training
done
want analyze || want inspect || want report && for lang in en es; do
    shot "analyze-$lang.png" 40 --lang "$lang" --project "$work/project" --pane analyze \
        --analyze "$scan"
done
# Inspect with the map of the last analysis, at the threshold where this briefly trained model
# does best against the demo scan's ground truth.
map="$(ls "$work/project/maps/"*.tif 2>/dev/null | head -n 1 || true)"
if want inspect || want report; then
    [ -n "$map" ] || { echo "take.sh: the analysis wrote no map" >&2; exit 1; }
    best="$("$cli" score --map "$map" --truth "${scan%.tif}_mask.tif" --json --quiet |
        python3 -c 'import json,sys; t=json.load(sys.stdin)["best_threshold"]; print(round(t/255 if t > 1 else t, 3))')"
fi
want inspect && for lang in en es; do
    shot "inspect-overlay-$lang.png" 20 --lang "$lang" --project "$work/project" \
        --inspect "$scan" --map "$map" --threshold "$best"
    shot "measure-$lang.png" 30 --lang "$lang" --project "$work/project" \
        --inspect "$scan" --map "$map" --threshold "$best" --measure
done
# The PDF report of the same map: its first page.
want report && for lang in en es; do
    QT_QPA_PLATFORM=offscreen "$gui" --report-pdf "$work/report-$lang.pdf" --map "$map" \
        --scan "$scan" --threshold "$best" --lang "$lang"
    pdftoppm -png -r 80 -f 1 -l 1 -singlefile "$work/report-$lang.pdf" "$out/report-$lang"
    small "$out/report-$lang.png"
    echo "take.sh: $out/report-$lang.png"
done
# Labelling: a dataset image in Inspect with its label layer and the label tools, the briefly
# trained model ready to propose labels.
image="$(ls "$work/demo/segmentation/images/"*.tif | head -n 1)"
want label && for lang in en es; do
    shot "label-$lang.png" 20 --lang "$lang" --project "$work/project" --label "$image"
done
exit 0
