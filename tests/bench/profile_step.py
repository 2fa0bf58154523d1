#!/usr/bin/env python3
"""Where one U-Net training step spends its GPU time, by kernel family: PyTorch eager and
torch.compile on the batch already on the GPU (the same network, loss, AdamW and clipping as
`fisura-cli train` and tests/bench/unet_train_peer.py; both call the same ATen/cuDNN kernels as
Fisura's eager step). Prints a Markdown table per mode and one JSON line per mode.
Usage: python3 tests/bench/profile_step.py [--batch 64] [--size 256] [--steps 20]"""
import argparse, collections, json, os, sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers"))
from fisura_unet import UNet  # noqa: E402

FAMILIES = [  # first match wins; kernel names of cuDNN / ATen / Triton on CUDA 13
    ("optimizer", ("adam", "multi_tensor", "foreach")),
    ("batch norm", ("batch_norm", "bn_fw", "bn_bw", "welford")),
    ("convolution (cuDNN)", ("conv", "xmma", "cudnn", "implicit", "wgrad", "dgrad", "fprop",
                             "sm90", "sm80", "cutlass", "gemm", "nchw", "nhwc")),
    ("relu / threshold", ("threshold", "relu", "clamp")),
    ("concatenation", ("cat",)),
    ("max pool", ("max_pool", "pool")),
    ("reduction", ("reduce",)),
    ("copy / cast", ("copy", "cast")),
    ("Triton (fused by Inductor)", ("triton",)),
    ("other elementwise", ("elementwise", "vectorized", "unrolled")),
]


def family(name):
    n = name.lower()
    for fam, keys in FAMILIES:
        if any(k in n for k in keys):
            return fam
    return "other"


def step_fn(net, fwd, opt, x, t):
    def step():
        with torch.autocast("cuda", dtype=torch.bfloat16):
            logits = fwd(x)
            p = torch.sigmoid(logits.float())
            inter = (p * t).sum()
            loss = F.binary_cross_entropy_with_logits(logits.float(), t) + \
                1 - (2 * inter + 1) / (p.sum() + t.sum() + 1)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()
    return step


def profile(mode, a):
    torch.manual_seed(1)
    net = UNet(a.depth, a.width).cuda().to(memory_format=torch.channels_last)
    fwd = torch.compile(net) if mode == "compile" else net
    opt = torch.optim.AdamW(net.parameters(), lr=1e-3, weight_decay=1e-4, fused=True)
    x = torch.rand(a.batch, 3, a.size, a.size, device="cuda").contiguous(
        memory_format=torch.channels_last)
    t = (torch.rand(a.batch, 1, a.size, a.size, device="cuda") > 0.9).float()
    step = step_fn(net, fwd, opt, x, t)
    for _ in range(5):
        step()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(a.steps):
        step()
    end.record()
    torch.cuda.synchronize()
    wall_ms = start.elapsed_time(end) / a.steps
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(a.steps):
            step()
        torch.cuda.synchronize()
    fam = collections.Counter()
    kern = collections.Counter()
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            us = e.device_time_total if hasattr(e, "device_time_total") else e.cuda_time_total
            fam[family(e.name)] += us
            kern[e.name[:90]] += us
    total = sum(fam.values())
    print(f"\n### {mode}: {wall_ms:.2f} ms per step ({a.batch * 1000 / wall_ms:.0f} img/s), "
          f"kernels {total / a.steps / 1000:.2f} ms per step\n")
    print("| kernel family | ms per step | share |\n|---|---:|---:|")
    for f, us in fam.most_common():
        print(f"| {f} | {us / a.steps / 1000:.2f} | {100 * us / total:.1f} % |")
    print("\nTop kernels:")
    for k, us in kern.most_common(25):
        print(f"  {us / a.steps / 1000:7.3f} ms  {k}")
    print(json.dumps({"mode": mode, "ms_per_step": wall_ms, "img_s": a.batch * 1000 / wall_ms,
                      "families_ms": {f: us / a.steps / 1000 for f, us in fam.items()}}))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--width", type=int, default=32)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--modes", default="eager,compile")
    a = ap.parse_args()
    torch.backends.cudnn.benchmark = True
    for mode in a.modes.split(","):
        profile(mode, a)


if __name__ == "__main__":
    main()
