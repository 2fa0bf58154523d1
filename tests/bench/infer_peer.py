#!/usr/bin/env python3
"""Python peer of `fisura-cli infer`: the sliding-window script an analyst would otherwise
write with tifffile + PyTorch. Same U-Net as Fisura's (core/src/models/networks.cpp; peers/fisura_unet.py), same tile,
overlap, cosine window, batch, precision and output (uint8 probability, tiled Deflate TIFF).
It reads the whole scan with tifffile and blends into full-size accumulators on the device, as
MONAI's sliding_window_inference does.

  infer_peer.py export MODEL.pt [--width 16] [--depth 4] [--seed 1]
      eager weights (MODEL.pt.state) + TorchScript module with its Fisura sidecar (MODEL.pt.json),
      so Fisura and the peer run the very same weights
  infer_peer.py export-identity MODEL.pt
      a TorchScript module whose map is the input's first channel (pixel-exact checks)
  infer_peer.py run MODEL.pt IN.tif OUT.tif [--tile 512] [--overlap 64] [--batch 32]
                    [--precision bf16|fp32] [--cpu]
      prints one JSON line (seconds per phase, megapixels/s, peak RSS)
  infer_peer.py compare A.tif B.tif
      prints how two maps differ (mean/max absolute difference, share of pixels off by > 2)
"""
import argparse
import contextlib
import json
import math
import os
import resource
import sys
import time

import numpy as np
import tifffile
import torch
from torch import nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers"))
from fisura_unet import UNet  # noqa: E402  (Fisura's U-Net, shared by every peer)


def export(a):
    torch.manual_seed(a.seed)
    net = UNet(depth=a.depth, width=a.width).eval()
    for m in net.modules():  # non-trivial BatchNorm statistics, as after training
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.1, 0.1)
            m.running_var.uniform_(0.5, 1.5)
    torch.save({"width": a.width, "depth": a.depth, "state": net.state_dict()}, a.model + ".state")
    # Traced, as many exported models are; the graph holds no tile size (fully convolutional).
    torch.jit.trace(net, torch.rand(1, 3, 256, 256)).save(a.model)
    with open(a.model + ".json", "w") as f:
        json.dump({"format": "fisura-torchscript", "type": "unet", "input_size": 256,
                   "output": "logits",
                   "normalization": {"mean": [0.5, 0.5, 0.5], "std": [0.25, 0.25, 0.25]}}, f)


class FirstChannel(nn.Module):
    """Map = the input's first channel: a pixel-exact check of tiling, blending and writing."""

    def forward(self, x):
        return x[:, 0:1]


def export_identity(a):
    torch.jit.script(FirstChannel()).save(a.model)
    with open(a.model + ".json", "w") as f:
        json.dump({"type": "unet", "input_size": 64, "output": "probabilities",
                   "normalization": {"mean": [0, 0, 0], "std": [1, 1, 1]}}, f)


def axis_windows(length, tile, overlap):
    """Tile origins and cosine windows along one axis, as Fisura places them."""
    if length <= tile:
        origins = [0]
    else:
        origins = list(range(0, length - tile, tile - overlap)) + [length - tile]
    k = np.arange(tile, dtype=np.float64)
    wins = []
    for i, o in enumerate(origins):
        w = np.ones(tile)
        if overlap > 0 and i > 0:
            w[:overlap] *= np.sin(math.pi / 2 * (k[:overlap] + 0.5) / overlap) ** 2
        if overlap > 0 and i < len(origins) - 1:
            w[tile - overlap:] *= np.sin(math.pi / 2 * (tile - k[tile - overlap:] - 0.5) / overlap) ** 2
        w[min(tile, length - o):] = 0
        wins.append(w.astype(np.float32))
    return origins, wins


def run(a):
    dev = torch.device("cpu" if a.cpu else "cuda")
    t0 = time.perf_counter()
    ck = torch.load(a.model + ".state", map_location="cpu")
    net = UNet(depth=ck["depth"], width=ck["width"])
    net.load_state_dict(ck["state"])
    net = net.eval().to(dev)
    amp = a.precision == "bf16" and not a.cpu
    if not a.cpu:
        net = net.to(memory_format=torch.channels_last)
        torch.backends.cudnn.benchmark = True
        torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = True

    img = tifffile.imread(a.input, key=0, maxworkers=os.cpu_count())
    if img.ndim == 2:
        img = np.repeat(img[..., None], 3, axis=2)
    img = img[..., :3]
    t_read = time.perf_counter()
    H, W = img.shape[:2]
    T, O = a.tile, a.overlap
    ys, wys = axis_windows(H, T, O)
    xs, wxs = axis_windows(W, T, O)
    acc = torch.zeros(H, W, device=dev)
    wsum = torch.zeros(H, W, device=dev)
    mean = torch.tensor([0.5] * 3, device=dev).view(1, 3, 1, 1)
    std = torch.tensor([0.25] * 3, device=dev).view(1, 3, 1, 1)
    wy_t = [torch.from_numpy(w).to(dev) for w in wys]
    wx_t = [torch.from_numpy(w).to(dev) for w in wxs]
    jobs = [(r, c) for r in range(len(ys)) for c in range(len(xs))]
    with torch.inference_mode():
        for b in range(0, len(jobs), a.batch):
            part = jobs[b:b + a.batch]
            tiles = np.zeros((len(part), T, T, 3), np.uint8)
            for i, (r, c) in enumerate(part):
                t = img[ys[r]:ys[r] + T, xs[c]:xs[c] + T]
                tiles[i, :t.shape[0], :t.shape[1]] = t
            x = torch.from_numpy(tiles)
            if not a.cpu:
                x = x.pin_memory()
            x = x.to(dev, non_blocking=True).permute(0, 3, 1, 2).float().div_(255)
            x = ((x - mean) / std).contiguous(memory_format=torch.channels_last if not a.cpu
                                               else torch.contiguous_format)
            with (torch.autocast("cuda", dtype=torch.bfloat16) if amp
                  else contextlib.nullcontext()):
                p = torch.sigmoid(net(x).float())[:, 0]
            for i, (r, c) in enumerate(part):
                w = wy_t[r][:, None] * wx_t[c][None, :]
                h, ww = min(T, H - ys[r]), min(T, W - xs[c])
                acc[ys[r]:ys[r] + h, xs[c]:xs[c] + ww] += (p[i] * w)[:h, :ww]
                wsum[ys[r]:ys[r] + h, xs[c]:xs[c] + ww] += w[:h, :ww]
        out = (acc / wsum * 255).round_().clamp_(0, 255).to(torch.uint8).cpu().numpy()
    if not a.cpu:
        torch.cuda.synchronize()
    t_net = time.perf_counter()
    del acc, wsum
    tifffile.imwrite(a.output, out, bigtiff=True, tile=(256, 256), compression="zlib",
                     maxworkers=os.cpu_count())
    t_end = time.perf_counter()
    print(json.dumps({
        "peer": "tifffile+torch", "torch": torch.__version__, "tifffile": tifffile.__version__,
        "device": str(dev), "precision": "bf16" if amp else "fp32", "width": W, "height": H,
        "tiles": len(jobs), "batch": a.batch, "read_seconds": t_read - t0,
        "compute_seconds": t_net - t_read, "write_seconds": t_end - t_net, "seconds": t_end - t0,
        "megapixels_per_second": W * H / 1e6 / (t_end - t0),
        "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
        "peak_gpu_bytes": torch.cuda.max_memory_allocated() if not a.cpu else 0}))


def compare(a):
    x = tifffile.imread(a.a, key=0).astype(np.int16)
    y = tifffile.imread(a.b, key=0).astype(np.int16)
    assert x.shape == y.shape, (x.shape, y.shape)
    d = np.abs(x - y)
    print(json.dumps({"shape": list(x.shape), "mean_abs_diff": float(d.mean()),
                      "max_abs_diff": int(d.max()), "share_off_by_more_than_2": float((d > 2).mean()),
                      "mean_a": float(x.mean()), "mean_b": float(y.mean())}))


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("export")
    e.add_argument("model")
    e.add_argument("--width", type=int, default=16)
    e.add_argument("--depth", type=int, default=4)
    e.add_argument("--seed", type=int, default=1)
    i = sub.add_parser("export-identity")
    i.add_argument("model")
    r = sub.add_parser("run")
    r.add_argument("model")
    r.add_argument("input")
    r.add_argument("output")
    r.add_argument("--tile", type=int, default=512)
    r.add_argument("--overlap", type=int, default=64)
    r.add_argument("--batch", type=int, default=32)
    r.add_argument("--precision", choices=["bf16", "fp32"], default="bf16")
    r.add_argument("--cpu", action="store_true")
    c = sub.add_parser("compare")
    c.add_argument("a")
    c.add_argument("b")
    a = p.parse_args()
    {"export": export, "export-identity": export_identity, "run": run, "compare": compare}[a.cmd](a)


if __name__ == "__main__":
    main()
