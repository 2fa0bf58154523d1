#!/bin/bash
# Where Fisura's training step spends its GPU time, by kernel family, next to torch.compile's
# (tests/bench/profile_step.py) on the same GPU: the U-Net of gpu_train.sh (depth 4, width 32),
# batch 64, bf16, the batch kept on the GPU. First bench_unet_train checks Fisura's pooling and
# loss kernels against LibTorch's operators (the script stops when they disagree). The step as
# one CUDA graph is timed over 6 epochs with every kernel ("fused") and with the BatchNorm + ReLU
# kernels only ("bnrelu": the step before the pooling and loss kernels), alternating; then Nsight
# Compute (ncu) times 1500 kernels of the op-by-op step (the kernels the graph replays) from the
# third epoch on, without flushing caches or fixing clocks, and whole steps are cut at AdamW's
# kernels. Without ncu only the timings are taken.
# Usage (repository root, CUDA LibTorch found by CMake): OUT=dir tests/bench/gpu_step_timeline.sh
set -u
OUT=${OUT:-/tmp/fisura-step-timeline}
B=${BUILD:-/tmp/b-train}
mkdir -p "$OUT"
log() { echo "[$(date +%T)] $*" | tee -a "$OUT/log.txt"; }

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu.txt" 2>&1
log "build"
{ cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFISURA_BUILD_GUI=OFF &&
  cmake --build "$B" -j"$(nproc)" --target fisura-cli bench_train bench_unet_train; } \
    > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
log "pooling and loss kernels against LibTorch's operators"
"$B/tests/bench/bench_unet_train" 50 > "$OUT/kernels.txt" 2>&1
rc=$?
cat "$OUT/kernels.txt" | tee -a "$OUT/log.txt"
[ $rc -eq 0 ] || { log "the kernels disagree with LibTorch: stopping"; exit 1; }
"$B/app/cli/fisura-cli" demo-data /tmp/synth1024 --segmentation 1024 --classification 0 \
    --patch 256 --scan 0 > /dev/null
D=/tmp/synth1024/segmentation
train() { "$B/tests/bench/bench_train" "$D" "$1" 64 8 bf16 auto 0 "$2" gpu graph; }

for round in 1 2; do
    for kernels in fused bnrelu; do
        log "fisura ($kernels), 6 epochs, timed"
        train 6 $kernels 2>> "$OUT/fisura.err" | tee -a "$OUT/fisura.jsonl" "$OUT/log.txt"
    done
done

if command -v ncu > /dev/null; then
    log "ncu, op-by-op step"
    ncu --launch-skip 3000 --launch-count 1500 --metrics gpu__time_duration.sum --csv \
        --cache-control none --clock-control none --print-units base \
        "$B/tests/bench/bench_train" "$D" 4 64 8 bf16 auto 0 fused gpu eager \
        > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
    python3 - "$OUT/ncu.csv" <<'PY' | tee -a "$OUT/log.txt"
import collections, csv, sys
sys.path.insert(0, "tests/bench")
from profile_step import family  # the same families as the PyTorch profile

def fam(name):
    n = name.lower()
    if any(k in n for k in ("reducekernel", "applykernel", "finalizeforward", "finalizebackward")):
        return "batch norm + ReLU (Fisura's kernels)"
    if "max_pool" in n or "maxpool" in n:  # ATen's are named ..._nhwc, which family() counts
        return "max pool"                   # as convolution
    if "segloss" in n:
        return "loss (Fisura's kernels)"
    return family(name)

rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if l.startswith('"'))
        if r.get("Metric Name") == "gpu__time_duration.sum"]
names = [r["Kernel Name"] for r in rows]
ns = [float(r["Metric Value"].replace(",", "")) for r in rows]  # ncu groups thousands
# Steps end with AdamW's kernels: whole steps lie between the first kernel of the first and of
# the last group of them.
opt = [i for i, n in enumerate(names) if "adam" in n.lower()]
starts = [i for k, i in enumerate(opt) if k == 0 or i > opt[k - 1] + 8]
if len(starts) < 2:
    print("fewer than two steps in", len(names), "kernels")
    sys.exit(0)
first, last, steps = starts[0], starts[-1], len(starts) - 1
fams, kern = collections.Counter(), collections.Counter()
for i in range(first, last):
    fams[fam(names[i])] += ns[i]
    kern[names[i][:100]] += ns[i]
total = sum(fams.values())
print(f"\n### Fisura, op-by-op step: {(last - first) / steps:.0f} kernels, {total / steps / 1e6:.2f} ms of kernels per step ({steps} steps)\n")
print("| kernel family | ms per step | share |\n|---|---:|---:|")
for f, v in fams.most_common():
    print(f"| {f} | {v / steps / 1e6:.2f} | {100 * v / total:.1f} % |")
print("\nTop kernels:")
for k, v in kern.most_common(25):
    print(f"  {v / steps / 1e6:7.3f} ms  {k}")
PY
else
    log "no ncu: kernel families not measured"
fi
log "torch.compile and eager, batch on the GPU (profile_step.py)"
python3 tests/bench/profile_step.py --batch 64 --size 256 --steps 20 > "$OUT/peer.txt" 2>&1
cat "$OUT/peer.txt" | tee -a "$OUT/log.txt"
log "done"
