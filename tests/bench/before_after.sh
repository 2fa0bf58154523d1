#!/usr/bin/env bash
# Same results before and after a change that should not alter them (a refactoring): two
# fisura-cli builds make the demo data, train the same U-Net on the same files with the same seed
# (on the CPU, and on a GPU where there is one), infer the same model over the same scans, and
# measure the same map. Prints a Markdown report of what differs: data bytes, the loss and
# validation figures of every epoch, the maps' grey levels (fisura_map_diff) and the measured
# totals.
#
#   tests/bench/before_after.sh OLD_CLI NEW_CLI MAP_DIFF WORK [SCAN ...]
#
# OLD_CLI/NEW_CLI: the two fisura-cli programs; MAP_DIFF: tests/gpu's fisura_map_diff; WORK: an
# empty folder (removed first); SCAN: more scans to infer besides the demo scan.
# The new build's training gets `--init scratch` when it knows the option (the old one always
# started from random weights).
set -uo pipefail

old=$1 new=$2 mapdiff=$3 work=$4
shift 4
scans=("$@")
rm -rf "$work"
mkdir -p "$work/old" "$work/new"

say() { printf '%s\n' "$*"; }
json_get() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

gpu=$("$new" info --json | python3 -c 'import json,sys; print(int(json.load(sys.stdin)["cuda"]["usable"]))')
init=()
"$new" train --help | grep -q -- '--init' && init=(--init scratch)

say "# Before/after: $("$old" --version 2>&1 | head -1) (old) vs $("$new" --version 2>&1 | head -1) (new)"
say
say "CUDA usable: $gpu. $("$new" info --json | python3 -c 'import json,sys; j=json.load(sys.stdin); print(", ".join(g["name"] for g in j["gpus"]) or "no GPU")')"
say

# 1. The demo data of both builds: the same bytes?
for v in old new; do
    cli=${!v}
    "$cli" demo-data "$work/$v/demo" --segmentation 48 --classification 0 --patch 256 --scan 2048 \
        >/dev/null 2>"$work/$v/demo.err" || say "demo-data ($v) failed: $(cat "$work/$v/demo.err")"
    (cd "$work/$v/demo" && find . -type f -print0 | sort -z | xargs -0 md5sum) >"$work/$v/demo.md5"
done
if cmp -s "$work/old/demo.md5" "$work/new/demo.md5"; then
    say "Demo data: the same $(wc -l <"$work/new/demo.md5") files, byte for byte."
else
    say "Demo data: DIFFERENT ($(diff "$work/old/demo.md5" "$work/new/demo.md5" | grep -c '^>') files differ)."
fi
say

# 2. Training: the same files (the old build's demo data), seed, batch and threads.
data="$work/old/demo/segmentation"
train() { # VERSION NAME ARGS...
    local v=$1 name=$2
    shift 2
    local cli=${!v} extra=()
    [ "$v" = new ] && extra=("${init[@]}")
    "$cli" train --task segment --data "$data" --patience 0 --quiet --size 256 --depth 4 \
        --width 16 --epochs 3 --seed 7 --val 0.25 --out "$work/$v/$name.fisura" "${extra[@]}" "$@" \
        >"$work/$v/$name.json" 2>"$work/$v/$name.err" || say "train $name ($v) failed: $(tail -3 "$work/$v/$name.err")"
}
runs=(cpu)
train old cpu --cpu --batch 8 --threads 8 --workers 2
train new cpu --cpu --batch 8 --threads 8 --workers 2
if [ "$gpu" = 1 ]; then
    runs+=(gpu)
    train old gpu --batch 16 --precision fp32 --workers 4
    train new gpu --batch 16 --precision fp32 --workers 4
fi
for r in "${runs[@]}"; do
    say "Training on the $r (3 epochs, batch $([ "$r" = cpu ] && echo 8 || echo 16), fp32, seed 7):"
    say
    say "| epoch | train loss old | train loss new | val loss old | val loss new | score old | score new |"
    say "| --- | --- | --- | --- | --- | --- | --- |"
    python3 - "$work/old/$r.json" "$work/new/$r.json" <<'EOF'
import json, sys
a, b = (json.load(open(p)).get("history", []) for p in sys.argv[1:3])
worst = 0.0
for x, y in zip(a, b):
    row = [x.get("epoch")]
    for k in ("train_loss", "val_loss", "score"):
        row += [x.get(k), y.get(k)]
        if isinstance(x.get(k), (int, float)) and isinstance(y.get(k), (int, float)):
            worst = max(worst, abs(x[k] - y[k]) / max(abs(x[k]), 1e-12))
    print("| " + " | ".join(f"{v:.6g}" if isinstance(v, float) else str(v) for v in row) + " |")
print(f"\nEpochs: {len(a)} old, {len(b)} new; largest relative difference {worst:.3g}.\n")
EOF
done

# 3. Inference of one model (the old build's CPU run) by both builds, CPU fp32 and GPU.
model="$work/old/cpu.fisura"
say "Inference of the old build's CPU model (maps compared with fisura_map_diff, grey levels of level 0):"
say
say "| scan | device | identical files | max | mean | share > 2 levels |"
say "| --- | --- | --- | --- | --- | --- |"
all_scans=("$work/old/demo/scan/demo_scan.tif" "${scans[@]}")
devices=(cpu)
[ "$gpu" = 1 ] && devices+=(gpu)
for s in "${all_scans[@]}"; do
    stem=$(basename "$s" .tif)
    for d in "${devices[@]}"; do
        dev=(--cpu --precision fp32)
        [ "$d" = gpu ] && dev=(--gpus 1)
        for v in old new; do
            cli=${!v}
            "$cli" infer --model "$model" --in "$s" --out "$work/$v/$stem.$d.tif" --quiet "${dev[@]}" \
                2>"$work/$v/$stem.$d.err" || say "infer $stem $d ($v) failed: $(tail -2 "$work/$v/$stem.$d.err")"
        done
        same=no
        cmp -s "$work/old/$stem.$d.tif" "$work/new/$stem.$d.tif" && same=yes
        "$mapdiff" "$work/old/$stem.$d.tif" "$work/new/$stem.$d.tif" >"$work/$stem.$d.diff" 2>&1
        python3 - "$work/$stem.$d.diff" "$stem" "$d" "$same" <<'EOF'
import json, sys
try:
    j = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
    print(f"| {sys.argv[2]} ({j['width']} x {j['height']}) | {sys.argv[3]} | {sys.argv[4]} | {j['max']} | {j['mean']:.4g} | {j['over2']:.3g} |")
except Exception as e:
    print(f"| {sys.argv[2]} | {sys.argv[3]} | {sys.argv[4]} | map diff failed: {open(sys.argv[1]).read().strip()[:200]} | | |")
EOF
    done
done
say

# 4. Measuring the same map (the new build's CPU map of the demo scan) with both builds' defaults.
map="$work/new/demo_scan.cpu.tif"
say "Measuring $(basename "$map") with each build's defaults:"
say
say "| build | cracks | branches | length (px) | area (px) |"
say "| --- | --- | --- | --- | --- |"
for v in old new; do
    cli=${!v}
    "$cli" measure --map "$map" --json "$work/$v/measure.json" >/dev/null 2>"$work/$v/measure.err" ||
        say "measure ($v) failed: $(tail -2 "$work/$v/measure.err")"
    python3 - "$work/$v/measure.json" "$v" <<'EOF'
import json, sys
try:
    t = json.load(open(sys.argv[1]))["totals"]
    print(f"| {sys.argv[2]} | {t.get('cracks')} | {t.get('branches')} | {t.get('length_px')} | {t.get('area_px')} |")
except Exception as e:
    print(f"| {sys.argv[2]} | unreadable: {e} | | | |")
EOF
done
