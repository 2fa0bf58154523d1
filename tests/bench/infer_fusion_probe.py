#!/usr/bin/env python3
"""Network-only inference of Fisura's U-Net (peers/fisura_unet.py) on a batch of tiles,
bf16 channels-last, in the variants the throughput issue names: eager, BatchNorm folded,
folded + cuDNN's fused convolution + bias + ReLU (torch.cudnn_convolution_relu, the path LibTorch
exposes), and torch.compile of each. Prints MP/s of tiles per variant and where the time goes.
Usage: python3 tests/bench/infer_fusion_probe.py [--width 16] [--batch 32] [--tile 512]"""
import argparse, collections, json, os, sys, time

import torch
import torch.nn.functional as F
from torch import nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers"))
from fisura_unet import UNet, DoubleConv  # noqa: E402


def rewrite_pairs(net, first, second, make):
    """In every DoubleConv, each `first` layer followed by a `second` layer becomes make(a, b)."""
    for m in net.modules():
        if isinstance(m, DoubleConv):
            layers, out, i = list(m.children()), [], 0
            while i < len(layers):
                if isinstance(layers[i], first) and i + 1 < len(layers) and \
                        isinstance(layers[i + 1], second):
                    out.append(make(layers[i], layers[i + 1]))
                    i += 2
                else:
                    out.append(layers[i])
                    i += 1
            for k in list(m._modules):
                del m._modules[k]
            for k, l in enumerate(out):
                m.add_module(str(k), l)
    return net


def fold(net):
    """Each Conv2d + BatchNorm2d of a DoubleConv becomes one Conv2d with a bias (eval)."""
    return rewrite_pairs(net, nn.Conv2d, nn.BatchNorm2d,
                         lambda c, b: torch.nn.utils.fusion.fuse_conv_bn_eval(c, b))


class ConvRelu(nn.Module):
    def __init__(self, conv):
        super().__init__()
        self.w = nn.Parameter(conv.weight.detach())
        self.b = nn.Parameter(conv.bias.detach())
        self.pad = conv.padding

    def forward(self, x):
        return torch.cudnn_convolution_relu(x, self.w, self.b, (1, 1), self.pad, (1, 1), 1)


def cudnn_fused(net):
    """Each folded Conv2d + ReLU becomes one cuDNN call (what Fisura runs)."""
    return rewrite_pairs(net, nn.Conv2d, nn.ReLU, lambda c, r: ConvRelu(c))


def bench(fn, x, iters):
    with torch.inference_mode():
        for _ in range(3):
            fn(x)
        torch.cuda.synchronize()
        t = time.perf_counter()
        for _ in range(iters):
            y = fn(x)
        torch.cuda.synchronize()
    return (time.perf_counter() - t) / iters, y


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--width", type=int, default=16)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--tile", type=int, default=512)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--all-modes", action="store_true",
                    help="also torch.compile's reduce-overhead and max-autotune-no-cudagraphs")
    a = ap.parse_args()
    torch.backends.cudnn.benchmark = True
    torch.manual_seed(1)
    base = UNet(a.depth, a.width).eval()
    for m in base.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.1, 0.1)
            m.running_var.uniform_(0.5, 1.5)
    x = torch.rand(a.batch, 3, a.tile, a.tile, device="cuda").to(torch.bfloat16).contiguous(
        memory_format=torch.channels_last)
    mp = a.batch * a.tile * a.tile / 1e6
    import copy
    variants = {}
    eager = copy.deepcopy(base).cuda().to(torch.bfloat16).to(memory_format=torch.channels_last)
    folded = fold(copy.deepcopy(base)).cuda().to(torch.bfloat16).to(
        memory_format=torch.channels_last)
    fused = cudnn_fused(fold(copy.deepcopy(base))).cuda().to(torch.bfloat16).to(
        memory_format=torch.channels_last)
    variants["eager"] = eager
    variants["folded"] = folded
    variants["folded + cudnn conv-bias-relu"] = fused
    variants["compile"] = torch.compile(eager)
    variants["folded + compile"] = torch.compile(folded)
    if a.all_modes:  # the strongest settings a PyTorch user reaches for, CUDA graphs included
        variants["compile reduce-overhead (CUDA graphs)"] = torch.compile(
            copy.deepcopy(eager), mode="reduce-overhead")
        variants["compile max-autotune-no-cudagraphs"] = torch.compile(
            copy.deepcopy(eager), mode="max-autotune-no-cudagraphs")
    ref = None
    rows = []
    for name, fn in variants.items():
        try:
            s, y = bench(fn, x, a.iters)
        except Exception as e:  # a fused path the cuDNN build does not have
            print(f"{name}: failed: {str(e).splitlines()[0]}")
            continue
        p = torch.sigmoid(y.float())
        diff = 0.0 if ref is None else float((p - ref).abs().max()) * 255
        ref = p if ref is None else ref
        rows.append((name, mp / s, diff))
        print(json.dumps({"variant": name, "mp_per_s": mp / s, "ms_per_batch": 1000 * s,
                          "max_grey_levels_vs_eager": diff}))
    print("\n| network (bf16, channels-last, %d x %d² tiles) | MP/s | max diff (grey levels) |" %
          (a.batch, a.tile))
    print("|---|---:|---:|")
    for name, r, d in rows:
        print(f"| {name} | {r:.0f} | {d:.2f} |")


if __name__ == "__main__":
    main()
