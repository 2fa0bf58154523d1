#!/usr/bin/env python3
"""Compare `fisura-cli info --json` with nvidia-smi's view of the same GPUs.
Usage: check_inventory.py INFO.json SMI.csv
SMI.csv from: nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,memory.total,
compute_cap --format=csv,noheader,nounits
Exit 1 on any mismatch."""
import json
import sys

info = json.load(open(sys.argv[1]))
rows = [[c.strip() for c in line.split(",")] for line in open(sys.argv[2]) if line.strip()]
bad = 0


def check(what, ours, theirs, tolerance=0.0):
    global bad
    ok = ours == theirs or (tolerance and abs(ours - theirs) <= tolerance * theirs)
    bad += not ok
    print(f"{'OK ' if ok else 'BAD'} {what}: fisura={ours!r} nvidia-smi={theirs!r}")


check("gpu count", len(info["gpus"]), len(rows))
check("driver", info["cuda"]["driver_version"], rows[0][3] if rows else "")
by_bus = {r[2].lower()[-12:]: r for r in rows}  # "00000000:3B:00.0" -> "0000:3b:00.0"
for g in info["gpus"]:
    r = by_bus.get(g["pci_bus_id"].lower())
    if r is None:
        check(f"gpu {g['index']} bus id", g["pci_bus_id"], sorted(by_bus))
        continue
    check(f"gpu {g['index']} name", g["name"], r[1])
    check(f"gpu {g['index']} compute capability", g["compute_capability"], r[5])
    check(f"gpu {g['index']} memory MiB", g["memory_total_bytes"] // (1024 * 1024), int(r[4]), 0.01)
sys.exit(1 if bad else 0)
