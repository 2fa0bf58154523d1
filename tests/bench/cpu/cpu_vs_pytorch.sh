#!/bin/bash
# Fisura against PyTorch on the processor: (a) tiled inference end to end on a generated scan,
# megapixels/s; (b) U-Net training from generated 256-px TIFF scenes, images/s. Same U-Net
# (depth 4, width 16 unless WIDTH/DEPTH say otherwise), same tile/overlap/batch for inference,
# same batch, crop, loss and augmentation for training. Runs alternate contender by contender,
# round by round, so a background load hits all alike. Writes one markdown table (TABLE.md) and
# the raw JSON lines (results.jsonl) into OUT.
#
# Contenders:
#   Fisura                  fisura-cli with its policy (threads, bf16 inference where the CPU
#                           has AVX512-BF16/AMX, channels-last, BatchNorm folding, malloc tuning)
#   Fisura, glibc defaults  the same with glibc's malloc defaults (inference only: a
#                           GLIBC_TUNABLES setting of the default value makes Fisura keep them)
#   Fisura, fp32            --precision fp32 (inference only)
#   PyTorch defaults        cpu_peer.py as a user runs it: torch's default threads, fp32, NCHW
#   PyTorch fp32, N thr.    threads = cores, fp32 (training only: the precision decision)
#   PyTorch best            threads = cores, bf16 autocast (if the CPU has it), channels-last
#
# Usage: cpu_vs_pytorch.sh [--cpu] [--side N] [--rounds N] [--skip-train] [--skip-infer] BUILD OUT
#   BUILD: a build folder with fisura-cli and bench_infer. On a machine with an NVIDIA GPU, pass
#   --cpu (Fisura then runs with --cpu; the peer always runs on the CPU).
# Environment: PY (python with torch and tifffile; default /usr/bin/python3), WIDTH (16),
#   DEPTH (4), BATCH (8), SIZE (256), EPOCHS (3; epoch 1 is warm-up), STEPS (3 per epoch),
#   IMAGES (48 scenes), BENCH_LOCK (a lock file shared with builds: taken while timing).
set -u
CPU=0; SIDE=4096; ROUNDS=2; TRAIN=1; INFER=1
while [ $# -gt 2 ]; do
    case $1 in
    --cpu) CPU=1 ;;
    --side) SIDE=$2; shift ;;
    --rounds) ROUNDS=$2; shift ;;
    --skip-train) TRAIN=0 ;;
    --skip-infer) INFER=0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
[ $# -eq 2 ] || { sed -n 2,26p "$0"; exit 2; }
B=$(readlink -f "$1"); OUT=$2
if [ $CPU = 0 ] && nvidia-smi -L > /dev/null 2>&1; then
    echo "a GPU is present: pass --cpu to measure the processor" >&2; exit 2
fi
PY=${PY:-/usr/bin/python3}
WIDTH=${WIDTH:-16}; DEPTH=${DEPTH:-4}; BATCH=${BATCH:-8}; SIZE=${SIZE:-256}
EPOCHS=${EPOCHS:-3}; STEPS=${STEPS:-3}; IMAGES=${IMAGES:-48}
HERE=$(cd "$(dirname "$0")" && pwd)
CLI=$B/app/cli/fisura-cli
CORES=$(nproc)
BF16=""; grep -qw -e avx512_bf16 -e amx_bf16 /proc/cpuinfo && BF16="--bf16"
mkdir -p "$OUT"; W=$OUT/work; mkdir -p "$W"
R=$OUT/results.jsonl; : > "$R"
log() { echo "[$(date +%T)] $*" | tee -a "$OUT/bench.log"; }
# The default mmap_max: Fisura sees a user setting and leaves glibc's malloc as it is.
GLIBC_DEFAULTS="glibc.malloc.mmap_max=65536"

# Inputs (not timed).
[ $INFER = 1 ] && [ ! -f "$W/scan.tif" ] && "$B/tests/bench/bench_infer" scan "$W/scan.tif" "$SIDE" "$SIDE" deflate
[ $INFER = 1 ] && [ ! -f "$W/unet.fmodel" ] && "$B/tests/bench/bench_infer" model "$W/unet.fmodel" "$WIDTH" "$DEPTH"
[ $TRAIN = 1 ] && [ ! -d "$W/synth/segmentation" ] && "$CLI" demo-data "$W/synth" --segmentation "$IMAGES" \
    --classification 0 --patch 256 --scan 0 > /dev/null
DATA=$W/synth/segmentation

if [ -n "${BENCH_LOCK:-}" ]; then exec 9> "$BENCH_LOCK"; flock 9; fi
log "cpu: $CORES cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), bf16: ${BF16:-no}"
log "torch: $($PY -c 'import torch; print(torch.__version__, "default threads", torch.get_num_threads())')"
log "commit: $(git -C "$HERE" rev-parse --short HEAD 2>/dev/null), load: $(cut -d' ' -f1-3 /proc/loadavg)"

rec() { # rec KIND CONTENDER ROUND VALUE
    echo "{\"kind\": \"$1\", \"contender\": \"$2\", \"round\": $3, \"value\": $4, \"load\": $(cut -d' ' -f1 /proc/loadavg)}" >> "$R"
    log "$1 round $3: $2: $4"
}
fisura_infer() { # NAME ROUND [VAR=value...] [-- fisura-cli options...]
    local name=$1 r=$2 vars=() ; shift 2
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do vars+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    env "${vars[@]}" "$CLI" infer --model "$W/unet.fmodel" --in "$W/scan.tif" --out "$W/f.tif" --cpu \
        --compression deflate --json "$@" > "$W/f.json" 2>> "$OUT/fisura.log" || { log "$name failed"; return; }
    rec infer "$name" "$r" "$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["megapixels_per_second"])' "$W/f.json")"
}
peer_infer() {
    local name=$1 r=$2; shift 2
    $PY "$HERE/cpu_peer.py" infer "$W/scan.tif" "$W/p.tif" --width "$WIDTH" --depth "$DEPTH" "$@" \
        > "$W/p.json" 2>> "$OUT/peer.log" || { log "$name failed"; return; }
    rec infer "$name" "$r" "$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["megapixels_per_second"])' "$W/p.json")"
}
fisura_train() {
    local r=$1
    rm -f "$W/o.fisura"*
    "$CLI" train --task segment --data "$DATA" --out "$W/o.fisura" --cpu --epochs "$EPOCHS" \
        --max-batches "$STEPS" --batch "$BATCH" --size "$SIZE" --depth "$DEPTH" --width "$WIDTH" \
        --workers 1 --val 0 --patience 0 --quiet > "$W/t.json" 2>> "$OUT/fisura.log" || { log "fisura train failed"; return; }
    rec train Fisura "$r" "$($PY -c '
import json, sys
h = [e["images_per_second"] for e in json.load(open(sys.argv[1]))["history"]]
s = h[1:] or h
print(sum(s) / len(s))' "$W/t.json")"
}
peer_train() {
    local name=$1 r=$2; shift 2
    $PY "$HERE/cpu_peer.py" train "$DATA" --width "$WIDTH" --depth "$DEPTH" --size "$SIZE" \
        --batch "$BATCH" --epochs "$EPOCHS" --max-batches "$STEPS" --workers 1 "$@" \
        > "$W/pt.json" 2>> "$OUT/peer.log" || { log "$name failed"; return; }
    rec train "$name" "$r" "$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["images_per_second"])' "$W/pt.json")"
}

BEST="--threads $CORES $BF16 --channels-last"
for r in $(seq "$ROUNDS"); do
    if [ $INFER = 1 ]; then
        fisura_infer "Fisura" "$r"
        peer_infer "PyTorch defaults" "$r"
        fisura_infer "Fisura, glibc malloc defaults" "$r" GLIBC_TUNABLES=$GLIBC_DEFAULTS
        peer_infer "PyTorch best ($CORES threads, ${BF16:+bf16, }channels-last)" "$r" $BEST
        fisura_infer "Fisura, fp32" "$r" -- --precision fp32
    fi
    if [ $TRAIN = 1 ]; then
        fisura_train "$r"
        peer_train "PyTorch defaults" "$r"
        peer_train "PyTorch fp32, $CORES threads" "$r" --threads "$CORES"
        peer_train "PyTorch best ($CORES threads, ${BF16:+bf16, }channels-last)" "$r" $BEST
    fi
done

$PY - "$R" "$ROUNDS" "$CORES" > "$OUT/TABLE.md" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
n = int(sys.argv[2])
print(f"| | contender | {' | '.join(f'round {i}' for i in range(1, n + 1))} | median | / PyTorch defaults |")
print(f"|---|---|{'---:|' * n}---:|---:|")
for kind, unit in (("infer", "MP/s"), ("train", "images/s")):
    names = list(dict.fromkeys(r["contender"] for r in rows if r["kind"] == kind))
    med = {c: statistics.median([r["value"] for r in rows if r["kind"] == kind and r["contender"] == c])
           for c in names}
    base = med.get("PyTorch defaults")
    for c in names:
        vals = {r["round"]: r["value"] for r in rows if r["kind"] == kind and r["contender"] == c}
        cells = " | ".join(f"{vals[i]:.3f}" if i in vals else "–" for i in range(1, n + 1))
        ratio = f"{med[c] / base:.2f}x" if base else "–"
        label = "inference, " + unit if kind == "infer" else "training, " + unit
        print(f"| {label} | {c} | {cells} | **{med[c]:.3f}** | {ratio} |")
PY
cat "$OUT/TABLE.md"
