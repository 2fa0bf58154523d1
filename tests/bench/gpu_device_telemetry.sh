#!/bin/bash
# One complete GPU-machine session for the device benchmarks: build, inventory vs nvidia-smi,
# policy, monitor during a training probe, sampler cost vs nvidia-smi polling, PyTorch peer.
# Usage: gpu_device_telemetry.sh BUILD_DIR OUT_DIR   (environment prepared so CMake finds a CUDA LibTorch)
set -u
B=$1
OUT=$2
S=$(cd "$(dirname "$0")/../.." && pwd)
log() { echo "== $*" | tee -a "$OUT/session.txt"; }
export PYTHONUNBUFFERED=1

log "build $(date -u +%FT%TZ)"
{ cmake -S "$S" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFISURA_BUILD_GUI=OFF &&
  cmake --build "$B" -j16 --target fisura-cli bench_probe bench_sampler; } > "$OUT/build.log" 2>&1 ||
  { tail -60 "$OUT/build.log"; exit 1; }
CLI=$B/app/cli/fisura-cli
ctest --test-dir "$B" -R "cli_(version|info_json|monitor|policy)" --output-on-failure 2>&1 |
    tail -15 >> "$OUT/session.txt"

log "inventory"
nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,memory.total,compute_cap \
    --format=csv,noheader,nounits > "$OUT/smi.csv"
"$CLI" info --json > "$OUT/info.json"
"$CLI" info >> "$OUT/session.txt" 2>&1
python3 "$S/tests/bench/check_inventory.py" "$OUT/info.json" "$OUT/smi.csv" >> "$OUT/session.txt" 2>&1
log "inventory check rc=$?"

log "policy"
"$CLI" policy --model unet --input 512 >> "$OUT/session.txt" 2>&1
"$CLI" policy --model unet --input 512 --kind infer --json >> "$OUT/session.txt" 2>&1

log "sampler cost (NVML on), then nvidia-smi polling at 2 Hz for the same time"
"$B/tests/bench/bench_sampler" 10 2 1.0 >> "$OUT/session.txt" 2>&1
log "bench_sampler rc=$?"
nvidia-smi --query-gpu=utilization.gpu,memory.used,temperature.gpu,power.draw,clocks.sm \
    --format=csv -lms 500 > /dev/null &
SMI=$!
sleep 10
python3 - "$SMI" >> "$OUT/session.txt" <<'PY'
import os, sys
pid = sys.argv[1]
f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
tick = os.sysconf("SC_CLK_TCK")
cpu = (int(f[11]) + int(f[12])) / tick
start = int(f[19]) / tick
up = float(open("/proc/uptime").read().split()[0])
print(f'{{"peer": "nvidia-smi -lms 500", "cpu_percent_of_one_core": {100 * cpu / (up - start):.4f}}}')
PY
kill $SMI

log "probe benchmark with monitor running"
"$CLI" monitor --hz 2 --seconds 0 --json > "$OUT/monitor.jsonl" 2>> "$OUT/session.txt" &
MON=$!
timeout 200 "$B/tests/bench/bench_probe" 512 32 1024 32 > "$OUT/probe.jsonl" 2>> "$OUT/session.txt"
log "bench_probe rc=$?"
kill -INT $MON; wait $MON
PROBED=$(python3 -c "import json,sys;[print(j['result']['batch_size']) for j in map(json.loads,open(sys.argv[1])) if j.get('what')=='probe' and 'result' in j]" "$OUT/probe.jsonl")
log "peer (PyTorch) probed=${PROBED:-none}"
timeout 75 python3 "$S/tests/bench/unet_peer.py" 512 32 fp32:32 tf32:32 bf16:32 ${PROBED:+bf16:$PROBED} \
    > "$OUT/peer.jsonl" 2>> "$OUT/session.txt"
log "peer rc=$? $(date -u +%FT%TZ)"
