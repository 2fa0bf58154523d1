#!/usr/bin/env python3
"""Peers of Fisura's patch statistics benchmark (PACO: per-pixel mean, shrunk covariance
C = (1 - rho) S + rho diag(S) and its inverse over the (2r+1)^2 patch of every pixel of a
T x H x W stack; S unbiased, rho from Flasseur et al. 2018, edge pixels repeated at borders):

  numpy_loop   the serial version: one pixel at a time with NumPy (np.cov, np.linalg.inv);
               a subset of pixels is timed and the time scaled to all pixels;
  torch_eager  the same computation batched in PyTorch on the GPU (unfold, bmm, linalg.inv);
  torch_compile the same function through torch.compile, when it compiles.

The peers are checked against each other (torch vs NumPy on the timed pixels). Writes JSON.
Usage: peers.py --json OUT.json [--reps 20] [--numpy-pixels 200] [--no-large] [--cpu]
"""
import argparse
import json
import statistics
import sys
import time

import numpy as np


def make_stack(T, H, W, seed=0):
    return (np.random.default_rng(seed).random((T, H, W), dtype=np.float32) * 255.0)


def paco_rho(S, T):
    d2 = np.sum(np.diag(S) ** 2)
    trS2 = np.sum(S * S)
    trS = np.trace(S)
    return float(np.clip((trS2 + trS ** 2 - 2 * d2) / ((T + 1) * (trS2 - d2)), 0.0, 1.0))


def numpy_pixel(padded, y, x, r, T):
    k = 2 * r + 1
    X = padded[:, y:y + k, x:x + k].reshape(T, k * k).astype(np.float64)
    m = X.mean(axis=0)
    S = np.cov(X, rowvar=False)  # unbiased
    rho = paco_rho(S, T)
    C = (1.0 - rho) * S + rho * np.diag(np.diag(S))
    return m, np.linalg.inv(C), rho


def numpy_loop(stack, r, pixels, seed=1):
    T, H, W = stack.shape
    padded = np.pad(stack, ((0, 0), (r, r), (r, r)), mode="edge")
    rng = np.random.default_rng(seed)
    idx = rng.choice(H * W, size=min(pixels, H * W), replace=False)
    out = []
    t0 = time.perf_counter()
    for n in idx:
        out.append(numpy_pixel(padded, n // W, n % W, r, T))
    dt = time.perf_counter() - t0
    return dt / len(idx) * H * W, idx, out


def torch_batched(stack, r: int):
    import torch
    import torch.nn.functional as F
    T, H, W = stack.shape
    k = 2 * r + 1
    padded = F.pad(stack.unsqueeze(1), (r, r, r, r), mode="replicate")   # [T, 1, H+2r, W+2r]
    X = F.unfold(padded, k).permute(2, 0, 1)                              # [N, T, P]
    m = X.mean(1)
    Xc = X - m.unsqueeze(1)
    S = torch.bmm(Xc.transpose(1, 2), Xc) / (T - 1)
    d = torch.diagonal(S, dim1=1, dim2=2)
    trS = d.sum(1)
    trS2 = (S * S).sum((1, 2))
    d2 = (d * d).sum(1)
    rho = ((trS2 + trS * trS - 2 * d2) / ((T + 1) * (trS2 - d2))).clamp(0, 1)
    C = (1 - rho).view(-1, 1, 1) * S + rho.view(-1, 1, 1) * torch.diag_embed(d)
    return m, torch.linalg.inv(C), rho


def time_gpu(fn, reps, warm=3):
    import torch
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    ms = []
    for _ in range(reps):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        ms.append(a.elapsed_time(b))
    return statistics.median(ms)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", required=True)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--numpy-pixels", type=int, default=200)
    ap.add_argument("--no-large", action="store_true")
    ap.add_argument("--cpu", action="store_true", help="no GPU peers (a local try)")
    a = ap.parse_args()
    r, T = 3, 252
    cases = [("100x100x252", 100, 100)] + ([] if a.no_large else [("200x200x252", 200, 200)])
    report = {"numpy": np.__version__, "numpy_loop": {}, "torch_eager": {}, "torch_compile": {},
              "agreement": {}}
    try:
        import torch
        report["torch"] = torch.__version__
        gpu = torch.cuda.is_available() and not a.cpu
        if gpu:
            report["device"] = torch.cuda.get_device_name(0)
    except ImportError:
        torch, gpu = None, False
    compiled = None
    for name, H, W in cases:
        stack = make_stack(T, H, W)
        secs, idx, ref = numpy_loop(stack, r, a.numpy_pixels)
        report["numpy_loop"][name] = {"ms": secs * 1e3, "pixels_timed": len(idx),
                                      "scaled_to": H * W}
        print(f"numpy loop   {name}: {secs:.2f} s (scaled from {len(idx)} pixels)", flush=True)
        if not gpu:
            continue
        st = torch.from_numpy(stack).cuda()
        report["torch_eager"][name] = time_gpu(lambda: torch_batched(st, r), a.reps)
        print(f"torch eager  {name}: {report['torch_eager'][name]:.3f} ms", flush=True)
        m, P, rho = torch_batched(st.double(), r)
        sel = torch.from_numpy(idx).cuda()
        Pn = np.stack([o[1] for o in ref])
        err = float(np.linalg.norm(P[sel].cpu().numpy() - Pn) / np.linalg.norm(Pn))
        report["agreement"][name] = {"torch_vs_numpy_inverse_rel_err": err}
        print(f"agreement    {name}: torch vs numpy inverse rel. err. {err:.2e}", flush=True)
        try:
            if compiled is None:
                compiled = torch.compile(torch_batched)
            report["torch_compile"][name] = time_gpu(lambda: compiled(st, r), a.reps, warm=5)
            print(f"torch compile {name}: {report['torch_compile'][name]:.3f} ms", flush=True)
        except Exception as e:  # noqa: BLE001 - report why the compiled peer is missing
            report["torch_compile"][name] = None
            report["torch_compile_error"] = f"{type(e).__name__}: {e}"[:500]
            print(f"torch compile failed: {report['torch_compile_error']}", file=sys.stderr)
    with open(a.json, "w") as f:
        json.dump(report, f, indent=2)


if __name__ == "__main__":
    main()
