#!/bin/bash
# Tiled inference on the CPU of a Debian machine: Fisura against the Python peer
# (tests/bench/infer_peer.py with Debian's python3-torch and python3-tifffile) on a generated
# SIDE x SIDE scan, same weights (the peer's U-Net exported to TorchScript for Fisura), same tile,
# overlap and batch, fp32; runs alternate Fisura / peer ROUNDS times.
# Usage: cpu_infer.sh BUILD_DIR OUT_DIR [SIDE] [ROUNDS]   (needs `ninja bench_infer fisura-cli`)
set -u
B=$1
OUT=$2
SIDE=${3:-3072}
ROUNDS=${4:-2}
S=$(cd "$(dirname "$0")/../.." && pwd)
PY=/usr/bin/python3
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p "$OUT"
CLI=$B/app/cli/fisura-cli
"$B/tests/bench/bench_infer" scan "$W/scan.tif" "$SIDE" "$SIDE" deflate
"$B/tests/bench/bench_infer" model "$W/unet.fmodel" 16 4
$PY "$S/tests/bench/infer_peer.py" export "$W/peer.pt" --width 16 --depth 4
for r in $(seq "$ROUNDS"); do
    "$CLI" infer --model "$W/unet.fmodel" --in "$W/scan.tif" --out "$W/native.tif" --cpu \
        --compression deflate --json --time-network > "$OUT/native_$r.json"
    "$CLI" infer --model "$W/peer.pt" --in "$W/scan.tif" --out "$W/script.tif" --cpu \
        --compression deflate --json > "$OUT/script_$r.json"
    $PY "$S/tests/bench/infer_peer.py" run "$W/peer.pt" "$W/scan.tif" "$W/peer.tif" --cpu \
        --precision fp32 --batch 1 > "$OUT/peer_$r.json"
done
$PY "$S/tests/bench/infer_peer.py" compare "$W/script.tif" "$W/peer.tif" > "$OUT/compare.json"
$PY - "$OUT" "$ROUNDS" <<'PY' | tee "$OUT/summary.txt"
import json, sys, os
o, n = sys.argv[1], int(sys.argv[2])
for r in range(1, n + 1):
    a, s, p = (json.load(open(os.path.join(o, f"{k}_{r}.json"))) for k in ("native", "script", "peer"))
    print(f"round {r}: Fisura U-Net {a['seconds']:.1f} s ({a['megapixels_per_second']:.2f} MP/s, network only "
          f"{a['network_only_seconds']:.1f} s, end-to-end/network {a['end_to_end_over_network']:.2f}, RSS "
          f"{a['peak_rss_bytes']>>20} MiB); Fisura same weights {s['seconds']:.1f} s; peer {p['seconds']:.1f} s "
          f"(RSS {p['peak_rss_bytes']>>20} MiB); peer/Fisura same weights {p['seconds']/s['seconds']:.2f}x")
print("maps (Fisura vs peer, same weights):", open(os.path.join(o, "compare.json")).read().strip())
PY
