#!/usr/bin/env python3
"""PyTorch peer of `fisura-cli train --task segment`: the same U-Net, loss, optimiser, schedule,
augmentation and data files (TIFF images/ + masks/), read by a DataLoader with workers.
Prints one JSON line: images/s per epoch (training only), peak GPU memory.
Runs on PyTorch 2.x with CUDA (the GPU benchmark) and on Debian's python3-torch 1.13 on the CPU
(`--device cpu --precision fp32`, TIFFs read by Pillow when tifffile is missing)."""
import argparse, glob, json, math, os, random, sys, time

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers"))
from fisura_unet import UNet  # noqa: E402  (Fisura's U-Net, shared by every peer)

try:  # OpenCV decodes Fisura's Deflate TIFFs fastest (libtiff, no Python per pixel)
    import cv2

    cv2.setNumThreads(1)  # one per DataLoader worker

    def imread(p):
        a = cv2.imread(p, cv2.IMREAD_UNCHANGED)
        return a[..., 2::-1] if a.ndim == 3 else a  # BGR(A) -> RGB
except ImportError:
    try:
        from tifffile import imread
    except ImportError:  # Debian's CPU benchmark: Pillow decodes Fisura's Deflate TIFFs
        from PIL import Image

        def imread(p):
            return np.asarray(Image.open(p))


class CrackCrops(torch.utils.data.Dataset):
    """Random crops with flips, 90-degree rotations, brightness/contrast (as Fisura's loader).
    With gpu_aug the workers only decode and crop; the flips, rotations and brightness/contrast
    run per batch on the GPU (augment_on_device), so Python's per-sample cost cannot make the
    peer loader-bound."""

    def __init__(self, root, size, gpu_aug=False):
        self.images = sorted(glob.glob(os.path.join(root, "images", "*.tif")))
        self.size = size
        self.gpu_aug = gpu_aug

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        p = self.images[i]
        img = imread(p)
        mask = imread(os.path.join(os.path.dirname(os.path.dirname(p)), "masks", os.path.basename(p)))
        if img.ndim == 2:
            img = np.repeat(img[..., None], 3, axis=2)
        img = img[..., :3]
        if mask.ndim == 3:
            mask = mask.max(axis=2)
        s = self.size
        h, w = mask.shape
        y, x = random.randint(0, h - s), random.randint(0, w - s)
        img, mask = img[y:y + s, x:x + s], (mask[y:y + s, x:x + s] > 0).astype(np.uint8)
        if self.gpu_aug:
            return torch.from_numpy(np.ascontiguousarray(img)), torch.from_numpy(np.ascontiguousarray(mask))
        if random.random() < 0.5:
            img, mask = img[:, ::-1], mask[:, ::-1]
        if random.random() < 0.5:
            img, mask = img[::-1], mask[::-1]
        k = random.randint(0, 3)
        img, mask = np.rot90(img, k), np.rot90(mask, k)
        c, b = random.uniform(0.8, 1.2), random.uniform(-20, 20)
        img = np.clip(img.astype(np.float32) * c + b + 128 * (1 - c), 0, 255).astype(np.uint8)
        return torch.from_numpy(np.ascontiguousarray(img)), torch.from_numpy(np.ascontiguousarray(mask))


def augment_on_device(x, t):
    """The loader's augmentation for a whole batch on the device: x uint8 NHWC, t uint8 NHW.
    One flip / rotation draw per batch (as cheap as it gets), brightness/contrast per sample."""
    if random.random() < 0.5:
        x, t = x.flip(2), t.flip(2)
    if random.random() < 0.5:
        x, t = x.flip(1), t.flip(1)
    k = random.randint(0, 3)
    x, t = torch.rot90(x, k, (1, 2)), torch.rot90(t, k, (1, 2))
    n = x.shape[0]
    c = torch.empty(n, 1, 1, 1, device=x.device).uniform_(0.8, 1.2)
    b = torch.empty(n, 1, 1, 1, device=x.device).uniform_(-20, 20)
    x = (x.float() * c + b + 128 * (1 - c)).clamp_(0, 255)
    return x, t


def lr_at(base, p):  # one-cycle, as Fisura's trainer
    warm, start, end = 0.3, base / 25, base / 1e4
    if p < warm:
        return start + (base - start) * 0.5 * (1 - math.cos(math.pi * p / warm))
    return end + (base - end) * 0.5 * (1 + math.cos(math.pi * (p - warm) / (1 - warm)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--workers", type=int, default=8)
    ap.add_argument("--precision", choices=["bf16", "fp32"], default="bf16")
    ap.add_argument("--compile", action="store_true")
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--width", type=int, default=32)
    ap.add_argument("--device", default="cuda", help="cuda | cpu")
    ap.add_argument("--max-batches", type=int, default=0, help="cap batches per epoch (0 = all)")
    ap.add_argument("--threads", type=int, default=0, help="intra-op threads (0 = torch's default)")
    ap.add_argument("--in-memory", action="store_true",
                    help="reuse one batch already on the GPU: the compute ceiling without the loader")
    ap.add_argument("--gpu-aug", action="store_true",
                    help="workers decode and crop only; flips, rotations, brightness/contrast per batch on the device")
    ap.add_argument("--report-seconds", type=float, default=0.0,
                    help="read the loss back every S seconds instead of every batch (0 = every batch)")
    a = ap.parse_args()

    torch.backends.cudnn.benchmark = True
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    dev = torch.device(a.device)
    cuda = dev.type == "cuda"
    if a.threads > 0:
        torch.set_num_threads(a.threads)
    if not cuda:  # batches by shared-memory file name: passing descriptors fails in some containers
        torch.multiprocessing.set_sharing_strategy("file_system")
    torch.manual_seed(1)
    net = UNet(a.depth, a.width).to(dev)
    cl = a.precision == "bf16"
    if cl:
        net = net.to(memory_format=torch.channels_last)
    fwd = torch.compile(net) if a.compile else net
    opt = torch.optim.AdamW(net.parameters(), lr=1e-3, weight_decay=1e-4)
    ds = CrackCrops(a.data, a.size, a.gpu_aug)
    dl = torch.utils.data.DataLoader(ds, batch_size=a.batch, shuffle=True, drop_last=True, num_workers=a.workers,
                                     pin_memory=cuda, persistent_workers=a.workers > 0)
    mean = torch.full((1, 3, 1, 1), 0.5 * 255, device=dev)
    std = torch.full((1, 3, 1, 1), 0.25 * 255, device=dev)
    per_epoch = min(len(dl), a.max_batches) if a.max_batches > 0 else len(dl)
    total = a.epochs * per_epoch * a.batch
    seen, rates = 0, []
    compile_s = None
    cached = None
    if a.in_memory:
        img, mask = next(iter(dl))
        cached = [(img.to(dev), mask.to(dev))] * per_epoch
    for ep in range(a.epochs):
        net.train()
        if cuda:
            torch.cuda.reset_peak_memory_stats()
        t0, n = time.perf_counter(), 0
        last_report = t0
        for i, (img, mask) in enumerate(cached if cached is not None else dl):
            if i >= per_epoch:
                break
            tb = time.perf_counter()
            for g in opt.param_groups:
                g["lr"] = lr_at(1e-3, seen / total)
            x = img.to(dev, non_blocking=True)
            t = mask.to(dev, non_blocking=True)
            if a.gpu_aug:
                x, t = augment_on_device(x, t)
            x = x.permute(0, 3, 1, 2).float()
            x = (x - mean) / std
            x = x.contiguous(memory_format=torch.channels_last) if cl else x.contiguous()
            t = t.unsqueeze(1).float()
            with torch.autocast(dev.type, dtype=torch.bfloat16, enabled=cl):
                out = fwd(x)
            logits = out.float()
            p = torch.sigmoid(logits)
            loss = F.binary_cross_entropy_with_logits(logits, t) + \
                1 - (2 * (p * t).sum() + 1) / (p.sum() + t.sum() + 1)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step()
            if a.report_seconds <= 0 or time.perf_counter() - last_report >= a.report_seconds:
                loss.item()  # the progress report's read-back (Fisura: every 0.5 s on a GPU)
                last_report = time.perf_counter()
            if compile_s is None and a.compile:
                compile_s = time.perf_counter() - tb
            n += img.shape[0]
            seen += img.shape[0]
        if cuda:
            torch.cuda.synchronize()  # the epoch ends when its last step has run
        dt = time.perf_counter() - t0
        rates.append(n / dt)
        print(json.dumps({"epoch": ep + 1, "images_per_second": n / dt, "loss": loss.item()}), file=sys.stderr,
              flush=True)
    steady = rates[1:] if len(rates) > 1 else rates
    print(json.dumps({"peer": "pytorch", "torch": torch.__version__, "precision": a.precision,
                      "compile": a.compile, "in_memory": a.in_memory, "gpu_aug": a.gpu_aug,
                      "report_seconds": a.report_seconds, "batch": a.batch, "workers": a.workers,
                      "epoch_images_per_second": rates,
                      "images_per_second": sum(steady) / len(steady),
                      "first_step_seconds": compile_s,
                      "threads": torch.get_num_threads(),
                      "peak_gpu_bytes": torch.cuda.max_memory_allocated() if cuda else 0,
                      "device": torch.cuda.get_device_name(0) if cuda else "cpu"}), flush=True)


if __name__ == "__main__":
    main()
