#!/usr/bin/env python3
"""PyTorch peer of Fisura on the CPU (Debian's python3-torch): the script an analyst would write.

  cpu_peer.py infer IN.tif OUT.tif [--width 16] [--depth 4] [--tile 512] [--overlap 64]
                    [--batch 1] [--threads N] [--bf16] [--channels-last]
      sliding-window inference (tifffile reads the scan, cosine-blended tiles, uint8 map written as
      a tiled Deflate TIFF); prints one JSON line (seconds, megapixels/s, peak RSS)
  cpu_peer.py train DATA [--width 16] [--depth 4] [--size 256] [--batch 8] [--epochs 3]
                    [--max-batches 3] [--workers 1] [--threads N] [--bf16] [--channels-last]
      U-Net training on DATA/images/*.tif + DATA/masks/*.tif (random crop, flips, rotations,
      brightness/contrast in a DataLoader worker; BCE + Dice; AdamW; clipping); prints one JSON
      line (images/s of epochs 2..E)

Without --threads, torch keeps its default intra-op threads (1 with Debian's build on a 2-core
machine); that is "PyTorch with its defaults". The U-Net is Fisura's (core/src/models/networks.cpp).
"""
import argparse, contextlib, glob, json, math, os, random, resource, sys, time

import numpy as np
import torch
import torch.nn.functional as F


# Fisura's U-Net, shared so every peer runs the same network.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "peers"))
from fisura_unet import UNet  # noqa: E402


def autocast(on):
    return torch.autocast("cpu", dtype=torch.bfloat16) if on else contextlib.nullcontext()


def axis_windows(length, tile, overlap):
    step = tile - overlap
    starts = list(range(0, max(1, length - tile) + 1, step)) if length > tile else [0]
    if starts[-1] + tile < length:
        starts.append(length - tile)
    w = np.ones(tile, np.float32)
    if overlap > 0:
        ramp = 0.5 - 0.5 * np.cos(np.pi * (np.arange(overlap) + 0.5) / overlap)
        w[:overlap], w[-overlap:] = ramp, ramp[::-1]
    return starts, [w] * len(starts)


def infer(a):
    import tifffile
    t0 = time.perf_counter()
    torch.manual_seed(1)
    net = UNet(a.depth, a.width).eval()
    fmt = torch.channels_last if a.channels_last else torch.contiguous_format
    net = net.to(memory_format=fmt)
    img = tifffile.imread(a.input, key=0, maxworkers=os.cpu_count())
    if img.ndim == 2:
        img = np.repeat(img[..., None], 3, axis=2)
    img = img[..., :3]
    H, W = img.shape[:2]
    T, O = a.tile, a.overlap
    ys, wys = axis_windows(H, T, O)
    xs, wxs = axis_windows(W, T, O)
    acc, wsum = torch.zeros(H, W), torch.zeros(H, W)
    mean = torch.full((1, 3, 1, 1), 0.5)
    std = torch.full((1, 3, 1, 1), 0.25)
    jobs = [(r, c) for r in range(len(ys)) for c in range(len(xs))]
    with torch.inference_mode():
        for b in range(0, len(jobs), a.batch):
            part = jobs[b:b + a.batch]
            tiles = np.zeros((len(part), T, T, 3), np.uint8)
            for i, (r, c) in enumerate(part):
                t = img[ys[r]:ys[r] + T, xs[c]:xs[c] + T]
                tiles[i, :t.shape[0], :t.shape[1]] = t
            x = torch.from_numpy(tiles).permute(0, 3, 1, 2).float().div_(255)
            x = ((x - mean) / std).contiguous(memory_format=fmt)
            with autocast(a.bf16):
                p = torch.sigmoid(net(x).float())[:, 0]
            for i, (r, c) in enumerate(part):
                w = torch.from_numpy(wys[r][:, None] * wxs[c][None, :])
                h, ww = min(T, H - ys[r]), min(T, W - xs[c])
                acc[ys[r]:ys[r] + h, xs[c]:xs[c] + ww] += (p[i] * w)[:h, :ww]
                wsum[ys[r]:ys[r] + h, xs[c]:xs[c] + ww] += w[:h, :ww]
        out = (acc / wsum * 255).round_().clamp_(0, 255).to(torch.uint8).numpy()
    tifffile.imwrite(a.output, out, bigtiff=True, tile=(256, 256), compression="zlib",
                     maxworkers=os.cpu_count())
    s = time.perf_counter() - t0
    print(json.dumps({"peer": "pytorch", "torch": torch.__version__, "threads": torch.get_num_threads(),
                      "bf16": a.bf16, "channels_last": a.channels_last, "seconds": s,
                      "megapixels_per_second": W * H / 1e6 / s,
                      "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}))


class CrackCrops(torch.utils.data.Dataset):
    """Random crops with flips, 90-degree rotations, brightness/contrast (as Fisura's loader)."""

    def __init__(self, root, size):
        self.images = sorted(glob.glob(os.path.join(root, "images", "*.tif")))
        self.size = size

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        import tifffile
        p = self.images[i]
        img = tifffile.imread(p)
        mask = tifffile.imread(os.path.join(os.path.dirname(os.path.dirname(p)), "masks", os.path.basename(p)))
        if img.ndim == 2:
            img = np.repeat(img[..., None], 3, axis=2)
        img = img[..., :3]
        if mask.ndim == 3:
            mask = mask.max(axis=2)
        s = self.size
        h, w = mask.shape
        y, x = random.randint(0, h - s), random.randint(0, w - s)
        img, mask = img[y:y + s, x:x + s], (mask[y:y + s, x:x + s] > 0).astype(np.uint8)
        if random.random() < 0.5:
            img, mask = img[:, ::-1], mask[:, ::-1]
        if random.random() < 0.5:
            img, mask = img[::-1], mask[::-1]
        k = random.randint(0, 3)
        img, mask = np.rot90(img, k), np.rot90(mask, k)
        c, b = random.uniform(0.8, 1.2), random.uniform(-20, 20)
        img = np.clip(img.astype(np.float32) * c + b + 128 * (1 - c), 0, 255).astype(np.uint8)
        return torch.from_numpy(np.ascontiguousarray(img)), torch.from_numpy(np.ascontiguousarray(mask))


def train(a):
    torch.manual_seed(1)
    torch.multiprocessing.set_sharing_strategy("file_system")
    fmt = torch.channels_last if a.channels_last else torch.contiguous_format
    net = UNet(a.depth, a.width).to(memory_format=fmt)
    opt = torch.optim.AdamW(net.parameters(), lr=1e-3, weight_decay=1e-4)
    dl = torch.utils.data.DataLoader(CrackCrops(a.data, a.size), batch_size=a.batch, shuffle=True,
                                     drop_last=True, num_workers=a.workers,
                                     persistent_workers=a.workers > 0)
    mean, std = torch.full((1, 3, 1, 1), 0.5 * 255), torch.full((1, 3, 1, 1), 0.25 * 255)
    per_epoch = min(len(dl), a.max_batches) if a.max_batches > 0 else len(dl)
    rates = []
    for ep in range(a.epochs):
        net.train()
        t0, n = time.perf_counter(), 0
        for i, (img, mask) in enumerate(dl):
            if i >= per_epoch:
                break
            x = ((img.permute(0, 3, 1, 2).float() - mean) / std).contiguous(memory_format=fmt)
            t = mask.unsqueeze(1).float()
            with autocast(a.bf16):
                logits = net(x).float()
            p = torch.sigmoid(logits)
            loss = F.binary_cross_entropy_with_logits(logits, t) + \
                1 - (2 * (p * t).sum() + 1) / (p.sum() + t.sum() + 1)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step()
            loss.item()
            n += img.shape[0]
        rates.append(n / (time.perf_counter() - t0))
    steady = rates[1:] or rates
    print(json.dumps({"peer": "pytorch", "torch": torch.__version__, "threads": torch.get_num_threads(),
                      "bf16": a.bf16, "channels_last": a.channels_last, "epoch_images_per_second": rates,
                      "images_per_second": sum(steady) / len(steady)}))


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    i = sub.add_parser("infer")
    i.add_argument("input")
    i.add_argument("output")
    i.add_argument("--tile", type=int, default=512)
    i.add_argument("--overlap", type=int, default=64)
    i.add_argument("--batch", type=int, default=1)
    t = sub.add_parser("train")
    t.add_argument("data")
    t.add_argument("--size", type=int, default=256)
    t.add_argument("--batch", type=int, default=8)
    t.add_argument("--epochs", type=int, default=3)
    t.add_argument("--max-batches", type=int, default=3)
    t.add_argument("--workers", type=int, default=1)
    for s in (i, t):
        s.add_argument("--width", type=int, default=16)
        s.add_argument("--depth", type=int, default=4)
        s.add_argument("--threads", type=int, default=0, help="0 = torch's default")
        s.add_argument("--bf16", action="store_true", help="bf16 autocast on the CPU")
        s.add_argument("--channels-last", action="store_true")
    a = p.parse_args()
    if a.threads > 0:
        torch.set_num_threads(a.threads)
    infer(a) if a.cmd == "infer" else train(a)


if __name__ == "__main__":
    main()
