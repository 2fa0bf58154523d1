#!/usr/bin/env python3
"""Where the inference network of a tile batch spends its GPU time, kernel by kernel: the folded
U-Net with cuDNN's fused convolution + bias + ReLU (what Fisura runs, infer_fusion_probe.py's
"folded + cudnn conv-bias-relu") and torch.compile of the eager network, bf16, channels-last,
the same batch of 512² tiles. Prints, per variant, the milliseconds per batch of each kernel
(summed over its calls) and the family totals, so the two can be compared line by line.
Usage: python3 tests/bench/profile_infer.py [--batch 42] [--width 16] [--iters 10]"""
import argparse, collections, copy, os, sys

import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers"))
from fisura_unet import UNet  # noqa: E402
from infer_fusion_probe import fold, cudnn_fused  # noqa: E402
from profile_step import family  # noqa: E402


def profile(name, fn, x, iters):
    with torch.inference_mode():
        for _ in range(3):
            fn(x)
        torch.cuda.synchronize()
        acts = [torch.profiler.ProfilerActivity.CUDA]
        with torch.profiler.profile(activities=acts) as prof:
            for _ in range(iters):
                fn(x)
            torch.cuda.synchronize()
    per = collections.defaultdict(lambda: [0.0, 0])
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            per[e.name][0] += e.device_time_total / 1000.0 / iters
            per[e.name][1] += 1
    total = sum(v[0] for v in per.values())
    fams = collections.defaultdict(float)
    print(f"\n## {name}: {total:.3f} ms of kernels per batch")
    print("| ms/batch | calls/batch | kernel |\n|---:|---:|---|")
    for k, (ms, n) in sorted(per.items(), key=lambda kv: -kv[1][0]):
        fams[family(k)] += ms
        print(f"| {ms:.3f} | {n // iters} | {k[:110]} |")
    print("\n| family | ms/batch |\n|---|---:|")
    for f, ms in sorted(fams.items(), key=lambda kv: -kv[1]):
        print(f"| {f} | {ms:.3f} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--width", type=int, default=16)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--batch", type=int, default=42)
    ap.add_argument("--tile", type=int, default=512)
    ap.add_argument("--iters", type=int, default=10)
    a = ap.parse_args()
    torch.backends.cudnn.benchmark = True
    torch.manual_seed(1)
    base = UNet(a.depth, a.width).eval()
    x = torch.rand(a.batch, 3, a.tile, a.tile, device="cuda").to(torch.bfloat16).contiguous(
        memory_format=torch.channels_last)
    cl = dict(memory_format=torch.channels_last)
    fused = cudnn_fused(fold(copy.deepcopy(base))).cuda().to(torch.bfloat16).to(**cl)
    eager = copy.deepcopy(base).cuda().to(torch.bfloat16).to(**cl)
    profile("folded + cudnn conv-bias-relu (Fisura's network)", fused, x, a.iters)
    profile("torch.compile", torch.compile(eager), x, a.iters)


if __name__ == "__main__":
    main()
