#!/usr/bin/env python3
"""One markdown table + one JSON from fisura-bench-patchstats and peers.py output.
Usage: report.py FISURA_JSON PEERS_JSON OUT_MD OUT_JSON (a missing input file gives empty cells)."""
import json
import os
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        return {"error": f"{path}: {e}"}


def fmt(ms):
    if ms is None:
        return "–"
    return f"{ms / 1e3:.2f} s" if ms >= 1e4 else f"{ms:.3f} ms"


def main():
    fis, peers, out_md, out_json = load(sys.argv[1]), load(sys.argv[2]), sys.argv[3], sys.argv[4]
    t = {}
    for row in fis.get("timings", []):
        t[(row["case"], row["path"])] = row
    cases = sorted({c for c, _ in t} | set(peers.get("numpy_loop", {})))
    lines = [f"# Patch statistics (PACO, P = 49, T = 252): {fis.get('device', 'no GPU')}", "",
             f"LibTorch {fis.get('libtorch', '?')}, kernels built: {fis.get('kernels_built')}, "
             f"torch {peers.get('torch', '?')}, NumPy {peers.get('numpy', '?')}; "
             f"device-to-device copy {fis.get('copy_gb_per_s', 0):.0f} GB/s (read + write). "
             "GPU times: median of CUDA-event timings after warm-up; NumPy loop: a subset of "
             "pixels timed and scaled.", "",
             "| case | Fisura kernel | Fisura LibTorch (GPU) | torch eager | torch.compile | "
             "Fisura CPU | NumPy loop | kernel vs eager | kernel vs NumPy | kernel GB/s (% of copy) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    summary = []
    for c in cases:
        k = t.get((c, "kernel"), {}).get("median_ms")
        lt = t.get((c, "libtorch"), {}).get("median_ms")
        cpu = t.get((c, "cpu"), {}).get("median_ms")
        eager = peers.get("torch_eager", {}).get(c)
        comp = peers.get("torch_compile", {}).get(c)
        npl = peers.get("numpy_loop", {}).get(c, {}).get("ms")
        best = k if k is not None else lt
        vs_e = f"{eager / best:.1f}×" if best and eager else "–"
        vs_n = f"{npl / best:.0f}×" if best and npl else "–"
        bw = t.get((c, "kernel"), t.get((c, "libtorch"), {}))
        bw_s = (f"{bw['gb_per_s']:.0f} ({100 * bw['fraction_of_copy_bw']:.0f} %)"
                if "fraction_of_copy_bw" in bw else "–")
        lines.append(f"| {c} | {fmt(k)} | {fmt(lt)} | {fmt(eager)} | {fmt(comp)} | {fmt(cpu)} | "
                     f"{fmt(npl)} | {vs_e} | {vs_n} | {bw_s} |")
        summary.append({"case": c, "fisura_kernel_ms": k, "fisura_libtorch_gpu_ms": lt,
                        "torch_eager_ms": eager, "torch_compile_ms": comp, "fisura_cpu_ms": cpu,
                        "numpy_loop_ms": npl})
    checks = fis.get("checks", [])
    if checks:
        lines += ["", f"GPU check against the CPU float64 path: "
                  f"{'PASS' if fis.get('checks_pass') else 'FAIL'}", "",
                  "| check | mean | inverse | rho | distance | result |", "|---|---|---|---|---|---|"]
        for ch in checks:
            e = lambda key: f"{ch[key]:.1e}" if key in ch else "–"  # noqa: E731
            lines.append(f"| {ch['name']} | {e('mean_rel_err')} | {e('inverse_rel_err')} | "
                         f"{e('rho_rel_err')} | {e('distance_rel_err')} | "
                         f"{'pass' if ch['pass'] else 'FAIL'} |")
    for key in ("error",):
        for src, name in ((fis, "fisura"), (peers, "peers")):
            if key in src:
                lines.append(f"\n{name}: {src[key]}")
    failed = os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])), "fisura_failed.json")
    if os.path.exists(failed):
        err = load(failed).get("error", "?")
        lines.append(f"\nThe first run (with Fisura's kernels) failed and the numbers above come from "
                     f"a run on the LibTorch path only: {err}")
    if peers.get("torch_compile_error"):
        lines.append(f"\ntorch.compile: {peers['torch_compile_error']}")
    for c, a in peers.get("agreement", {}).items():
        lines.append(f"\nPeers agree ({c}): torch vs NumPy inverse rel. err. "
                     f"{a['torch_vs_numpy_inverse_rel_err']:.1e}")
    with open(out_md, "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(out_json, "w") as f:
        json.dump({"summary": summary, "fisura": fis, "peers": peers}, f, indent=2)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
